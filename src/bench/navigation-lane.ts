/**
 * The navigation lane (issue 10 target 2, "a page that is never busy"): what a user who opens a `?log=` link waits
 * for. For the 280k log, plain and zstd, served beside the built app:
 * - the app: navigation start to `data-load-state=ready` (page clock, so boot, download and fold are all in it), and
 *   every main-thread task over 50 ms from navigation through ready + 2 s;
 * - the floor: navigation start to the reply of a page (`bench-floor-nav.html`, floor-nav-page.ts) whose only worker
 *   fetches the same URL and `JSON.parse`s every line.
 * Rounds alternate floor and app, each in a fresh browser context (cold HTTP cache); figures are medians, the long
 * tasks the worst round's.
 */

import { copyFileSync } from 'node:fs'
import type { Browser } from '@playwright/test'
import { benchLog } from './bench-logs.ts'
import { fmt, median, table } from './measure.ts'

/** Target 2: navigation to ready within this multiple of the navigation floor. */
export const NAVIGATION_TARGET = 1.5
/** Target 2: no main-thread task longer than this from navigation through ready + QUIET_AFTER_MS. */
const TASK_TARGET_MS = 50
const QUIET_AFTER_MS = 2000
/** The floor page and its script, written into the served build by browser-bench.ts. */
export const FLOOR_NAV_PAGE = 'bench-floor-nav.html'
export const FLOOR_NAV_SCRIPT = 'bench-floor-nav.js'
export const FLOOR_NAV_HTML = `<!doctype html><meta charset="utf-8"><title>floor</title><script type="module" src="/${FLOOR_NAV_SCRIPT}"></script>`

const PROBE = `
  globalThis.__name = (f) => f
  window.__nav = { longtasks: [], readyAt: null, state: null }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__nav.longtasks.push([e.startTime, e.duration])
  }).observe({ type: 'longtask', buffered: true })
  const check = () => {
    const nav = window.__nav
    const state = document.querySelector('[data-testid=app]')?.getAttribute('data-load-state')
    if (nav.readyAt === null && (state === 'ready' || state === 'error')) {
      nav.readyAt = performance.now()
      nav.state = state
    }
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true })
`

interface NavProbe {
  longtasks: [number, number][]
  readyAt: number | null
  state: string | null
}

export interface NavigationRun {
  readyMs: number
  longTasks: number
  longestTaskMs: number
  /** Total blocking time: the sum over long tasks of their time beyond 50 ms (what a user's input could wait). */
  blockingMs: number
}

export interface NavigationResult {
  container: 'jsonl' | 'zstd'
  fileBytes: number
  floorMs: number[]
  app: NavigationRun[]
  /** median app ready ÷ median floor */
  ratio: number
  worstLongTasks: number
  longestTaskMs: number
  /** median over rounds of the total blocking time */
  blockingMs: number
  pass: boolean
}

async function floorRun(browser: Browser, base: string, served: string, zstd: boolean): Promise<number> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${base}/${FLOOR_NAV_PAGE}?log=/${served}&zstd=${zstd ? 1 : 0}`)
    await page.waitForFunction(
      () => (window as unknown as { __floorNav?: { doneAt?: number } }).__floorNav?.doneAt !== undefined,
      undefined,
      { timeout: 600_000, polling: 20 },
    )
    const state = (await page.evaluate(() => (window as unknown as { __floorNav: unknown }).__floorNav)) as {
      doneAt: number
      error?: string
      reply?: { records: number }
    }
    if (state.error !== undefined || state.reply === undefined) throw new Error(`navigation floor: ${state.error}`)
    return state.doneAt
  } finally {
    await context.close()
  }
}

/** One navigation of a fresh context to `?log=/served` on `base`: ready from navigation, and the long tasks. */
export async function appRun(browser: Browser, base: string, served: string): Promise<NavigationRun> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addInitScript(PROBE)
  try {
    const page = await context.newPage()
    await page.goto(`${base}/?log=/${served}`)
    await page.waitForFunction(() => (window as unknown as { __nav: NavProbe }).__nav.readyAt !== null, undefined, {
      timeout: 600_000,
      polling: 20,
    })
    await page.waitForTimeout(QUIET_AFTER_MS)
    const probe = await page.evaluate(() => (window as unknown as { __nav: NavProbe }).__nav)
    if (probe.state !== 'ready' || probe.readyAt === null) throw new Error(`navigation lane: the app ended in ${probe.state}`)
    const until = probe.readyAt + QUIET_AFTER_MS
    const tasks = probe.longtasks.filter(([t]) => t <= until).map(([, d]) => d)
    return {
      readyMs: probe.readyAt,
      longTasks: tasks.length,
      longestTaskMs: Math.max(0, ...tasks),
      blockingMs: tasks.reduce((sum, d) => sum + Math.max(0, d - TASK_TARGET_MS), 0),
    }
  } finally {
    await context.close()
  }
}

export async function navigationLane(
  browser: Browser,
  base: string,
  outDir: string,
  rounds: number,
): Promise<{ results: NavigationResult[]; report: string; misses: string[] }> {
  const log = benchLog('280k')
  const results: NavigationResult[] = []
  for (const container of ['jsonl', 'zstd'] as const) {
    process.stderr.write(`[browser-bench] navigation: 280k ${container}\n`)
    const served = container === 'zstd' ? 'bench-280k.jsonl.zst' : 'bench-280k.jsonl'
    copyFileSync(container === 'zstd' ? log.zstdPath : log.jsonlPath, `${outDir}/${served}`)
    const floorMs: number[] = []
    const app: NavigationRun[] = []
    for (let i = 0; i < rounds; i++) {
      floorMs.push(await floorRun(browser, base, served, container === 'zstd'))
      app.push(await appRun(browser, base, served))
    }
    const ratio = median(app.map((r) => r.readyMs)) / median(floorMs)
    const worst = app.reduce((a, b) => (b.longestTaskMs > a.longestTaskMs ? b : a))
    results.push({
      container,
      fileBytes: container === 'zstd' ? log.zstdBytes : log.plainBytes,
      floorMs,
      app,
      ratio,
      worstLongTasks: Math.max(...app.map((r) => r.longTasks)),
      longestTaskMs: worst.longestTaskMs,
      blockingMs: median(app.map((r) => r.blockingMs)),
      pass: ratio <= NAVIGATION_TARGET && worst.longestTaskMs <= TASK_TARGET_MS,
    })
  }
  const misses: string[] = []
  for (const r of results) {
    if (r.ratio > NAVIGATION_TARGET)
      misses.push(`navigation to ready, 280k ${r.container}: ${fmt(r.ratio, 2)}x the floor misses <= ${NAVIGATION_TARGET}x`)
    if (r.longestTaskMs > TASK_TARGET_MS)
      misses.push(
        `navigation through ready + 2 s, 280k ${r.container}: a ${fmt(r.longestTaskMs, 0)} ms task misses <= ${TASK_TARGET_MS} ms by ${fmt(r.longestTaskMs - TASK_TARGET_MS, 0)} ms`,
      )
  }
  const report = [
    `Navigation to ready (target 2: ?log= of the 280k log, ready <= ${NAVIGATION_TARGET}x a page whose worker only fetches and parses it; no main-thread task over ${TASK_TARGET_MS} ms from navigation through ready + 2 s; medians of ${rounds} alternating rounds, fresh context each):`,
    table(
      [
        'file',
        'ready from navigation',
        'floor page',
        'ready ÷ floor',
        'long tasks (worst round)',
        'longest task',
        'blocking time (median)',
        'target',
      ],
      results.map((r) => [
        `280k ${r.container} (${fmt(r.fileBytes / 1e6)} MB)`,
        `${fmt(median(r.app.map((a) => a.readyMs)), 0)} ms`,
        `${fmt(median(r.floorMs), 0)} ms`,
        `${fmt(r.ratio, 2)}x`,
        String(r.worstLongTasks),
        `${fmt(r.longestTaskMs, 0)} ms`,
        `${fmt(r.blockingMs, 0)} ms`,
        r.pass ? 'PASS' : 'MISS',
      ]),
    ),
  ].join('\n')
  return { results, report, misses }
}
