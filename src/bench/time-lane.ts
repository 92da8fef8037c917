/**
 * Browser bench lane for the Time mode (issue 30): the 1.3M-event log (zstd) opened, then the strip switched to Time.
 * The worker lays the lanes out once (`time-lanes:query`: the round trip, the layout and the transfer), the page draws
 * them (`time-lanes:draw`); then the cursor is dragged across the log for 3 s with the lanes shown and the pointer
 * moved over them (hover). Figures: the lanes' size, the query and draw times, the longest main-thread task and the
 * long tasks (> 50 ms) of each phase. PASS when no task is over 50 ms. The same drag and hover in Tokens mode just
 * before, on the same page, are reported beside them: on a loaded machine they say what the load alone costs.
 */

import { resolve } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { benchLog } from './bench-logs.ts'
import {
  TASK_TARGET_MS,
  dragAcrossTimeline,
  endFrames,
  startFrames,
  waitReady,
  withBootedPage,
  type Phase,
} from './page-probes.ts'
import { fmt, table } from './measure.ts'

export interface TimeLaneResult {
  events: number
  steps: number
  bars: number
  folds: number
  /** From the click on the Time switch to the lanes drawn. */
  switchMs: number
  queryMs: number
  drawMs: number
  switchPhase: Phase
  drag: Phase
  hover: Phase
  /** The same drag and hover over the context chart (Tokens mode) just before, on the same page: what the machine's
   * load alone does to these phases. */
  baselineDrag: Phase
  baselineHover: Phase
  pass: boolean
}

/** The last `name` measure's duration in the page (ms), or NaN. */
async function lastMeasure(page: Page, name: string): Promise<number> {
  return page.evaluate((n) => performance.getEntriesByName(n, 'measure').at(-1)?.duration ?? Number.NaN, name)
}

/** The pointer over the plot `testId`, across three rows at the lanes' heights, left to right, for 2 s. */
async function hover(page: Page, testId: string): Promise<Phase> {
  const plot = await page.getByTestId(testId).boundingBox()
  if (plot === null) throw new Error(`${testId} has no box`)
  const start = await startFrames(page)
  const t0 = Date.now()
  for (let k = 0; Date.now() - t0 < 2000; k++) {
    await page.mouse.move(plot.x + 60 + ((k * 37) % Math.max(1, plot.width - 70)), plot.y + 14 + 28 * (k % 3) + 14)
  }
  await page.mouse.move(0, 0)
  await page.waitForTimeout(300)
  return endFrames(page, start)
}

export async function timeLane(browser: Browser, base: string): Promise<TimeLaneResult> {
  const log = benchLog('1.3M')
  return withBootedPage(browser, base, async (page) => {
    await page.getByTestId('file-input').setInputFiles(resolve(log.zstdPath))
    await waitReady(page)
    // The context chart finishes its series after ready; let it, so its work is not counted here.
    await page
      .waitForFunction(
        () => {
          const chart = document.querySelector('[data-testid=context-chart]')
          const max = Number(document.querySelector('[data-testid=timeline]')?.getAttribute('data-max'))
          return chart === null || chart.getAttribute('data-points') === String(max + 1)
        },
        undefined,
        { timeout: 600_000, polling: 200 },
      )
      .catch(() => undefined)
    await page.waitForTimeout(2000)

    const baselineDrag = await dragAcrossTimeline(page)
    const baselineHover = await hover(page, 'context-chart-plot')

    const switchStart = await startFrames(page)
    await page.getByTestId('chart-mode-time').click()
    await page.waitForFunction(() => performance.getEntriesByName('time-lanes:draw', 'measure').length > 0, undefined, {
      timeout: 600_000,
      polling: 20,
    })
    const switchMs = (await page.evaluate(() => performance.now())) - switchStart
    await page.waitForTimeout(1000)
    const switchPhase = await endFrames(page, switchStart)
    const lanes = page.getByTestId('time-lanes')
    const steps = Number(await lanes.getAttribute('data-steps'))
    const bars = Number(await lanes.getAttribute('data-bars'))
    const folds = Number(await lanes.getAttribute('data-folds'))

    // The same drag with the lanes on screen (their cursor line follows), then the pointer over the lanes (each move
    // finds the bar under it among all of them).
    const dragTime = await dragAcrossTimeline(page)
    const hoverTime = await hover(page, 'time-lanes-plot')
    const phases = [switchPhase, dragTime, hoverTime]
    return {
      events: log.events,
      steps,
      bars,
      folds,
      switchMs,
      queryMs: await lastMeasure(page, 'time-lanes:query'),
      drawMs: await lastMeasure(page, 'time-lanes:draw'),
      switchPhase,
      drag: dragTime,
      hover: hoverTime,
      baselineDrag,
      baselineHover,
      pass: phases.every((p) => p.longTasks === 0 && p.longestTaskMs <= TASK_TARGET_MS),
    }
  })
}

export function timeLaneReport(t: TimeLaneResult): { report: string; miss: string | null } {
  const row = (name: string, p: Phase): string[] => [
    name,
    `${fmt(p.longestTaskMs, 0)} ms`,
    String(p.longTasks),
    `${fmt(p.p95)} / ${fmt(p.max)} ms`,
    String(p.frames),
  ]
  const report = [
    `Time mode (issue 30: the 1.3M log, ${t.events} events, ${t.steps} steps, ${t.bars} bars, ${t.folds} folds; lanes laid out in the worker once, no main-thread task over ${TASK_TARGET_MS} ms): ${t.pass ? 'PASS' : 'MISS'}`,
    `switch to Time: ${fmt(t.switchMs, 0)} ms to drawn (query ${fmt(t.queryMs, 0)} ms, draw ${fmt(t.drawMs, 1)} ms)`,
    table(
      ['phase', 'longest task', 'long tasks', 'frame p95 / max', 'frames'],
      [
        row('switch to Time (+1 s)', t.switchPhase),
        row('cursor drag 3 s', t.drag),
        row('hover over the lanes 2 s', t.hover),
        row('baseline: drag 3 s, Tokens mode', t.baselineDrag),
        row('baseline: hover the context chart 2 s', t.baselineHover),
      ],
    ),
  ].join('\n')
  const worst = Math.max(t.switchPhase.longestTaskMs, t.drag.longestTaskMs, t.hover.longestTaskMs)
  return {
    report,
    miss: t.pass
      ? null
      : `time lanes (1.3M): longest task ${fmt(worst, 0)} ms misses <= ${TASK_TARGET_MS} ms by ${fmt(worst - TASK_TARGET_MS, 0)} ms`,
  }
}
