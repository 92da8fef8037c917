/**
 * The Request view end to end on the bundled demo: the step right after the first compaction shows the CLI's
 * message count and first difference, the replacement link moves the cursor (the step stays pinned), `#step=T.S`
 * survives a reload and opens a step on a fresh page, Save JSON downloads exactly what `lens request --step T.S
 * --json` prints, and "follow cursor" shows the step in force at the cursor (the core's stepPositionAt).
 */

import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { stepList, stepPositionAt, stepRequest } from '../src/core/index.ts'
import { waitLoaded, readmeScreenshot } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const DEMO_PATH = 'public/demo/demo-session.jsonl'
const DEMO = readFileSync(new URL(`../${DEMO_PATH}`, import.meta.url))

/** `lens request` through the real CLI process, from the project root. */
function cli(args: string[]): string {
  const result = spawnSync('node_modules/.bin/tsx', ['src/cli/main.ts', 'request', DEMO_PATH, ...args, '--json'], {
    cwd: new URL('..', import.meta.url).pathname,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`lens request failed: ${result.stderr}`)
  return result.stdout
}

let cached: ReturnType<typeof compute> | undefined
/** Computed once per worker process: two CLI runs and a Node fold. */
const expected = () => (cached ??= compute())

async function compute() {
  const log = await foldInNode(DEMO)
  const { steps } = JSON.parse(cli(['--list'])) as { steps: { turn: number; step: number; messageCount: number }[] }
  expect(steps).toEqual(JSON.parse(JSON.stringify(stepList(log))))
  // The first step whose diff says messages were replaced by a compaction summary (a user/message replacement,
  // not a compaction/prune): the step right after the demo's first compaction.
  const position = steps.findIndex((_, p) =>
    (stepRequest(log, p)?.diff.replacedBy ?? []).some((r) => log.event(r.seq)?.type === 'user/message'),
  )
  expect(position).toBeGreaterThan(0)
  const entry = steps[position] as { turn: number; step: number; messageCount: number }
  const name = `${entry.turn}.${entry.step}`
  const text = cli(['--step', name])
  const json = JSON.parse(text) as {
    atSeq: number
    messages: { seq: number }[]
    diff: { firstDifference: number | null; replacedBy: { seq: number }[]; previous: string }
  }
  return { log, steps, position, name, text, json }
}

test('request view: a step after a compaction, its diff, links, #step deep link, Save JSON', async ({ page }) => {
  // One long walk through the view (two page loads and a download) on a shared, often busy machine.
  test.setTimeout(90_000)
  const x = await expected()
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto('/')
  await waitLoaded(page)
  await expect(page.getByTestId('surface-pane')).toBeVisible()

  // Following the cursor (at the end of the log): the step in force there.
  await page.getByTestId('request-tab').click()
  const pane = page.getByTestId('request-pane')
  const last = x.steps[stepPositionAt(x.log, x.log.length - 1)] as { turn: number; step: number; messageCount: number }
  await expect(pane).toHaveAttribute('data-step', `${last.turn}.${last.step}`)
  await expect(pane).toHaveAttribute('data-following', 'true')
  await expect(pane).toHaveAttribute('data-count', String(last.messageCount))
  await expect(page.getByTestId('surface-pane')).toHaveCount(0)

  // Pick the step after the compaction.
  await page.getByTestId('request-step-select').selectOption(String(x.position))
  await expect(pane).toHaveAttribute('data-step', x.name)
  await expect(pane).toHaveAttribute('data-following', 'false')
  await expect(pane).toHaveAttribute('data-count', String(x.steps[x.position]?.messageCount))
  expect(x.json.messages.length).toBe(x.steps[x.position]?.messageCount)
  const diff = page.getByTestId('request-diff')
  await expect(diff).toHaveAttribute('data-first-difference', String(x.json.diff.firstDifference ?? ''))
  await expect(diff).toHaveAttribute('data-previous', x.json.diff.previous)
  // Rendered rows are the request's messages at their positions (rows arrive from the worker after the count, and
  // the previous step's rows may still be shown: wait for the picked step's).
  await expect
    .poll(async () => {
      const rendered = await pane
        .locator('[role=option][data-seq]')
        .evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-index')), Number(e.getAttribute('data-seq'))] as const))
      const wrong = rendered.filter(([index, seq]) => seq !== x.json.messages[index]?.seq)
      return rendered.length === 0 ? 'no rows rendered' : wrong.length === 0 ? 'ok' : `wrong rows: ${JSON.stringify(wrong)}`
    })
    .toBe('ok')
  // The first differing position is highlighted on its row.
  const firstDifference = x.json.diff.firstDifference as number
  const firstSeq = x.json.messages[firstDifference]?.seq
  await expect(pane.locator(`[role=option][data-seq="${firstSeq}"]`).getByTestId('request-first-difference')).toBeVisible()
  await expect(pane.getByTestId('request-first-difference')).toHaveCount(1)
  await readmeScreenshot(page, 'request')

  // A message row selects its seq (the inspector follows); the cursor stays.
  const timeline = page.getByTestId('timeline')
  const cursorBefore = await timeline.getAttribute('data-cursor')
  await pane.locator(`[role=option][data-seq="${firstSeq}"]`).click()
  await expect(pane.locator(`[role=option][data-seq="${firstSeq}"]`)).toHaveAttribute('aria-selected', 'true')
  await expect(timeline).toHaveAttribute('data-cursor', String(cursorBefore))

  // The replacedBy link moves the cursor to the compaction's summary; the step stays pinned.
  const replacedBy = x.json.diff.replacedBy[0]?.seq as number
  await page.getByTestId('request-replaced-by').first().locator(`[data-seq-link="${replacedBy}"]`).click()
  await expect(timeline).toHaveAttribute('data-cursor', String(replacedBy))
  await expect(pane).toHaveAttribute('data-step', x.name)

  // The hash carries the step; a reload lands on the same request and cursor.
  await expect.poll(() => page.evaluate(() => window.location.hash)).toContain(`step=${x.name}`)
  await expect.poll(() => page.evaluate(() => window.location.hash)).toContain(`seq=${replacedBy}`)
  await page.reload()
  await waitLoaded(page)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', x.name)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-count', String(x.json.messages.length))
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(replacedBy))

  // Save JSON: the file is byte for byte the CLI's output.
  const download = page.waitForEvent('download')
  await page.getByTestId('save-request').click()
  const file = await download
  expect(file.suggestedFilename()).toBe(`request-${x.name}.json`)
  const saved = readFileSync((await file.path()) as string, 'utf8')
  expect(saved).toBe(x.text)

  // Follow the cursor again: the step in force at the cursor (the compaction sits before the step's start).
  await page.getByTestId('request-follow').click()
  const atCursor = x.steps[stepPositionAt(x.log, replacedBy)] as { turn: number; step: number }
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', `${atCursor.turn}.${atCursor.step}`)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-following', 'true')
  await expect.poll(() => page.evaluate(() => window.location.hash)).not.toContain('step=')

  // The surface tab keeps its contract.
  await page.getByTestId('surface-tab').click()
  await expect(page.getByTestId('surface-pane')).toBeVisible()
  await expect(page.getByTestId('request-pane')).toHaveCount(0)
})

test('request view: #step=T.S on a fresh page opens that step with the cursor at its request point', async ({ page }) => {
  test.setTimeout(60_000)
  const x = await expected()
  await page.goto(`/#step=${x.name}`)
  await waitLoaded(page)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', x.name)
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-count', String(x.json.messages.length))
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(x.json.atSeq))
  await expect(page.getByTestId('request-tab')).toHaveAttribute('aria-selected', 'true')
  // Copy as JSON puts the CLI's text on the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.getByTestId('copy-request').click()
  await expect(page.getByTestId('request-note')).toContainText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(x.text)
})
