/**
 * "When did the model see it", said in words (issue 31 §2) on the bundled demo: under the search results,
 * `[data-testid=search-visible-text]` names the spans (seqs, as links) and the steps whose request carried a match,
 * with `data-ranges` equal to `lens search … --json`'s `visible`; its last clause follows the cursor ("still visible
 * at the cursor" / "last in the request of step T.S (#seq)"); a step's link opens its request. The selected entry's
 * lifespan says the same in the inspector. Expectations from the CLI process and the core in Node.
 */

import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { stepsInRanges } from '../src/core/index.ts'
import { visibilityText, visibilityWords } from '../src/ui/shared/visibility-words.ts'
import { waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const DEMO_PATH = 'public/demo/demo-session.jsonl'
// Two spans on the demo: edits before the first compaction took them off, and edits after it.
const QUERY = 'edit'

function cliVisible(): { from: number; to: number }[] {
  const result = spawnSync('node_modules/.bin/tsx', ['src/cli/main.ts', 'search', DEMO_PATH, QUERY, '--json'], {
    cwd: new URL('..', import.meta.url).pathname,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`lens search failed: ${result.stderr}`)
  return (JSON.parse(result.stdout) as { visible: { from: number; to: number }[] }).visible
}

test('search: the ranges in words match the CLI, follow the cursor, and link to steps', async ({ page }) => {
  const visible = cliVisible()
  expect(visible.length).toBeGreaterThan(1)
  const log = await foldInNode(readFileSync(new URL(`../${DEMO_PATH}`, import.meta.url)))
  // A valid log: seq === index, so the CLI's seq ranges are the event ranges.
  const spans = stepsInRanges(log, visible)
  await page.goto('/')
  await waitLoaded(page)
  await page.getByTestId('search-input').fill(QUERY)
  const words = page.getByTestId('search-visible-text')
  await expect(words).toHaveAttribute('data-ranges', visible.map((r) => `${r.from}-${r.to}`).join(','))
  // At the end of the log (the cursor's place on opening): the words the core's spans give there.
  const end = log.length - 1
  await expect(words).toHaveText(visibilityText(visibilityWords(spans, end)))
  await expect(words).toContainText('visible to the model during #')
  await expect(words.getByTestId('visible-span')).toHaveCount(Math.min(spans.length, 6))
  // Move the cursor to a place between two spans: the last clause names the last step that carried a match.
  const gap = spans.findIndex((s, k) => k > 0 && s.from > (spans[k - 1]?.to ?? 0) + 1 && spans[k - 1]?.lastStep !== null)
  expect(gap).toBeGreaterThan(0)
  const between = (spans[gap - 1]?.to as number) + 1
  await page.evaluate((s) => (window.location.hash = `#seq=${s}`), between)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(between))
  const last = spans[gap - 1]?.lastStep
  await expect(words).toContainText(`last in the request of step ${last?.turn}.${last?.step} (#${last?.atSeq})`)
  await expect(words).toHaveText(visibilityText(visibilityWords(spans, between)))
  // A step's link opens its request.
  await words.locator(`[data-testid=visible-step][data-step="${last?.turn}.${last?.step}"]`).first().click()
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', `${last?.turn}.${last?.step}`)
})

test("the inspector says the selected entry's lifespan in the same words", async ({ page }) => {
  const log = await foldInNode(readFileSync(new URL(`../${DEMO_PATH}`, import.meta.url)))
  const timeline = log.fold.timeline
  // The first user message: on the surface from its entry until the first compaction took it off.
  const node = 0
  const by = timeline.shadowedBy(node)
  const from = timeline.indexOf(node)
  const to = by === -1 ? log.length - 1 : timeline.indexOf(by) - 1
  const spans = stepsInRanges(log, [{ from, to }])
  await page.goto(`/#seq=${log.length - 1}&sel=${timeline.seqOf(node)}`)
  await waitLoaded(page)
  const words = page.getByTestId('lifespan-text')
  await expect(words).toHaveAttribute('data-ranges', `${from}-${to}`)
  await expect(words).toHaveText(visibilityText(visibilityWords(spans, log.length - 1)))
  await expect(words).toContainText('last in the request of step')
})
