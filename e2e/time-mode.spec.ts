/**
 * The Time mode end to end (issue 30): on the bundled demo and on a log the real harness writes at test time (a
 * private DSH_HOME, a model that streams slowly), the lanes hold every step and the totals line equals `lens timing
 * --json`'s totals (the built CLI, run on the same bytes); hovering a bar names its step and its figures; a click
 * moves the timeline cursor to that step's event; the Request view shows the step's timing beside its usage.
 */

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import type { TimingJson } from '../src/core/index.ts'
import { realDshAvailable, realHarnessLog } from '../src/test-support/real-dsh.ts'
import { readmeScreenshot, waitLoaded } from './support/app.ts'
import { foldInNode } from './support/expected.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const DEMO_PATH = join(ROOT, 'public/demo/demo-session.jsonl')

// A harness run takes seconds (more on a busy machine); the demo tests hover many points.
test.setTimeout(180_000)

/** `lens timing FILE --json` from the built CLI. */
function cliTiming(path: string): TimingJson {
  return JSON.parse(
    execFileSync(process.execPath, [join(ROOT, 'bin/dsh-lens.cjs'), 'timing', path, '--json'], { encoding: 'utf8' }),
  ) as TimingJson
}

const attr = (value: number | null): string => (value === null ? '' : String(value))

async function openTimeMode(page: Page): Promise<void> {
  await page.getByTestId('chart-mode-time').click()
  await expect(page.getByTestId('chart-mode-time')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('time-lanes')).toBeVisible()
}

/** The lanes and totals are the CLI's. */
async function expectCliFigures(page: Page, timing: TimingJson): Promise<void> {
  const lanes = page.getByTestId('time-lanes')
  await expect(lanes).toHaveAttribute('data-steps', String(timing.steps.length))
  const totals = page.getByTestId('time-totals')
  await expect(totals).toHaveAttribute('data-ttft-median-ms', attr(timing.totals.ttftMedianMs))
  await expect(totals).toHaveAttribute('data-model-ms', attr(timing.totals.modelMs))
  await expect(totals).toHaveAttribute('data-tool-ms', attr(timing.totals.toolMs))
  await expect(totals).toHaveAttribute('data-cache-hit', attr(timing.totals.cacheHit))
  await expect(totals).toHaveAttribute('data-steps', String(timing.totals.steps))
}

/**
 * Moves the pointer along the model lane until it is over a bar (the lanes are a canvas: bars are found by their
 * hover); returns the hovered step `T.S` and the event its click goes to.
 */
async function hoverModelBar(page: Page): Promise<{ step: string; target: number }> {
  const plot = page.getByTestId('time-lanes-plot')
  const box = await plot.boundingBox()
  if (box === null) throw new Error('no plot')
  const hover = page.getByTestId('time-hover')
  // The model lane's middle (lanes-geometry.ts: 14 px of fold labels, then 28 px per lane).
  const y = box.y + 14 + 14
  for (let k = 0; k < 200; k++) {
    const x = box.x + 60 + ((box.width - 70) * k) / 200
    await page.mouse.move(x, y)
    const step = await hover.getAttribute('data-step')
    if (step !== null && step !== '') {
      await expect(hover).toContainText(`step ${step} · TTFT`)
      return { step, target: Number(await hover.getAttribute('data-target')) }
    }
  }
  throw new Error('no bar under the pointer along the model lane')
}

test('Time mode on the demo: every step, the CLI totals, hover and click', async ({ page }) => {
  const timing = cliTiming(DEMO_PATH)
  await page.goto('/')
  await waitLoaded(page)
  // The token chart stays the default.
  await expect(page.getByTestId('context-chart')).toBeVisible()
  await expect(page.getByTestId('chart-mode-tokens')).toHaveAttribute('aria-pressed', 'true')
  await openTimeMode(page)
  await expectCliFigures(page, timing)
  await expect(page.getByTestId('time-lanes')).not.toHaveAttribute('data-bars', '0')
  const { step, target } = await hoverModelBar(page)
  const [turn, stepNumber] = step.split('.').map(Number)
  const json = timing.steps.find((s) => s.turn === turn && s.step === stepNumber)
  // A model bar leads to the step's request point (the demo's seqs are its indices).
  expect(target).toBe(json?.atSeq)
  await page.mouse.down()
  await page.mouse.up()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(target))
  // The Request view, following the cursor, shows that step with its timing beside its usage.
  await page.getByTestId('request-tab').click()
  await expect(page.getByTestId('request-pane')).toHaveAttribute('data-step', step)
  const row = page.getByTestId('request-timing')
  await expect(row).toHaveAttribute('data-ttft-ms', attr(json?.ttftMs ?? null))
  await expect(row).toHaveAttribute('data-generation-ms', attr(json?.generationMs ?? null))
  await expect(row).toHaveAttribute('data-tokens-per-second', attr(json?.tokensPerSecond ?? null))
  await expect(row.getByTestId('request-tool-time')).toHaveCount(json?.tools.length ?? 0)
})

test('screenshot: the Time mode on the demo, for the README', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/')
  await waitLoaded(page)
  await openTimeMode(page)
  await expect(page.getByTestId('time-lanes')).not.toHaveAttribute('data-bars', '0')
  await hoverModelBar(page)
  await readmeScreenshot(page, 'time-mode')
  await page.getByTestId('time-lanes').screenshot({ path: 'e2e/screenshots/time-lanes.png', animations: 'disabled' })
})

test('Time mode on a real-harness log (made now, streaming slowly): the CLI totals, hover, click', async ({ page }) => {
  test.skip(!realDshAvailable(), 'real-dsh scripts not found')
  const real = realHarnessLog('LOOP2 SLOW30 list the numbers')
  const dir = mkdtempSync(join(tmpdir(), 'lens-e2e-time-'))
  const path = join(dir, 'session.jsonl.zstd')
  writeFileSync(path, real.zstd)
  const timing = cliTiming(path)
  expect(timing.steps.length).toBeGreaterThanOrEqual(3)
  await page.goto('/')
  await waitLoaded(page)
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'session.jsonl.zstd', mimeType: 'application/octet-stream', buffer: readFileSync(path) })
  const events = (await foldInNode(real.zstd)).length
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(events - 1))
  await waitLoaded(page)
  await openTimeMode(page)
  await expectCliFigures(page, timing)
  const { target } = await hoverModelBar(page)
  await page.mouse.down()
  await page.mouse.up()
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-cursor', String(target))
})
