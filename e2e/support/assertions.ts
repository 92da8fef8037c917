/** Assertions that compare what the panes show with the core's answers for the same prefix. */

import { expect, type Page } from '@playwright/test'
import type { LensLog } from '../../src/core/index.ts'
import { renderedEntries } from './app.ts'

/** What a message must never print: a JS value's name where a value should be. */
export const BROKEN_WORDS = /\bundefined\b|\bNaN\b|\[object Object\]/

/**
 * No text on the page (banner, panes, the mounted diagnostic rows) says `undefined`, `NaN` or `[object Object]`.
 * Call it once the page shows the state to scan (its counts waited for). `what` names the input in a failure.
 * `harnessTexts` are the harness's own messages, quoted verbatim by design (its fold says `seq undefined` for an
 * event with no seq): they are taken out before the scan; the caller checks they are the harness's words.
 */
export async function expectNoBrokenWords(page: Page, what = 'the page', harnessTexts: readonly string[] = []): Promise<void> {
  let text = await page.locator('body').innerText()
  for (const quoted of harnessTexts) text = text.replaceAll(quoted, '')
  const at = text.search(BROKEN_WORDS)
  expect(at === -1 ? null : text.slice(Math.max(0, at - 80), at + 40), `${what} prints a JS value's name`).toBeNull()
}

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
