/**
 * Search end to end on the bundled demo session: `/` focuses the box, results stream in with the count the core
 * gives in Node for the same bytes, Enter / ↑↓ move the timeline cursor to each result, the "visible" ranges are
 * drawn on the timeline, a selected entry's lifespan too, a bad regex says why, Esc clears.
 */

import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { LogSearch, compileMatcher } from '../src/core/index.ts'
import { readmeScreenshot, waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const DEMO = readFileSync(new URL('../public/demo/demo-session.jsonl', import.meta.url))

async function expectedSearch(text: string) {
  const log = await foldInNode(DEMO)
  const compiled = compileMatcher(text, false)
  if (!compiled.ok) throw new Error(compiled.error)
  const search = new LogSearch(log, compiled.matcher)
  const matches = []
  while (!search.done) matches.push(...search.step())
  return { log, matches, total: search.total, visible: search.visible() }
}

test('search: type, results, Enter jumps the cursor, visible ranges on the timeline', async ({ page }) => {
  const expected = await expectedSearch('coding')
  expect(expected.total).toBeGreaterThan(1)
  expect(expected.visible.length).toBeGreaterThan(1)
  await page.goto('/')
  await waitLoaded(page)
  await page.locator('body').press('/')
  const input = page.getByTestId('search-input')
  await expect(input).toBeFocused()
  await input.pressSequentially('CODING')
  const results = page.getByTestId('search-results')
  await expect(results).toHaveAttribute('data-done', 'true')
  await expect(results).toHaveAttribute('data-count', String(expected.total))
  await expect
    .poll(() =>
      results.locator('[role=option][data-seq]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq')))),
    )
    .toStrictEqual(expected.matches.map((m) => m.seq))
  // The match is highlighted as a <mark> text span.
  await expect(results.locator('mark').first()).toHaveText(/^coding$/i)

  const timeline = page.getByTestId('timeline')
  await input.press('Enter')
  await expect(timeline).toHaveAttribute('data-cursor', String(expected.matches[0]?.seq))
  await input.press('Enter')
  await expect(timeline).toHaveAttribute('data-cursor', String(expected.matches[1]?.seq))
  await input.press('ArrowUp')
  await expect(timeline).toHaveAttribute('data-cursor', String(expected.matches[0]?.seq))
  await expect(results.locator('[aria-selected=true]')).toHaveAttribute('data-seq', String(expected.matches[0]?.seq))

  const visible = page.getByTestId('search-visible')
  await expect(visible).toHaveAttribute('data-count', String(expected.visible.length))
  await expect
    .poll(() =>
      visible
        .locator('[data-from]')
        .evaluateAll((els) =>
          els.map((e) => ({ from: Number(e.getAttribute('data-from')), to: Number(e.getAttribute('data-to')) })),
        ),
    )
    .toEqual(expected.visible)

  // The selected result's event: its lifespan on the timeline equals the fold's entered / shadowed facts.
  const timelineFacts = expected.log.fold.timeline
  const first = expected.matches.find((m) => m.seq !== null && timelineFacts.findNode(m.seq) !== -1)
  if (first !== undefined && first.seq !== null) {
    await results.locator(`[role=option][data-seq="${first.seq}"]`).click()
    const node = timelineFacts.findNode(first.seq)
    const by = timelineFacts.shadowedBy(node)
    const to = by === -1 ? expected.log.length - 1 : timelineFacts.indexOf(by) - 1
    const span = page.getByTestId('lifespan-timeline').locator('[data-from]')
    await expect(span).toHaveAttribute('data-from', String(timelineFacts.indexOf(node)))
    await expect(span).toHaveAttribute('data-to', String(to))
  }
  await expect(page.getByTestId('transcript-pane').getByTestId('lifespan').first()).toBeVisible()
  await readmeScreenshot(page, 'search')

  await input.press('Escape')
  await expect(input).toHaveValue('')
  await expect(results).toHaveCount(0)
  await expect(page.getByTestId('search-visible')).toHaveCount(0)
})

test('search: regex mode, a bad regex says why; filters narrow the results', async ({ page }) => {
  await page.goto('/')
  await waitLoaded(page)
  const input = page.getByTestId('search-input')
  await page.getByTestId('search-regex').check()
  await input.fill('(unclosed')
  await expect(page.getByTestId('search-status')).toContainText('Invalid regular expression')
  await expect(page.getByTestId('search-results')).toHaveCount(0)
  // The counts the core gives in Node, waited for in the page (a single read after `data-done` could still be the
  // previous search's).
  const log = await foldInNode(DEMO)
  const compiled = compileMatcher('cod(ing|e)s?', true)
  if (!compiled.ok) throw new Error(compiled.error)
  const total = (options: { surfaceOnly: boolean }) => {
    const search = new LogSearch(log, compiled.matcher, options)
    while (!search.done) search.step()
    return search.total
  }
  const all = total({ surfaceOnly: false })
  const onSurface = total({ surfaceOnly: true })
  expect(onSurface).toBeGreaterThan(0)
  expect(onSurface).toBeLessThan(all)
  await input.fill('cod(ing|e)s?')
  const results = page.getByTestId('search-results')
  await expect(results).toHaveAttribute('data-count', String(all))
  await expect(results).toHaveAttribute('data-done', 'true')
  await page.getByTestId('search-surface-only').check()
  await expect(results).toHaveAttribute('data-count', String(onSurface))
  await expect(results).toHaveAttribute('data-done', 'true')
})
