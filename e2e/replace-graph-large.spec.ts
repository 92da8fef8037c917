/**
 * The 5,000-replacement generator preset (graph-5k): the large graph keeps the contract of the small one (one
 * `[data-testid=replace-node][data-seq]` per replacement up to the cursor, a click moves the cursor there) while
 * React Flow mounts only the nodes in view and a canvas draws the far view. No timings here: npm run bench measures them.
 */

import { writeFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { generatePreset, toJsonl } from '../src/generate/index.ts'
import { moveCursor } from './support/assertions.ts'
import { foldInNode } from './support/expected.ts'

async function drawnReplaceSeqs(page: Page): Promise<number[]> {
  const seqs = await page
    .getByTestId('replace-graph')
    .locator('[data-testid=replace-node][data-seq]')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-seq'))))
  return seqs.sort((a, b) => a - b)
}

test('graph-5k: every replacement up to the cursor has its node, far views on the canvas, near views in React Flow', async ({
  page,
}) => {
  test.setTimeout(400_000)
  const jsonl = toJsonl(generatePreset('graph-5k'))
  const log = await foldInNode(jsonl)
  expect(log.fold.violations).toEqual([])
  const all = log.fold.timeline.replacements
  expect(all.length).toBe(5000)
  // Picked from disk (a 37 MB body through a route is slow on a loaded machine), with a generous load timeout.
  const path = test.info().outputPath('graph-5k.jsonl')
  writeFileSync(path, jsonl)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready', { timeout: 180_000 })
  const graph = page.getByTestId('replace-graph')
  await expect(graph).toHaveAttribute('data-count', '5000', { timeout: 60_000 })
  await expect.poll(() => drawnReplaceSeqs(page), { timeout: 60_000 }).toEqual(all.map((r) => r.seq).sort((a, b) => a - b))
  // Fitted to 5,000 boxes the view is far out: the canvas draws them and React Flow mounts none.
  await expect(graph.getByTestId('replace-graph-overview')).toBeAttached()
  await expect(graph.getByTestId('replace-node-view')).toHaveCount(0)
  await page.screenshot({ path: test.info().outputPath('far.png') })

  for (const k of [3, 1234, 4000]) {
    const at = all[k - 1]?.index as number
    for (const cursor of [at, at - 1]) {
      await moveCursor(page, cursor)
      const expected = log.replacementsAfter(cursor).map((r) => r.seq)
      await expect(graph).toHaveAttribute('data-count', String(expected.length))
      await expect.poll(() => drawnReplaceSeqs(page)).toEqual([...expected].sort((a, b) => a - b))
    }
  }

  // A few replacements fit close up: React Flow draws them as nodes (at most what is drawn).
  const third = all[2]?.index as number
  await moveCursor(page, third)
  const firstThree = new Set(all.slice(0, 3).map((r) => r.seq))
  await expect
    .poll(async () => {
      const near = await graph
        .getByTestId('replace-node-view')
        .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-seq'))))
      return near.length > 0 && near.every((s) => firstThree.has(s))
    })
    .toBe(true)
  await page.screenshot({ path: test.info().outputPath('near.png') })

  // The markers are the clickable contract: a click moves the cursor to that replacement.
  await moveCursor(page, log.length - 1)
  const target = all[2500]?.seq as number
  await graph.locator(`[data-testid=replace-node][data-seq="${target}"]`).dispatchEvent('click')
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(target))
})
