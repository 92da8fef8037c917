/**
 * The Request view's layout on the screens people use (issue 35): on the demo's step 3.1 (the step after the
 * summary) the message diff is in view without scrolling anything, at 1440x900 and at 1280x800, with the chart open;
 * and the step picker never hides a rejected step's rules (its tooltip holds the whole line the list shows cut).
 */

import { expect, test, type Locator, type Page } from '@playwright/test'
import { stepList } from '../src/core/index.ts'
import { dropEvent, firstToolResultSeq } from '../src/test-support/drop-event.ts'
import { fixtureBytes, openLog, waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

/** How much of `target` shows inside `frame`'s box and the window (px of height). */
async function shownHeight(page: Page, frame: Locator, target: Locator): Promise<number> {
  const [f, t] = await Promise.all([frame.boundingBox(), target.boundingBox()])
  const viewport = page.viewportSize()
  if (f === null || t === null || viewport === null) return 0
  const top = Math.max(f.y, t.y, 0)
  const bottom = Math.min(f.y + f.height, t.y + t.height, viewport.height)
  return Math.max(0, bottom - top)
}

for (const [width, height] of [
  [1440, 900],
  [1280, 800],
] as const) {
  test(`step 3.1's message diff is in view without scrolling at ${width}x${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height })
    await page.goto('/#step=3.1')
    await waitLoaded(page)
    await expect(page.getByTestId('context-chart')).toBeVisible()
    const pane = page.getByTestId('request-pane')
    await expect(pane).toHaveAttribute('data-step', '3.1')
    const facts = pane.locator('[aria-label="About this request"]')
    const diff = page.getByTestId('request-message-diff')
    await expect(diff).toContainText('message 0 changed')
    const heading = diff.locator('p').first()
    const removed = diff.locator('[data-kind=removed]').first()
    const added = diff.locator('[data-kind=added]').first()
    await expect(removed).toBeVisible()
    // Nothing was scrolled: the facts block is at its top, the page at its own.
    expect(await facts.evaluate((el) => el.scrollTop)).toBe(0)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    // The heading and the first removed line wholly in view; the first added line at least one line of it.
    await expect.poll(async () => (await heading.boundingBox())?.height ?? -1).toBeGreaterThan(0)
    const headingBox = await heading.boundingBox()
    expect(await shownHeight(page, facts, heading)).toBeCloseTo(headingBox?.height ?? -1, 0)
    const removedBox = await removed.boundingBox()
    expect(await shownHeight(page, facts, removed)).toBeCloseTo(removedBox?.height ?? -1, 0)
    expect(await shownHeight(page, facts, added)).toBeGreaterThanOrEqual(12)
  })
}

test("the step picker's tooltip holds a rejected step's whole line at 1280x800", async ({ page }) => {
  // A real fixture with its first tool result removed: some steps leave the call unanswered (request-rejected.spec.ts).
  const text = fixtureBytes('acp--session-sandbox-root--session.jsonl').toString('utf8')
  const jsonl = dropEvent(text, firstToolResultSeq(text) as number)
  const steps = stepList(await foldInNode(jsonl))
  const rejected = steps.find((s) => s.rejected.length > 0)
  expect(rejected).toBeDefined()
  const name = `${rejected?.turn}.${rejected?.step}`
  await page.setViewportSize({ width: 1280, height: 800 })
  await openLog(page, 'broken-session-sandbox-root.jsonl', jsonl, `#step=${name}`)
  const select = page.getByTestId('request-step-select')
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', name)
  const line = `⚠ ${name}  #${rejected?.atSeq}  ${rejected?.messageCount} msg  rejected: ${rejected?.rejected.join(', ')}`
  await expect(select).toHaveAttribute('title', line)
  await expect(select.locator(`option[data-step="${name}"]`)).toHaveAttribute('title', line)
  await expect(select.locator(`option[data-step="${name}"]`)).toHaveText(line)
  // The closed list stays inside the pane (it shows what its width holds; the tooltip the rest).
  const [header, box] = await Promise.all([page.getByTestId('request-pane').boundingBox(), select.boundingBox()])
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual((header?.x ?? 0) + (header?.width ?? 0))
})
