/** Browser bench: the built viewer in Chromium on generated logs: time to ready, longest task, memory, drag frame times. */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium, type CDPSession, type Page } from '@playwright/test'
import { build as esbuild } from 'esbuild'
import type { PresetName } from '../generate/index.ts'
import { chromiumLaunchOptions } from '../../e2e/support/chromium.ts'
import { benchLog } from './bench-logs.ts'
import { browserLanes, type LanesResult } from './browser-lanes.ts'
import { initialJs } from './initial-js.ts'
import { FLOOR_NAV_HTML, FLOOR_NAV_PAGE, FLOOR_NAV_SCRIPT } from './navigation-lane.ts'
import type { FloorReply, FloorRequest } from './floor-worker.ts'
import { fmt, median, percentile, table } from './measure.ts'
import { settleAfterBoot } from './page-probes.ts'

// Not the e2e port (4178): both may run at once on this shared checkout; --port for a second bench beside it.
const PORT = Number(option('port') ?? 4179)
// Our own build output, so an e2e run's dist/ is never swapped under it (--out-dir for a second bench beside it).
const OUT_DIR = option('out-dir') ?? '.bench/dist'
const FLOOR_WORKER = 'bench-floor-worker.js' // bundled from floor-worker.ts into OUT_DIR, served beside the app
/** The target: the app ready within this multiple of the in-page worker floor (for 280k). */
const FLOOR_TARGET = 2

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const sizes = (option('sizes')?.split(',') ?? ['10k', '280k', '1.3M']) as PresetName[]
const container = (option('container') ?? 'zstd') as 'zstd' | 'jsonl'
const floorRuns = Number(option('floor-runs') ?? 3)
// --lanes-only: just the navigation, first-rows, graph and time lanes (browser-lanes.ts); --skip-graph leaves the graph
// lane out, --skip-time the time lane, --skip-navigation the navigation lane (--nav-rounds N, default 3); --graph-only:
// just the graph lane; --time-only: just the time lane.
const timeOnly = process.argv.includes('--time-only')
const graphOnly = process.argv.includes('--graph-only')
const lanesOnly = graphOnly || timeOnly || process.argv.includes('--lanes-only')

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  // Up to 3 min: on a loaded shared machine vite preview can take far longer than its usual second to listen.
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`vite preview exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('vite preview did not start')
}

/**
 * JS heap of the page's workers after GC. Playwright keeps its own flat sessions, so this attaches a
 * second, non-flat session per worker and speaks to it through Target.sendMessageToTarget.
 */
async function workerHeaps(cdp: CDPSession): Promise<number> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] }
  let total = 0
  for (const target of targetInfos.filter((t) => t.type === 'worker')) {
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as {
      sessionId: string
    }
    const call = (id: number, method: string): Promise<unknown> =>
      new Promise((resolve) => {
        const onMessage = (event: { sessionId: string; message: string }): void => {
          const reply = JSON.parse(event.message) as { id?: number; result?: unknown }
          if (event.sessionId !== sessionId || reply.id !== id) return
          cdp.off('Target.receivedMessageFromTarget', onMessage)
          resolve(reply.result)
        }
        cdp.on('Target.receivedMessageFromTarget', onMessage)
        void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) })
      })
    await call(1, 'HeapProfiler.collectGarbage')
    // backingStorageSize (ArrayBuffer stores, where a log's bytes live) is reported by newer Chromium only.
    const usage = (await call(2, 'Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number }
    total += usage.usedSize + (usage.backingStorageSize ?? 0)
    await cdp.send('Target.detachFromTarget', { sessionId })
  }
  return total
}

/** RSS of the Chromium renderer processes we launched (page main thread + its worker live there). */
function rendererRss(): number {
  let total = 0
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (!cmd.includes('--type=renderer') || !cmd.includes('dsh-lens-browser-bench')) continue
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
      total += Number(rss ?? 0) * 1024
      if (process.env['BENCH_DEBUG'] !== undefined)
        process.stderr.write(`renderer ${pid} ${rss ?? '?'} kB ${cmd.split('\0').slice(0, 3).join(' ')}\n`)
    } catch {
      // the process went away
    }
  }
  return total
}

// Runs in the page before the app: collects long tasks, load-state transitions and (on demand) frame times.
// tsx compiles with keepNames, so functions handed to page.evaluate call a `__name` helper: give the page one.
const INIT = `
  globalThis.__name = (f) => f
  window.__bench = { longtasks: [], states: [], frames: [], raf: false }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longtasks.push([e.startTime, e.duration])
  }).observe({ type: 'longtask', buffered: true })
  new MutationObserver(() => {
    const app = document.querySelector('[data-testid=app]')
    const state = app && app.getAttribute('data-load-state')
    const last = window.__bench.states[window.__bench.states.length - 1]
    if (state && (!last || last[0] !== state)) window.__bench.states.push([state, performance.now()])
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-load-state'], childList: true })
`

interface FloorResult {
  /** Median over runs, page clock: from just before the file is set on the input to the worker's reply. */
  ms: number
  /** The same runs on the worker's own clock: from the File's arrival to the last line parsed. */
  workerMs: number
  runs: number[]
  workerRuns: number[]
  readMs: number
  frames: number
  records: number
}

interface BrowserResult {
  size: PresetName
  events: number
  fileBytes: number
  readyMs: number
  floor: FloorResult
  /** readyMs / floor.ms */
  vsFloor: number
  longestTaskMs: number
  longTasks: number
  pageHeap: number
  workerHeap: number
  rendererRss: number
  drag: { frames: number; p50: number; p95: number; max: number; over50: number; longestTaskMs: number; cursorMoved: boolean }
}

type FloorState = { reply?: FloorReply; error?: string; end?: number }

/**
 * One floor run in a fresh dedicated worker of this page, on the same file through a second hidden file input,
 * timed like the app: page clock from just before setInputFiles to the reply. The worker is up before the clock starts.
 */
async function floorRun(page: Page, path: string): Promise<{ pageMs: number; reply: FloorReply }> {
  await page.evaluate(
    ({ url, zstd }) => {
      const w = window as unknown as { __floor: FloorState; __floorWorker?: Worker }
      const state: FloorState = {}
      w.__floor = state
      const worker = new Worker(url, { type: 'module' })
      w.__floorWorker = worker
      worker.addEventListener('error', (e) => (state.error = `worker error: ${e.message}`))
      worker.addEventListener('message', (e: MessageEvent<{ kind: string }>) => {
        if (e.data.kind !== 'floor') return
        state.end = performance.now()
        state.reply = e.data as FloorReply
      })
      document.querySelector('[data-testid=bench-floor-input]')?.remove()
      const input = document.createElement('input')
      input.type = 'file'
      input.hidden = true
      input.dataset['testid'] = 'bench-floor-input'
      input.addEventListener('change', () => {
        const file = input.files?.[0]
        if (file === undefined) state.error = 'no file on the floor input'
        else worker.postMessage({ kind: 'floor', file, zstd } satisfies FloorRequest)
      })
      document.body.append(input)
      return new Promise<void>((ready, fail) => {
        worker.addEventListener('message', (e: MessageEvent<{ kind: string }>) => {
          if (e.data.kind === 'pong') ready()
        })
        worker.addEventListener('error', (e) => fail(new Error(`floor worker failed to start: ${e.message}`)))
        worker.postMessage({ kind: 'ping' } satisfies FloorRequest)
      })
    },
    { url: `/${FLOOR_WORKER}`, zstd: container === 'zstd' },
  )
  const start = await page.evaluate(() => performance.now())
  await page.getByTestId('bench-floor-input').setInputFiles(path)
  await page.waitForFunction(
    () => {
      const state = (window as unknown as { __floor: FloorState }).__floor
      return state.reply !== undefined || state.error !== undefined
    },
    undefined,
    { timeout: 300_000, polling: 50 },
  )
  const state = await page.evaluate(() => {
    const w = window as unknown as { __floor: FloorState; __floorWorker?: Worker }
    w.__floorWorker?.terminate()
    delete w.__floorWorker
    document.querySelector('[data-testid=bench-floor-input]')?.remove()
    return w.__floor
  })
  if (state.reply === undefined || state.end === undefined) throw new Error(`floor: ${state.error ?? 'no reply'}`)
  return { pageMs: state.end - start, reply: state.reply }
}

async function measureFloor(page: Page, path: string, events: number): Promise<FloorResult> {
  const runs: number[] = []
  const workerRuns: number[] = []
  const reads: number[] = []
  let last: FloorReply | undefined
  for (let i = 0; i < floorRuns; i++) {
    const { pageMs, reply } = await floorRun(page, path)
    runs.push(pageMs)
    workerRuns.push(reply.ms)
    reads.push(reply.readMs)
    last = reply
  }
  if (last === undefined) throw new Error('--floor-runs must be at least 1')
  // Packed rows carry several events each, so records <= events + 1 (the header); zero would mean nothing was parsed.
  if (last.records < 2 || last.records > events + 1) throw new Error(`floor parsed ${last.records} records for ${events} events`)
  return {
    ms: median(runs),
    workerMs: median(workerRuns),
    runs,
    workerRuns,
    readMs: median(reads),
    frames: last.frames,
    records: last.records,
  }
}

async function measure(page: Page, size: PresetName): Promise<BrowserResult> {
  const log = benchLog(size)
  const path = resolve(container === 'zstd' ? log.zstdPath : log.jsonlPath)
  await page.goto(`http://localhost:${PORT}/`)
  await page.waitForSelector('[data-testid=app][data-load-state=ready], [data-testid=app][data-load-state=error]')
  await settleAfterBoot(page)
  const rssBefore = rendererRss()
  const start = await page.evaluate(() => performance.now())
  await page.getByTestId('file-input').setInputFiles(path)
  await page.waitForFunction(
    (t0) => {
      const states = (window as unknown as { __bench: { states: [string, number][] } }).__bench.states
      const i = states.findIndex(([s, t]) => s === 'loading' && t >= t0)
      return i >= 0 && states.slice(i).some(([s]) => s === 'ready' || s === 'error')
    },
    start,
    { timeout: 300_000, polling: 50 },
  )
  const load = await page.evaluate((t0) => {
    const b = (window as unknown as { __bench: { states: [string, number][]; longtasks: [number, number][] } }).__bench
    const end = b.states.find(([s, t]) => (s === 'ready' || s === 'error') && t >= t0) as [string, number]
    const tasks = b.longtasks.filter(([t]) => t >= t0 && t <= end[1]).map(([, d]) => d)
    return { state: end[0], readyMs: end[1] - t0, longest: Math.max(0, ...tasks), count: tasks.length }
  }, start)
  if (load.state !== 'ready') throw new Error(`${size}: load ended in state ${load.state}`)

  // Drag the timeline scrubber end to end for 2 s, recording every animation frame.
  const timeline = page.getByTestId('timeline')
  const box = await timeline.boundingBox()
  if (box === null) throw new Error('timeline has no box')
  const before = await timeline.getAttribute('data-cursor')
  const dragStart = await page.evaluate(() => {
    const b = (window as unknown as { __bench: { frames: number[]; raf: boolean } }).__bench
    b.frames = []
    b.raf = true
    const loop = (t: number): void => {
      b.frames.push(t)
      if (b.raf) requestAnimationFrame(loop)
    }
    requestAnimationFrame(loop)
    return performance.now()
  })
  const y = box.y + box.height / 2
  await page.mouse.move(box.x + 2, y)
  await page.mouse.down()
  const t0 = Date.now()
  for (let elapsed = 0; elapsed < 2000; elapsed = Date.now() - t0) {
    const phase = elapsed / 2000
    // Out and back, so both directions of the scrub are exercised.
    const f = phase < 0.5 ? phase * 2 : 2 - phase * 2
    await page.mouse.move(box.x + 2 + f * (box.width - 4), y)
  }
  await page.mouse.up()
  const after = await timeline.getAttribute('data-cursor')
  const frames = await page.evaluate((since) => {
    const b = (window as unknown as { __bench: { frames: number[]; raf: boolean; longtasks: [number, number][] } }).__bench
    b.raf = false
    const tasks = b.longtasks.filter(([t]) => t >= since).map(([, d]) => d)
    return { frames: b.frames, longest: Math.max(0, ...tasks) }
  }, dragStart)
  const gaps = frames.frames.slice(1).map((t, i) => t - (frames.frames[i] as number))

  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number }
  const workerHeap = await workerHeaps(cdp)
  const rendererGrowth = rendererRss() - rssBefore
  // After every app measurement, so the floor's worker neither competes with the load nor shows in its heaps and RSS.
  const floor = await measureFloor(page, path, log.events)
  return {
    size,
    events: log.events,
    fileBytes: container === 'zstd' ? log.zstdBytes : log.plainBytes,
    readyMs: load.readyMs,
    floor,
    vsFloor: load.readyMs / floor.ms,
    longestTaskMs: load.longest,
    longTasks: load.count,
    pageHeap: heap.usedSize + (heap.backingStorageSize ?? 0),
    workerHeap,
    rendererRss: rendererGrowth,
    drag: {
      frames: frames.frames.length,
      p50: median(gaps),
      p95: percentile(gaps, 95),
      max: Math.max(0, ...gaps),
      over50: gaps.filter((g) => g > 50).length,
      longestTaskMs: frames.longest,
      cursorMoved: before !== after,
    },
  }
}

/** Target 2's first-visit JavaScript, from the build this run serves (so it is never a stale dist/). */
function initialJsLine(dist: string): string {
  const js = initialJs(dist)
  if (js === null) return `Initial JS: ${dist} has no index.html.`
  const kb = js.initialGzipBytes / 1024
  return (
    `Initial JS of this build (entry + modulepreloads, gzip -9): ${fmt(kb)} KB ${kb <= 150 ? 'PASS' : 'MISS'} (target <= 150 KB); ` +
    `after first paint: ${fmt(js.lazyGzipBytes / 1024)} KB lazy chunks, ${fmt(js.workerGzipBytes / 1024)} KB worker.`
  )
}

/** Issue 10 target 4: the 1.3M drag at 60 fps. */
const DRAG_P95_MS = 20
const DRAG_MAX_MS = 50

/** The file-input table's targets with their figures: the 280k ratio to its floor, and the 1.3M drag. */
function fileInputVerdicts(results: readonly BrowserResult[]): string[] {
  const lines: string[] = []
  const mid = results.find((r) => r.size === '280k')
  if (mid !== undefined)
    lines.push(
      `- 280k from the file input, ready <= ${FLOOR_TARGET}x the floor: ${fmt(mid.vsFloor, 2)}x ${mid.vsFloor <= FLOOR_TARGET ? 'PASS' : 'MISS'}`,
    )
  const big = results.find((r) => r.size === '1.3M')
  if (big !== undefined) {
    const { p95, max, longestTaskMs } = big.drag
    const pass = p95 <= DRAG_P95_MS && max <= DRAG_MAX_MS && longestTaskMs === 0
    lines.push(
      `- 1.3M drag (target 4: p95 <= ${DRAG_P95_MS} ms, max <= ${DRAG_MAX_MS} ms, no long task): p95 ${fmt(p95)} ms, max ${fmt(max)} ms, longest task ${fmt(longestTaskMs, 0)} ms ${pass ? 'PASS' : 'MISS'}`,
    )
  }
  return lines.length === 0 ? [] : ['', 'Targets of this table:', ...lines]
}

async function main(): Promise<void> {
  const build = spawnSync('npx', ['vite', 'build', '--outDir', OUT_DIR, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: 'inherit',
  })
  if (build.status !== 0) {
    // The UI is edited concurrently in this checkout; a half-saved file should not cost the whole run.
    if (!existsSync(`${OUT_DIR}/index.html`)) throw new Error('vite build failed')
    process.stderr.write(
      `[browser-bench] vite build failed; using the previous build from ${statSync(`${OUT_DIR}/index.html`).mtime.toISOString()}\n`,
    )
  }
  // Bench-only scripts, bundled on their own and dropped into the served folder after vite emptied it: the floor's
  // worker (libzstd in WebAssembly + the frame walker) and the navigation floor's page script (navigation-lane.ts).
  for (const [entry, out] of [
    ['src/bench/floor-worker.ts', FLOOR_WORKER],
    ['src/bench/floor-nav-page.ts', FLOOR_NAV_SCRIPT],
  ] as const) {
    await esbuild({
      entryPoints: [resolve(entry)],
      outfile: `${OUT_DIR}/${out}`,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      logLevel: 'warning',
    })
  }
  writeFileSync(`${OUT_DIR}/${FLOOR_NAV_PAGE}`, FLOOR_NAV_HTML)
  // Own process group, so exactly this server (and nothing else) is stopped at the end.
  // bench-preview.config.ts: files served uncompressed, as `lens serve` sends them (the server's gzip of the 280k
  // log is CPU a remote host would spend, not the user's machine).
  const preview = spawn(
    'npx',
    [
      'vite',
      'preview',
      '--config',
      'src/bench/bench-preview.config.ts',
      '--outDir',
      OUT_DIR,
      '--port',
      String(PORT),
      '--strictPort',
    ],
    {
      stdio: 'ignore',
      detached: true,
    },
  )
  const results: BrowserResult[] = []
  let lanes: LanesResult | null = null
  try {
    await waitForServer(`http://localhost:${PORT}/`, preview)
    // The marker flag lets rendererRss() find only this bench's renderers among other Chromium runs.
    const browser = await chromium.launch(
      chromiumLaunchOptions(['--js-flags=--expose-gc', '--user-agent=dsh-lens-browser-bench']),
    )
    try {
      for (const size of lanesOnly ? [] : sizes) {
        process.stderr.write(`[browser-bench] ${size} ${container}\n`)
        // A fresh context per size: no heap or cache carried over from the previous log.
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
        await context.addInitScript(INIT)
        const page = await context.newPage()
        results.push(await measure(page, size))
        await context.close()
      }
      lanes = await browserLanes(browser, `http://localhost:${PORT}`, OUT_DIR, {
        firstRows: !graphOnly && !timeOnly && (lanesOnly || sizes.includes('280k')),
        graph: !timeOnly && !process.argv.includes('--skip-graph'),
        navigationRounds:
          graphOnly || timeOnly || process.argv.includes('--skip-navigation') ? 0 : Number(option('nav-rounds') ?? 3),
        time: !graphOnly && !process.argv.includes('--skip-time'),
      })
    } finally {
      await browser.close()
    }
  } finally {
    if (preview.pid !== undefined) process.kill(-preview.pid, 'SIGTERM')
  }
  const MB = 1e6
  const report = [
    `Browser (Chromium ${container}, vite preview of the built app; floor: libzstd (WebAssembly) per frame + TextDecoder + JSON.parse of every line in a dedicated worker of the same page, median of ${floorRuns} runs, ratio = time to ready / floor, target <= ${FLOOR_TARGET}x at 280k; JS heaps (+ ArrayBuffer stores when reported) after GC; RSS growth of this browser's renderers over the load):`,
    table(
      [
        'size',
        'file',
        'time to ready',
        `floor (worker) / ratio`,
        'longest task (load)',
        'long tasks',
        'page heap',
        'worker heap',
        'renderer RSS +',
        'drag frames p50 / p95 / max',
        '>50 ms',
        'longest task (drag)',
      ],
      results.map((r) => [
        r.size,
        `${fmt(r.fileBytes / MB)} MB`,
        `${fmt(r.readyMs, 0)} ms`,
        `${fmt(r.floor.ms, 0)} ms / ${fmt(r.vsFloor, 2)}x${r.size === '280k' && r.vsFloor > FLOOR_TARGET ? ` (over ${FLOOR_TARGET}x!)` : ''}`,
        `${fmt(r.longestTaskMs, 0)} ms`,
        String(r.longTasks),
        `${fmt(r.pageHeap / MB)} MB`,
        `${fmt(r.workerHeap / MB)} MB`,
        `${fmt(r.rendererRss / MB)} MB`,
        `${fmt(r.drag.p50)} / ${fmt(r.drag.p95)} / ${fmt(r.drag.max)} ms${r.drag.cursorMoved ? '' : ' (cursor did not move!)'}`,
        `${r.drag.over50}/${r.drag.frames}`,
        `${fmt(r.drag.longestTaskMs, 0)} ms`,
      ]),
    ),
    ...fileInputVerdicts(results),
    '',
    initialJsLine(OUT_DIR),
    ...(lanes === null ? [] : ['', lanes.report]),
    ...(lanes === null || lanes.misses.length === 0
      ? []
      : ['', `Browser lanes missed:\n${lanes.misses.map((m) => `- ${m}`).join('\n')}`]),
  ].join('\n')
  process.stdout.write(report + '\n')
  mkdirSync('.bench', { recursive: true })
  writeFileSync(
    '.bench/browser-latest.json',
    JSON.stringify({ when: new Date().toISOString(), container, results, lanes, report }, null, 2),
  )
}

await main()
