/** Assertions that compare what the panes show with the core's answers for the same prefix. */

import { expect, type Page } from '@playwright/test'
import type { LensLog } from '../../src/core/index.ts'
import { renderedEntries } from './app.ts'

/** Move the cursor through the URL hash (exercises the `hashchange` path too). */
export async function moveCursor(page: Page, seq: number): Promise<void> {
  await page.evaluate((s) => (window.location.hash = `#seq=${s}`), seq)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(seq))
}

/** The surface pane at the cursor equals `nodesAfter(index)`, and the transcript count equals the message rows. */
export async function expectPanesMatchCore(page: Page, log: LensLog, index: number): Promise<void> {
  const nodes = log.surfaceSeqsAfter(index)
  await expect(page.getByTestId('surface-pane')).toHaveAttribute('data-count', String(nodes.length))
  await expect(page.getByTestId('transcript-pane')).toHaveAttribute('data-count', String(log.messageRows.countAt(index)))
  await expect
    .poll(async () => {
      const rendered = await renderedEntries(page, 'surface-pane')
      const mismatch = rendered.find(([position, seq]) => nodes[position] !== seq)
      return rendered.length === 0 && nodes.length > 0 ? 'nothing rendered' : (mismatch ?? 'ok')
    })
    .toBe('ok')
  const replaceSeqs = log.replacementsAfter(index).map((r) => r.seq)
  await expect
    .poll(async () =>
      (await page.getByTestId('replace-node').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-seq'))))).sort(
        (a, b) => a - b,
      ),
    )
    .toEqual([...replaceSeqs].sort((a, b) => a - b))
}
