/**
 * Past the worker's decoded-bytes budget (lowered here to 40 KB through the test-only worker hook) the viewer shows the
 * log's prefix, with a banner saying where it stopped, and every pane works on that prefix.
 */

import { expect, test } from '@playwright/test'
import { demoSessions, toJsonl } from '../src/generate/index.ts'
import { dropFile, lowerDecodedBudget, screenshot, waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const BUDGET = 40 * 1024
const jsonl = toJsonl(demoSessions().parent)

/** The whole lines within the budget: what the worker must keep. */
function keptPrefix(text: string): string {
  const bytes = new TextEncoder().encode(text)
  return new TextDecoder().decode(bytes.subarray(0, bytes.lastIndexOf(0x0a, BUDGET - 1) + 1))
}

for (const source of ['?log= (the demo)', 'dropped file'] as const) {
  test(`a log past the budget, ${source}: the banner, the prefix in every pane, the cursor`, async ({ page }) => {
    expect(new TextEncoder().encode(jsonl).length).toBeGreaterThan(2 * BUDGET)
    const prefix = await foldInNode(keptPrefix(jsonl))
    const last = prefix.length - 1
    await lowerDecodedBudget(page, BUDGET)
    await page.goto('/')
    if (source === 'dropped file') {
      await waitLoaded(page)
      await dropFile(page, 'big-session.jsonl', jsonl)
    }
    const banner = page.getByTestId('size-budget')
    await expect(banner).toBeVisible()
    await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
    await expect(banner).toHaveAttribute('data-events', String(prefix.length))
    await expect(banner).toContainText('dsh-lens keeps at most 40.0 KB of decoded log in the browser')
    await expect(banner).toContainText(`the first ${prefix.length.toLocaleString('en-US')} events are shown`)
    await expect(banner).toContainText('npx dsh-lens check')
    // Where it stopped in the file: the end of the last line kept, of the file's size.
    const kept = new TextEncoder().encode(keptPrefix(jsonl)).length
    const total = new TextEncoder().encode(jsonl).length
    await expect(banner).toContainText(`Stopped at ${(kept / 1024).toFixed(1)} KB`)
    if (source === 'dropped file') await expect(banner).toContainText(`of ${(total / 1024).toFixed(1)} KB`)
    // The panes hold the prefix, folded as the core folds it.
    const timeline = page.getByTestId('timeline')
    await expect(timeline).toHaveAttribute('data-max', String(last))
    await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', String(prefix.surfaceSeqsAfter(last).length))
    await expect(page.getByTestId('transcript-pane').locator('[role=option][data-seq]').first()).toBeVisible()
    // The cursor moves within it, and the surface follows.
    await timeline.focus()
    await page.keyboard.press('Home')
    await expect(timeline).toHaveAttribute('data-cursor', '0')
    await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', String(prefix.surfaceSeqsAfter(0).length))
    await page.keyboard.press('End')
    await expect(timeline).toHaveAttribute('data-cursor', String(last))
    await screenshot(page, `size-budget-${source === 'dropped file' ? 'drop' : 'log'}`)
  })
}
