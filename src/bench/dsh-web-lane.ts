/**
 * The dsh web lane (issue 28; figures, not a test): the built viewer in Chromium following the real harness host
 * (`../shared/real-dsh`, keyless, scripted model) through `serve --dsh`, beside the file tail of the same session.
 *
 * 1. Live latency: a scripted turn of a few hundred streamed chunks (`LOOP2 PARTS30`, the mock streaming a chunk every
 *    MOCK_DELAY_MS), followed by two pages at once: one through the host, one tailing the same session's file (a
 *    second server without --dsh). Per event: the host's own `time` stamp (the harness stamps an event as it emits it;
 *    same clock) to the frame in which the page's timeline first shows a last seq at or past it (a
 *    requestAnimationFrame callback after the DOM change: the frame that paints it). p50 / p95 / max per source.
 * 2. Attach: a generated session of ~100k events placed in the host's home (a cold session, as after a restart),
 *    opened by id in a fresh page: navigation start to the first transcript row painted and to the frame showing the
 *    last seq (every event folded), through the host and from the file; rounds alternate. Also the host's own
 *    `session.history` for it, timed alone.
 *
 * Usage: npx tsx src/bench/dsh-web-lane.ts [--rounds 3] [--attach-rounds 3] [--dist dist] [--events 100000] [--delay 20]
 */

import { mkdirSync, existsSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../../e2e/support/chromium.ts'
import { batchText, headerLine, presetOptions, streamSession } from '../generate/index.ts'
import { startLensServer, type LensServer } from '../server/lens-server.ts'
import { wsFactory } from '../test-support/live-test-kit.ts'
import { TailClient } from '../live/tail-client.ts'
import { HostRpc } from '../server/dsh-web/host-rpc.ts'
import { createRealHost, type RealHost } from '../test-support/real-dsh-host.ts'
import { viewOf } from '../test-support/log-view.ts'
import { fmt, median, percentile, table } from './measure.ts'
import { writeZstdFrames } from './zstd-writer.ts'

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const ROUNDS = Number(option('rounds') ?? 3)
const ATTACH_ROUNDS = Number(option('attach-rounds') ?? 3)
const DIST = option('dist') ?? 'dist'
const BIG_EVENTS = Number(option('events') ?? 100_000)
const DELAY_MS = Number(option('delay') ?? 20)
const BIG_ID = 'session-bench-attach'
const TURN_PROMPT = 'LOOP2 PARTS30 bench turn'
// --only "dsh web" | "file tail": one page alone (the two pages otherwise share the browser and the machine).
const ONLY = option('only')

if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no built viewer in ${DIST}: npm run build first (or --dist DIR)`)

// Every painted change of the timeline's last seq, stamped in epoch ms at the frame that paints it (the host's clock);
// and when each append reached the page's main thread (the stream's own messages, read beside the app's handler).
const PAINT_PROBE = `
  window.__paints = []
  window.__received = []
  window.__long = []
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push(e.duration)
  }).observe({ type: 'longtask' })
  const Native = window.WebSocket
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args)
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string' || !e.data.startsWith('{"type":"append"')) return
        const m = JSON.parse(e.data)
        window.__received.push([performance.timeOrigin + performance.now(), m.toSeq])
      })
    }
  }
  new MutationObserver((records) => {
    let max = -1
    for (const r of records) if (r.attributeName === 'data-max') max = Math.max(max, Number(r.target.getAttribute('data-max')))
    if (max >= 0) requestAnimationFrame(() => window.__paints.push([performance.timeOrigin + performance.now(), max]))
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-max'] })
`

// From navigation start: the frame painting the first transcript row, and the frame showing the wanted last seq.
const ATTACH_PROBE = `
  window.__attach = { firstRows: null, ready: null, want: -2 }
  new MutationObserver(() => {
    const a = window.__attach
    if (a.firstRows === null && document.querySelector('[data-testid=transcript-pane] [role=option]')) {
      a.firstRows = -1
      requestAnimationFrame((t) => { a.firstRows = t })
    }
    const max = Number(document.querySelector('[data-testid=timeline]')?.getAttribute('data-max') ?? -1)
    if (a.ready === null && max === a.want) {
      a.ready = -1
      requestAnimationFrame((t) => { a.ready = t })
    }
  }).observe(document, { subtree: true, childList: true, attributes: true })
`

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function fileEvents(host: RealHost, sessionId: string): Promise<Array<{ seq: number; time: number; type: string }>> {
  const view = viewOf([new Uint8Array(readFileSync(await host.logPath(sessionId)))])
  return view.events.map((e) => JSON.parse(e) as { seq: number; time: number; type: string })
}

async function maxOf(page: Page): Promise<number> {
  return Number((await page.getByTestId('timeline').getAttribute('data-max')) ?? -1)
}

/** Per event of the turn: its host time stamp to the first painted frame whose last seq covers it. */
function latencies(paints: Array<[number, number]>, events: ReadonlyArray<{ seq: number; time: number }>): number[] {
  const sorted = [...paints].sort((a, b) => a[0] - b[0])
  const out: number[] = []
  for (const e of events) {
    const painted = sorted.find(([, max]) => max >= e.seq)
    if (painted !== undefined) out.push(painted[0] - e.time)
  }
  return out
}

async function liveLane(browser: Browser, host: RealHost, viaHost: LensServer, filesOnly: LensServer, sid: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addInitScript(PAINT_PROBE)
  const pages: Record<string, Page> = {}
  for (const [name, server] of [
    ['dsh web', viaHost],
    ['file tail', filesOnly],
  ] as const) {
    if (ONLY !== undefined && ONLY !== name) continue
    const page = await context.newPage()
    await page.goto(`${server.viewerUrl}&session=${sid}`)
    pages[name] = page
  }
  // A Node follower per server (no page): what the server path alone costs, apart from the browser's rendering.
  const nodeReceipts: Record<string, Array<[number, number]>> = { 'dsh web': [], 'file tail': [] }
  const followers = (
    [
      ['dsh web', viaHost, { kind: 'dsh-web', sessionId: sid }],
      ['file tail', filesOnly, { kind: 'file', sessionId: sid }],
    ] as const
  ).map(([name, server, source]) => {
    const client = new TailClient({ url: server.streamUrl, token: server.token, webSocket: wsFactory() })
    client.subscribe('bench', source, {
      onSnapshot: () => undefined,
      onReset: () => undefined,
      onAppend: (batch) => (nodeReceipts[name] as Array<[number, number]>).push([Date.now(), batch.toSeq]),
    })
    client.connect()
    return client
  })
  const node: Record<string, number[]> = { 'dsh web': [], 'file tail': [] }
  const samples: Record<string, number[]> = { 'dsh web': [], 'file tail': [] }
  const received: Record<string, number[]> = { 'dsh web': [], 'file tail': [] }
  const longTasks: Record<string, number[]> = { 'dsh web': [], 'file tail': [] }
  let chunks = 0
  let turnEvents = 0
  for (let round = 0; round < ROUNDS; round++) {
    const before = await fileEvents(host, sid)
    const base = before.length - 1
    for (const page of Object.values(pages)) await waitFor('the page at the tail', async () => (await maxOf(page)) === base)
    for (const page of Object.values(pages))
      await page.evaluate(() => {
        const w = window as unknown as { __paints: unknown[]; __received: unknown[]; __long: unknown[] }
        w.__paints = []
        w.__received = []
        w.__long = []
      })
    for (const list of Object.values(nodeReceipts)) list.length = 0
    await host.prompt(sid, `${TURN_PROMPT} ${round}`)
    await waitFor('the turn to start', () => viaHost.dshWeb?.catalog.running(sid) === true, 60_000)
    await waitFor('the turn to end', () => viaHost.dshWeb?.catalog.running(sid) === false, 300_000)
    let events: Array<{ seq: number; time: number; type: string }> = []
    await waitFor('the file complete and both pages at its end', async () => {
      events = await fileEvents(host, sid)
      const last = events.length - 1
      for (const page of Object.values(pages)) if ((await maxOf(page)) !== last) return false
      return true
    })
    const turn = events.slice(base + 1)
    turnEvents += turn.length
    chunks += turn.filter((e) => e.type === 'assistant/chunk').length
    for (const [name, list] of Object.entries(nodeReceipts)) (node[name] as number[]).push(...latencies(list, turn))
    for (const [name, page] of Object.entries(pages)) {
      const probe = await page.evaluate(() => {
        const w = window as unknown as {
          __paints: Array<[number, number]>
          __received: Array<[number, number]>
          __long: number[]
        }
        return { paints: w.__paints, received: w.__received, long: w.__long }
      })
      ;(samples[name] as number[]).push(...latencies(probe.paints, turn))
      ;(received[name] as number[]).push(...latencies(probe.received, turn))
      ;(longTasks[name] as number[]).push(...probe.long)
    }
  }
  await context.close()
  for (const f of followers) f.close()
  return { samples, received, longTasks, node, chunks: chunks / ROUNDS, turnEvents: turnEvents / ROUNDS }
}

interface AttachRun {
  firstRows: number
  ready: number
  /** dsh web only, ms from navigation start: the history page asked, answered (read and JSON-parsed), checked. */
  history?: { asked: number; answered: number; parsed: number }
}

async function attachOnce(browser: Browser, server: LensServer, want: number): Promise<AttachRun> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addInitScript(ATTACH_PROBE)
  await context.addInitScript(`window.__attach.want = ${want}`)
  try {
    const page = await context.newPage()
    await page.goto(`${server.viewerUrl}&session=${BIG_ID}`)
    await page.waitForFunction(
      () => {
        const a = (window as unknown as { __attach: { firstRows: number | null; ready: number | null } }).__attach
        return a.firstRows !== null && a.firstRows >= 0 && a.ready !== null && a.ready >= 0
      },
      undefined,
      { timeout: 600_000, polling: 50 },
    )
    const probe = await page.evaluate(() => {
      const a = (window as unknown as { __attach: { firstRows: number; ready: number } }).__attach
      return { firstRows: a.firstRows, ready: a.ready, origin: performance.timeOrigin }
    })
    const pull = server.dshWeb
      ?.followed()
      .find((s) => s.sessionId === BIG_ID)
      ?.pullLog.at(-1)
    return {
      firstRows: probe.firstRows,
      ready: probe.ready,
      ...(pull === undefined
        ? {}
        : {
            history: {
              asked: pull.asked - probe.origin,
              answered: pull.answered - probe.origin,
              parsed: pull.parsed - probe.origin,
            },
          }),
    }
  } finally {
    await context.close()
  }
}

async function attachLane(browser: Browser, host: RealHost, viaHost: LensServer, filesOnly: LensServer, projectDir: string) {
  const dir = join(projectDir, BIG_ID)
  mkdirSync(dir, { recursive: true })
  const stream = streamSession({ ...presetOptions('280k', 7), targetEvents: BIG_EVENTS })
  const cwd = host.workdir
  const frames = (function* (): Generator<string> {
    yield headerLine({ ...stream.header, id: BIG_ID, cwd })
    for (const batch of stream.batches) yield batchText(batch)
  })()
  writeZstdFrames(frames, join(dir, 'session.jsonl.zstd'))
  const events = await fileEvents(host, BIG_ID)
  const last = events.length - 1
  await waitFor('the host to list it', async () => (await viaHost.dshWeb?.items())?.some((i) => i.sessionId === BIG_ID) ?? false)
  const rpc = new HostRpc({ base: new URL(host.url) })
  const historyMs: number[] = []
  const runs: Record<string, AttachRun[]> = { 'dsh web': [], file: [] }
  for (let round = 0; round < ATTACH_ROUNDS; round++) {
    const order = round % 2 === 0 ? (['dsh web', 'file'] as const) : (['file', 'dsh web'] as const)
    for (const name of order)
      (runs[name] as AttachRun[]).push(await attachOnce(browser, name === 'file' ? filesOnly : viaHost, last))
    const t0 = performance.now()
    const answer = await rpc.call('session.history', { sessionId: BIG_ID, maxMessages: 100_000 })
    if (!answer.ok) throw new Error(answer.why)
    historyMs.push(performance.now() - t0)
  }
  return { events: events.length, runs, historyMs }
}

const host = await createRealHost({ delayMs: DELAY_MS })
const servers: LensServer[] = []
let browser: Browser | undefined
try {
  await host.start()
  const sid = await host.prompt('new', 'NOTOOL warm up')
  const sessionsDir = join(host.home, 'sessions')
  const viaHost = await startLensServer({ roots: [sessionsDir], distDir: DIST, dsh: { url: new URL(host.url) } })
  const filesOnly = await startLensServer({ roots: [sessionsDir], distDir: DIST })
  servers.push(viaHost, filesOnly)
  await waitFor(
    'warm-up turn over',
    async () => viaHost.dshWeb?.state === 'connected' && !(await viaHost.dshWeb.items()).some((i) => i.running),
  )
  browser = await chromium.launch(chromiumLaunchOptions())
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')
  const live = await liveLane(browser, host, viaHost, filesOnly, sid)
  const rows = Object.entries(live.samples)
    .filter(([, values]) => values.length > 0)
    .map(([name, values]) => {
      const got = live.received[name] as number[]
      return [
        name,
        String(values.length),
        fmt(percentile(values, 50), 0),
        fmt(percentile(values, 95), 0),
        fmt(Math.max(...values), 0),
        `${fmt(percentile(got, 50), 0)} / ${fmt(percentile(got, 95), 0)}`,
        `${(live.longTasks[name] as number[]).length} / ${fmt(
          (live.longTasks[name] as number[]).reduce((a, b) => a + b, 0),
          0,
        )}`,
        `${fmt(percentile(live.node[name] as number[], 50), 0)} / ${fmt(percentile(live.node[name] as number[], 95), 0)}`,
      ]
    })
  console.log(
    `\nLive: host event time stamp -> frame painting it, ${ROUNDS} turns of "${TURN_PROMPT}" (~${Math.round(live.turnEvents)} events, ~${Math.round(live.chunks)} chunks each; mock chunk every ${DELAY_MS} ms), load ${load}`,
  )
  console.log(
    table(
      [
        'source',
        'events',
        'p50 ms',
        'p95 ms',
        'max ms',
        'in the page (p50 / p95 ms)',
        'long tasks (n / ms)',
        'Node follower, no page (p50 / p95 ms)',
      ],
      rows,
    ),
  )
  const attach = await attachLane(browser, host, viaHost, filesOnly, dirname(dirname(await host.logPath(sid))))
  console.log(
    `\nAttach: a cold ${attach.events}-event session opened by id, navigation start ->, ${ATTACH_ROUNDS} rounds (median), load ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  )
  console.log(
    table(
      ['source', 'first rows ms', 'ready ms', 'runs (first rows / ready)'],
      Object.entries(attach.runs).map(([name, runs]) => [
        name,
        fmt(median(runs.map((r) => r.firstRows)), 0),
        fmt(median(runs.map((r) => r.ready)), 0),
        runs.map((r) => `${fmt(r.firstRows, 0)}/${fmt(r.ready, 0)}`).join(', '),
      ]),
    ),
  )
  const hist = (attach.runs['dsh web'] ?? []).flatMap((r) => (r.history === undefined ? [] : [r.history]))
  console.log(
    `dsh web, ms from navigation start (median): history asked ${fmt(median(hist.map((h) => h.asked)), 0)}, answered and parsed ${fmt(median(hist.map((h) => h.answered)), 0)}, events checked ${fmt(median(hist.map((h) => h.parsed)), 0)}`,
  )
  console.log(`the host's own session.history for it (one page, alone): ${attach.historyMs.map((n) => fmt(n, 0)).join(', ')} ms`)
} finally {
  await browser?.close()
  for (const s of servers) await s.close()
  await host.stop().catch(() => undefined)
}
