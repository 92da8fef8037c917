/**
 * Browser bench lanes beside browser-bench.ts's per-size runs (same build, server and Chromium):
 * - navigation (target 2): navigation-lane.ts;
 * - first rows (target 3): time to the first transcript row and the load progress on screen, from the file input
 *   and from navigation to `?log=`, for the 280k log, against 300 ms;
 * - graph (target 5): the 5,000-replacement preset (graph-5k) opened, the cursor dragged across it, the graph
 *   zoomed and panned: longest main-thread task, long tasks (> 50 ms), frame p95 / max; PASS when no task is over 50 ms.
 * - time (issue 30): time-lane.ts.
 */

import { copyFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser } from '@playwright/test'
import { benchLog } from './bench-logs.ts'
import { fmt, table } from './measure.ts'
import { navigationLane, type NavigationResult } from './navigation-lane.ts'
import {
  TASK_TARGET_MS,
  dragAcrossTimeline,
  endFrames,
  lane,
  startFrames,
  waitReady,
  withBootedPage,
  type Lane,
  type Phase,
} from './page-probes.ts'
import { timeLane, timeLaneReport, type TimeLaneResult } from './time-lane.ts'

/** Target 3: first rows and progress on screen within this long of the start. */
const FIRST_ROWS_TARGET_MS = 300
export interface FirstRowsResult {
  /** From just before the file is set on the input to the frame painting the first row (page clock). */
  fromInputMs: number
  inputState: string
  /** From navigation start to that frame, for `?log=` of the same plain log. */
  fromNavigationMs: number
  navigationState: string
  readyFromInputMs: number
  /** Main-thread tasks over 50 ms from the file input to ready (the interim summaries must not add any). */
  loadLongTasks: number
  loadLongestTaskMs: number
}

async function firstRows(browser: Browser, base: string, served: string, path: string): Promise<FirstRowsResult> {
  return withBootedPage(browser, base, async (page) => {
    const t0 = await page.evaluate(() => {
      const l = (window as unknown as { __lane: Lane }).__lane
      l.armed = true
      l.sawLoading = false
      return performance.now()
    })
    await page.getByTestId('file-input').setInputFiles(path)
    await page.waitForFunction(() => (window as unknown as { __lane: Lane }).__lane.firstRows !== null, undefined, {
      timeout: 600_000,
      polling: 20,
    })
    const input = await lane(page, (l) => l.firstRows as { at: number; state: string })
    await page.waitForSelector('[data-testid=app][data-load-state=ready]', { timeout: 600_000 })
    const readyAt = await page.evaluate(() => performance.now())
    const tasks = await page.evaluate(
      ([from, to]) =>
        (window as unknown as { __lane: Lane }).__lane.longtasks
          .filter(([t]) => t >= (from as number) && t <= (to as number))
          .map(([, d]) => d),
      [t0, readyAt],
    )

    const nav = await page.context().newPage()
    await nav.goto(`${base}/?log=/${served}`)
    await nav.waitForFunction(() => (window as unknown as { __lane: Lane }).__lane.firstRows !== null, undefined, {
      timeout: 600_000,
      polling: 20,
    })
    const fromNav = await lane(nav, (l) => l.firstRows as { at: number; state: string })
    await waitReady(nav)
    return {
      fromInputMs: input.at - t0,
      inputState: input.state,
      fromNavigationMs: fromNav.at,
      navigationState: fromNav.state,
      readyFromInputMs: readyAt - t0,
      loadLongTasks: tasks.length,
      loadLongestTaskMs: Math.max(0, ...tasks),
    }
  })
}

export interface GraphResult {
  events: number
  replacements: number
  openMs: number
  open: Phase
  drag: Phase
  panZoom: Phase
  /** Most React Flow nodes mounted at any sample during pan/zoom (the rest is canvas). */
  flowNodesMax: number
  markers: number
  pass: boolean
}

async function graph(browser: Browser, base: string): Promise<GraphResult> {
  const log = benchLog('graph-5k')
  return withBootedPage(browser, base, async (page) => {
    // Opening: from the file input until the graph holds a marker per replacement, plus 1 s of settling.
    const openStart = await startFrames(page)
    await page.getByTestId('file-input').setInputFiles(resolve(log.jsonlPath))
    await waitReady(page)
    const graphPane = page.getByTestId('replace-graph')
    const count = await graphPane.getAttribute('data-count')
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=replace-graph] [data-testid=replace-node]').length === n,
      Number(count),
      { timeout: 600_000, polling: 100 },
    )
    const openMs = (await page.evaluate(() => performance.now())) - openStart
    await page.waitForTimeout(1000)
    const open = await endFrames(page, openStart)

    // The cursor dragged across the whole log and back: the graph grows and shrinks by thousands of nodes.
    const drag = await dragAcrossTimeline(page, true)

    // Zoom in step by step from the fitted far view to node level, pan across, zoom back out.
    const paneBox = await graphPane.locator('.react-flow__pane').boundingBox()
    if (paneBox === null) throw new Error('graph pane has no box')
    const cx = paneBox.x + paneBox.width / 2
    const cy = paneBox.y + paneBox.height / 2
    let flowNodesMax = 0
    const sample = async (): Promise<void> => {
      flowNodesMax = Math.max(flowNodesMax, await graphPane.locator('.react-flow__node').count())
    }
    const panStart = await startFrames(page)
    await page.mouse.move(cx, cy)
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, -120)
      await page.waitForTimeout(30)
      if (i % 5 === 4) await sample()
    }
    await page.mouse.down()
    for (let i = 0; i <= 60; i++) {
      await page.mouse.move(cx - (i * paneBox.width) / 40, cy - (i * paneBox.height) / 80)
      if (i % 10 === 0) await sample()
    }
    await page.mouse.up()
    for (let i = 0; i < 40; i++) {
      await page.mouse.wheel(0, 120)
      await page.waitForTimeout(30)
      if (i % 5 === 4) await sample()
    }
    await page.waitForTimeout(300)
    const panZoom = await endFrames(page, panStart)
    const markers = await graphPane.locator('[data-testid=replace-node]').count()
    const phases = [open, drag, panZoom]
    return {
      events: log.events,
      replacements: Number(count),
      openMs,
      open,
      drag,
      panZoom,
      flowNodesMax,
      markers,
      pass: phases.every((p) => p.longTasks === 0 && p.longestTaskMs <= TASK_TARGET_MS),
    }
  })
}

export interface LanesResult {
  firstRows: FirstRowsResult | null
  graph: GraphResult | null
  time: TimeLaneResult | null
  navigation: NavigationResult[] | null
  report: string
  misses: string[]
}

/**
 * @param outDir the served build folder: the 280k plain log is copied in, so `?log=` reads it from the same origin
 */
export async function browserLanes(
  browser: Browser,
  base: string,
  outDir: string,
  which: { firstRows: boolean; graph: boolean; navigationRounds: number; time: boolean },
): Promise<LanesResult> {
  const lines: string[] = []
  const misses: string[] = []
  let rows: FirstRowsResult | null = null
  let g: GraphResult | null = null
  let time: TimeLaneResult | null = null
  let navigation: NavigationResult[] | null = null
  if (which.navigationRounds > 0) {
    const nav = await navigationLane(browser, base, outDir, which.navigationRounds)
    navigation = nav.results
    lines.push(nav.report, '')
    misses.push(...nav.misses)
  }
  if (which.firstRows) {
    process.stderr.write('[browser-bench] first rows: 280k jsonl\n')
    const log = benchLog('280k')
    const served = 'bench-280k.jsonl'
    copyFileSync(log.jsonlPath, `${outDir}/${served}`)
    rows = await firstRows(browser, base, served, resolve(log.jsonlPath))
    const verdict = (ms: number): string => (ms <= FIRST_ROWS_TARGET_MS ? 'PASS' : 'MISS')
    lines.push(
      `First rows while loading (target 3: first transcript row + progress painted <= ${FIRST_ROWS_TARGET_MS} ms, 280k plain JSONL, ${fmt(log.plainBytes / 1e6)} MB):`,
      table(
        ['from', 'first row painted', 'state then', 'target', 'ready', 'long tasks to ready (longest)'],
        [
          [
            'file input',
            `${fmt(rows.fromInputMs, 0)} ms`,
            rows.inputState,
            verdict(rows.fromInputMs),
            `${fmt(rows.readyFromInputMs, 0)} ms`,
            `${rows.loadLongTasks} (${fmt(rows.loadLongestTaskMs, 0)} ms)`,
          ],
          [
            'navigation (?log=)',
            `${fmt(rows.fromNavigationMs, 0)} ms`,
            rows.navigationState,
            verdict(rows.fromNavigationMs),
            '-',
            '-',
          ],
        ],
      ),
    )
    for (const [what, ms] of [
      ['file input', rows.fromInputMs],
      ['navigation', rows.fromNavigationMs],
    ] as const) {
      if (ms > FIRST_ROWS_TARGET_MS)
        misses.push(
          `first rows from ${what} ${fmt(ms, 0)} ms misses <= ${FIRST_ROWS_TARGET_MS} ms by ${fmt(ms - FIRST_ROWS_TARGET_MS, 0)} ms`,
        )
    }
  }
  if (which.graph) {
    process.stderr.write('[browser-bench] graph: graph-5k jsonl\n')
    g = await graph(browser, base)
    const row = (name: string, p: Phase): string[] => [
      name,
      `${fmt(p.longestTaskMs, 0)} ms`,
      String(p.longTasks),
      `${fmt(p.p95)} / ${fmt(p.max)} ms`,
      String(p.frames),
    ]
    lines.push(
      '',
      `Replace graph at scale (target 5: graph-5k, ${g.replacements} replacements, ${g.events} events; no main-thread task over ${TASK_TARGET_MS} ms): ${g.pass ? 'PASS' : 'MISS'}`,
      table(
        ['phase', 'longest task', 'long tasks', 'frame p95 / max', 'frames'],
        [
          row(`open (${fmt(g.openMs / 1000)} s to all markers)`, g.open),
          row('cursor drag 3 s', g.drag),
          row('zoom in / pan / zoom out', g.panZoom),
        ],
      ),
      `React Flow nodes mounted at most: ${g.flowNodesMax} (the rest drawn on the canvas); replace-node markers: ${g.markers}.`,
    )
    if (!g.pass) {
      const worst = Math.max(g.open.longestTaskMs, g.drag.longestTaskMs, g.panZoom.longestTaskMs)
      misses.push(
        `graph-5k: longest task ${fmt(worst, 0)} ms misses <= ${TASK_TARGET_MS} ms by ${fmt(worst - TASK_TARGET_MS, 0)} ms`,
      )
    }
  }
  if (which.time) {
    process.stderr.write('[browser-bench] time lanes: 1.3M zstd\n')
    time = await timeLane(browser, base)
    const { report, miss } = timeLaneReport(time)
    lines.push('', report)
    if (miss !== null) misses.push(miss)
  }
  return { firstRows: rows, graph: g, time, navigation, report: lines.join('\n'), misses }
}
