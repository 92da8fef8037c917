/** Keyboard stepping on the timeline, deep links that survive a reload, and virtualization on a long log. */

import { expect, test } from '@playwright/test'
import { openLog, renderedEntries, screenshot } from './support/app.ts'
import { expectPanesMatchCore } from './support/assertions.ts'
import { foldInNode } from './support/expected.ts'
import { longLog, nestedReplaceLog } from './support/generated-logs.ts'
import { indexAtPointer } from '../src/ui/panes/timeline/timeline-marks.ts'

test('keyboard: arrows, shift+arrows, [ ], Home/End', async ({ page }) => {
  const { jsonl, prune, first, second } = nestedReplaceLog()
  const log = await foldInNode(jsonl)
  await openLog(page, 'nested.jsonl', jsonl)
  const timeline = page.getByTestId('timeline')
  const last = log.length - 1
  await expect(timeline).toHaveAttribute('data-max', String(last))
  await timeline.focus()
  await page.keyboard.press('Home')
  await expect(timeline).toHaveAttribute('data-cursor', '0')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(timeline).toHaveAttribute('data-cursor', '2')
  await page.keyboard.press('ArrowLeft')
  await expect(timeline).toHaveAttribute('data-cursor', '1')
  await expectPanesMatchCore(page, log, 1)
  await page.keyboard.press(']')
  await expect(timeline).toHaveAttribute('data-cursor', String(prune))
  await page.keyboard.press(']')
  await expect(timeline).toHaveAttribute('data-cursor', String(first))
  await page.keyboard.press(']')
  await expect(timeline).toHaveAttribute('data-cursor', String(second))
  await page.keyboard.press('[')
  await expect(timeline).toHaveAttribute('data-cursor', String(first))
  // shift+→: the next event that changed the surface (a node entered).
  const entries = Array.from({ length: log.fold.timeline.nodeCount }, (_, n) => log.fold.timeline.indexOf(n))
  const nextChange = entries.find((i) => i > first)
  await page.keyboard.press('Shift+ArrowRight')
  await expect(timeline).toHaveAttribute('data-cursor', String(nextChange))
  await page.keyboard.press('Shift+ArrowLeft')
  await expect(timeline).toHaveAttribute('data-cursor', String(first))
  await page.keyboard.press('End')
  await expect(timeline).toHaveAttribute('data-cursor', String(last))
  await expectPanesMatchCore(page, log, last)
})

test('dragging the scrubber moves every pane with it', async ({ page }) => {
  const { jsonl } = nestedReplaceLog()
  const log = await foldInNode(jsonl)
  await openLog(page, 'nested.jsonl', jsonl)
  const box = await page.getByTestId('timeline').boundingBox()
  if (box === null) throw new Error('timeline has no box')
  const endX = Math.round(box.x + box.width * 0.5)
  await page.mouse.move(box.x + 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(endX, box.y + box.height / 2, { steps: 8 })
  await page.mouse.up()
  // The drag moves the cursor once per frame: the last move may land after the button is up. Wait for the event
  // under the pointer where the drag ended (the scrubber's own mapping), not for whatever a single read returns.
  const cursor = indexAtPointer(endX, box.x, box.width, log.length - 1)
  expect(cursor).toBeGreaterThan(0)
  expect(cursor).toBeLessThan(log.length - 1)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(log.seqOf(cursor)))
  await expectPanesMatchCore(page, log, cursor)
})

test('deep link: #seq and #sel land on the same state after a reload', async ({ page }) => {
  const { jsonl, first } = nestedReplaceLog()
  const log = await foldInNode(jsonl)
  await openLog(page, 'nested.jsonl', jsonl, `#seq=${first}&sel=3`)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(first))
  await expect(page.getByTestId('inspector')).toContainText('assistant/message')
  await expectPanesMatchCore(page, log, first)
  // Selecting another entry and stepping rewrites the hash; a reload restores both.
  await page.getByTestId('surface-pane').locator(`[data-seq="${first}"]`).click()
  await page.getByTestId('timeline').focus()
  await page.keyboard.press('ArrowRight')
  await expect(page).toHaveURL(new RegExp(`#seq=${first + 1}&sel=${first}$`))
  await page.reload()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(first + 1))
  await expect(page.getByTestId('surface-pane').locator(`[data-seq="${first}"]`)).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('inspector')).toContainText('cmp-1')
})

test('a 20,000-message log mounts only a window of rows', async ({ page }) => {
  const count = 20_000
  await openLog(page, 'long.jsonl', longLog(count))
  await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', String(count))
  await expect(page.getByTestId('transcript-pane')).toHaveAttribute('data-count', String(count))
  await expect.poll(async () => (await renderedEntries(page, 'surface-pane')).length).toBeGreaterThan(3)
  expect((await renderedEntries(page, 'surface-pane')).length).toBeLessThan(80)
  expect((await renderedEntries(page, 'transcript-pane')).length).toBeLessThan(80)
  // Keyboard navigation inside a list scrolls the window along.
  await page.getByRole('listbox', { name: 'Model surface nodes' }).focus()
  await page.keyboard.press('End')
  await expect(page.getByTestId('surface-pane').locator(`[data-seq="${count - 1}"]`)).toBeVisible()
  await screenshot(page, 'long')
})

test('theme toggle, log-only toggle and pane resizing work from the keyboard', async ({ page }) => {
  const { jsonl, first } = nestedReplaceLog()
  const log = await foldInNode(jsonl)
  await openLog(page, 'nested.jsonl', jsonl, `#seq=${log.length - 1}&sel=${first}`)
  const themeButton = page.getByRole('button', { name: 'Dark theme' })
  await themeButton.focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  const transcript = page.getByTestId('transcript-pane')
  await transcript.getByLabel('log-only events').focus()
  await page.keyboard.press('Space')
  await expect(transcript).toHaveAttribute('data-count', String(log.allRows.countAt(log.length - 1)))
  const splitter = page.getByRole('separator', { name: 'Resize transcript' })
  const before = Number(await splitter.getAttribute('aria-valuenow'))
  await splitter.focus()
  await page.keyboard.press('ArrowRight')
  await expect(splitter).not.toHaveAttribute('aria-valuenow', String(before))
  await screenshot(page, 'dark')
})
