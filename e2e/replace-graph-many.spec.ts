/** The replace graph draws one node per replacement up to the cursor, however many there are (no cap). */

import { expect, test, type Page } from '@playwright/test'
import { openLog } from './support/app.ts'
import { moveCursor } from './support/assertions.ts'
import { foldInNode } from './support/expected.ts'
import { manyPrunesLog } from './support/generated-logs.ts'

async function drawnReplaceSeqs(page: Page): Promise<number[]> {
  const seqs = await page
    .getByTestId('replace-graph')
    .locator('[data-testid=replace-node][data-seq]')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-seq'))))
  return seqs.sort((a, b) => a - b)
}

test('400 prunes: the graph holds exactly the replacements up to the cursor at every cursor visited', async ({ page }) => {
  const jsonl = manyPrunesLog(400)
  const log = await foldInNode(jsonl)
  expect(log.fold.violations).toEqual([])
  const all = log.fold.timeline.replacements
  expect(all.length).toBe(400)
  await openLog(page, 'many-prunes.jsonl', jsonl)
  const last = log.length - 1
  for (const k of [400, 1, 137, 251, 399]) {
    // The cursor on the k-th replacement, and one event before it.
    const at = k === 400 ? last : (all[k - 1]?.index as number)
    for (const cursor of k === 400 ? [at] : [at, at - 1]) {
      await moveCursor(page, cursor)
      const expected = log.replacementsAfter(cursor).map((r) => r.seq)
      await expect(page.getByTestId('replace-graph')).toHaveAttribute('data-count', String(expected.length))
      await expect.poll(() => drawnReplaceSeqs(page)).toEqual([...expected].sort((a, b) => a - b))
    }
  }
  // A click on a node still moves the cursor there.
  const target = all[200]?.seq as number
  await page.getByTestId('replace-graph').locator(`[data-testid=replace-node][data-seq="${target}"]`).dispatchEvent('click')
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(target))
})
