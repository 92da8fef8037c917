/**
 * The worker's `context-series` answer, asked through the real protocol (the in-thread client runs the same host as
 * the worker): per event it equals the harness (`foldSurface` of each prefix, every node derived with the harness's
 * `deriveEventMessage`) on the bundled demo, on every real fixture it ends at the harness's message count and has
 * one marker per harness replacement, and a downsampled view keeps each bucket's true extremes. A log that grows
 * (live, in uneven chunks) is followed by extending one series, never by rebuilding it, and every answer on the
 * way equals a series built from scratch over the same prefix.
 */

import { readFileSync } from 'node:fs'
import { deriveEventMessage, foldSurface } from '@deepseek-ai/dsh-session/surface'
import { afterEach, describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum } from '../core/index.ts'
import { estimateTokens } from '../core/model/token-estimate.ts'
import { demoSessionJsonl } from '../generate/index.ts'
import { ContextSeries } from '../core/series/context-series.ts'
import { downsampleContext } from '../core/series/downsample-context.ts'
import { eventsOfJsonl } from '../test-support/expanded-events.ts'
import { harnessVerdict } from '../test-support/harness-oracle.ts'
import { fixturesAvailable, listFixtures } from '../test-support/shared-fixtures.ts'
import { createLensHost } from '../worker/lens-host.ts'
import { OpenLog } from './open-log.ts'
import { PROTOCOL_VERSION, type LensResponse } from '../protocol/messages.ts'
import type { ContextSeriesAnswer } from '../protocol/context-series.ts'
import { createInThreadClient } from '../worker/in-thread-client.ts'
import type { LensClient } from '../protocol/lens-client.ts'
import { streamInto } from '../test-support/worker-stream.ts'
import { ContextSeriesQueries } from './context-series-query.ts'

const kept = new ContextSeriesQueries()

// The bundled demo, generated (a fresh clone has no public/demo/ until `npm run demo`).
const DEMO = Buffer.from(demoSessionJsonl())
const checksum = await loadContentChecksum()
type OracleEvents = Parameters<typeof foldSurface>[0]

let client: LensClient | undefined
afterEach(() => client?.dispose())

/** Ask until the series is complete (the worker builds a large one in time-boxed slices); the last answer. */
async function fullAnswer(c: LensClient, width: number, from: number | null = null, to: number | null = null) {
  for (;;) {
    const answer = await c.query('context-series', { width, from, to })
    if (answer.complete) return answer
  }
}

async function loaded(bytes: Uint8Array): Promise<LensClient> {
  const c = createInThreadClient()
  client = c
  await streamInto(c, [bytes], false, true)
  return c
}

/** Messages and estimated tokens after every event, by the harness: each prefix refolded from scratch. */
function harnessPerEvent(events: readonly unknown[]): { messages: number[]; tokens: number[] } {
  const bySeq = new Map(events.map((e) => [(e as { seq: number }).seq, e]))
  const messages: number[] = []
  const tokens: number[] = []
  for (let i = 0; i < events.length; i++) {
    let m = 0
    let t = 0
    for (const seq of foldSurface(events.slice(0, i + 1) as OracleEvents).nodes) {
      const message = deriveEventMessage(bySeq.get(seq) as OracleEvents[number])
      if (message === null) continue
      m++
      t += estimateTokens(message)
    }
    messages.push(m)
    tokens.push(t)
  }
  return { messages, tokens }
}

/** The core's own answer over a log built from scratch from `bytes`. */
function fromScratch(bytes: Uint8Array, width: number): ReturnType<typeof downsampleContext> {
  const log = new LensLog({ checksum })
  log.push(bytes)
  const series = new ContextSeries()
  series.update(log)
  return downsampleContext(series, width)
}

function plain(answer: ContextSeriesAnswer | ReturnType<typeof downsampleContext>) {
  const arrays = ['x', 'messagesMin', 'messagesMax', 'tokensMin', 'tokensMax', 'input', 'output', 'cacheRead', 'cacheWrite']
  const record = answer as unknown as Record<string, Float64Array>
  return Object.fromEntries(arrays.map((k) => [k, Array.from(record[k] as Float64Array)]))
}

describe('context-series query on the bundled demo', () => {
  const events = eventsOfJsonl(DEMO.toString('utf8'))

  it('one point per event, equal to the harness after every event', async () => {
    const c = await loaded(DEMO)
    const answer = await fullAnswer(c, 100_000)
    expect(answer.events).toBe(events.length)
    expect(answer.points).toBe(events.length)
    expect(answer.bucketSize).toBe(1)
    expect(Array.from(answer.x)).toStrictEqual(events.map((_, i) => i))
    const harness = harnessPerEvent(events)
    expect(Array.from(answer.messagesMax)).toStrictEqual(harness.messages)
    expect(Array.from(answer.messagesMin)).toStrictEqual(harness.messages)
    expect(Array.from(answer.tokensMax)).toStrictEqual(harness.tokens)
    // The demo logs usage, compacts and prunes: the chart has something to draw for each.
    expect(answer.usageSteps).toBeGreaterThan(0)
    expect(answer.markers.map((m) => m.seq)).toStrictEqual(harnessVerdict(events).replacements.map((r) => r.seq))
    expect(new Set(answer.markers.map((m) => m.kind))).toStrictEqual(new Set(['summary', 'prune']))
    for (const m of answer.markers) {
      expect(m.removed).toBe(m.loggedTokens ?? m.estimatedTokens)
      expect(m.removedSource).toBe(m.loggedTokens === null ? 'estimated' : 'logged')
      // The drop is on the chart: the removed column holds it at the marker's event.
      expect(answer.removed[m.index]).toBe(m.removed)
    }
  })

  it('a narrow view keeps every bucket true min and max, and a sub-range starts where asked', async () => {
    const c = await loaded(DEMO)
    const full = harnessPerEvent(events)
    const view = await fullAnswer(c, 37)
    expect(view.points).toBe(events.length)
    expect(view.x.length).toBeLessThanOrEqual(37)
    expect(view.bucketSize).toBe(Math.ceil(events.length / 37))
    for (let b = 0; b < view.x.length; b++) {
      const slice = full.messages.slice(b * view.bucketSize, (b + 1) * view.bucketSize)
      expect([view.messagesMin[b], view.messagesMax[b]]).toStrictEqual([Math.min(...slice), Math.max(...slice)])
    }
    const part = await c.query('context-series', { width: 1000, from: 100, to: 200 })
    expect([part.from, part.points, part.x[0], part.x.length]).toStrictEqual([100, 100, 100, 100])
    expect(Array.from(part.messagesMax)).toStrictEqual(full.messages.slice(100, 200))
    // Nonsense widths are clamped, never thrown on.
    const one = await c.query('context-series', { width: Number.NaN, from: null, to: null })
    expect(one.x.length).toBe(1)
  })

  it('the host transfers the answer arrays instead of copying them', async () => {
    const posted: { message: LensResponse; transfer: Transferable[] }[] = []
    const handle = createLensHost((message, transfer) => posted.push({ message, transfer }))
    handle({ v: PROTOCOL_VERSION, type: 'load-begin', loadId: 1, name: 'demo.jsonl', totalBytes: null, live: false })
    handle({ v: PROTOCOL_VERSION, type: 'load-chunk', loadId: 1, bytes: new Uint8Array(DEMO).buffer })
    handle({ v: PROTOCOL_VERSION, type: 'load-end', loadId: 1 })
    // A stream is folded in tasks of its own: ask once it is ready, as the store does.
    await expect.poll(() => posted.some((p) => p.message.type === 'summary' && p.message.summary.final)).toBe(true)
    handle({ v: PROTOCOL_VERSION, type: 'context-series', id: 7, width: 50, from: null, to: null })
    await expect.poll(() => posted.some((p) => p.message.type === 'reply')).toBe(true)
    const reply = posted.find((p) => p.message.type === 'reply')
    if (reply?.message.type !== 'reply' || !reply.message.ok) throw new Error('no answer')
    const answer = reply.message.result as ContextSeriesAnswer
    expect(answer.events).toBeGreaterThan(0)
    expect(reply.transfer).toContain(answer.x.buffer)
    expect(reply.transfer).toContain(answer.tokensMax.buffer)
    expect(reply.transfer).toHaveLength(10)
  })
})

describe('context-series query on a growing log', () => {
  it('a live stream in uneven chunks: every answer equals a from-scratch series over the prefix', async () => {
    const c = createInThreadClient()
    client = c
    const cuts = [0, 1, 900, 5000, 5001, 17_000, 40_000, DEMO.length]
    const loadId = await streamInto(c, [], true, false)
    let previous = 0
    for (let k = 1; k < cuts.length; k++) {
      const chunk = DEMO.subarray(cuts[k - 1], cuts[k])
      const summary = new Promise<number>((resolve) => {
        const off = c.subscribe((e) => {
          if (e.type === 'summary' && e.loadId === loadId) {
            off()
            resolve(e.summary.length)
          }
        })
      })
      c.pushChunk(loadId, new Uint8Array(chunk))
      const length = await summary
      const answer = await fullAnswer(c, 100_000)
      expect(answer.events).toBe(length)
      expect(answer.events).toBeGreaterThanOrEqual(previous)
      previous = answer.events
      expect(plain(answer)).toStrictEqual(plain(fromScratch(DEMO.subarray(0, cuts[k]), 100_000)))
    }
    expect(previous).toBe(eventsOfJsonl(DEMO.toString('utf8')).length)
  })

  it('the session extends one series across queries as the log grows, and a new log starts a new one', async () => {
    const session = await OpenLog.create()
    session.begin('demo.jsonl', null)
    session.push(DEMO.subarray(0, 3000))
    const series = kept.series(session.lensLog)
    const first = series.events
    expect(first).toBe(session.lensLog.length)
    expect(first).toBeGreaterThan(0)
    session.push(DEMO.subarray(3000, 30_000))
    // Pushes leave it alone (the load path does not pay for the chart); the next query extends the same object.
    expect(series.events).toBe(first)
    expect(kept.series(session.lensLog)).toBe(series)
    expect(series.events).toBe(session.lensLog.length)
    expect(series.events).toBeGreaterThan(first)
    session.push(DEMO.subarray(30_000))
    session.finish()
    expect(kept.series(session.lensLog)).toBe(series)
    const scratch = fromScratch(DEMO, 100_000)
    expect(plain(downsampleContext(series, 100_000))).toStrictEqual(plain(scratch))
    session.begin('other.jsonl', null)
    expect(kept.series(session.lensLog)).not.toBe(series)
    expect(kept.series(session.lensLog).events).toBe(0)
  })
})

describe('a time-boxed build', () => {
  it('with no time at all every call folds in one surface node; the slices add up to the one-shot series', async () => {
    const session = await OpenLog.create()
    session.begin('demo.jsonl', null)
    const once = fromScratch(DEMO, 100_000)
    // Asked before any byte: an empty series, caught up with an empty log.
    expect(kept.series(session.lensLog, 0).caughtUp(session.lensLog)).toBe(true)
    session.push(DEMO)
    session.finish()
    const nodes = session.lensLog.fold.timeline.nodeCount
    const seen: number[] = []
    let calls = 0
    for (;;) {
      const series = kept.series(session.lensLog, 0)
      calls++
      seen.push(series.events)
      if (series.caughtUp(session.lensLog)) break
      expect(calls).toBeLessThan(nodes + 2)
    }
    // The first call folded in the first node only; each later one a node more; covered events never go back.
    expect(calls).toBe(nodes)
    expect(seen).toStrictEqual([...seen].sort((a, b) => a - b))
    expect(seen[0]).toBe(session.lensLog.fold.timeline.indexOf(1))
    expect(seen.at(-1)).toBe(session.lensLog.length)
    expect(plain(downsampleContext(kept.series(session.lensLog, 0), 100_000))).toStrictEqual(plain(once))
  })
})

describe.skipIf(!fixturesAvailable())('context-series query on the real fixtures', () => {
  const fixtures = fixturesAvailable() ? listFixtures() : []
  it.each(fixtures.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
    const bytes = readFileSync(fixture.path)
    const c = await loaded(bytes)
    const answer = await fullAnswer(c, 100_000)
    expect(answer.events).toBe(fixture.expected.eventCount)
    expect(plain(answer)).toStrictEqual(plain(fromScratch(bytes, 100_000)))
    if (fixture.expected.foldError === undefined && fixture.expected.deriveError === undefined) {
      expect(answer.markers.map((m) => m.seq)).toStrictEqual(fixture.expected.replacements.map((r) => r.seq))
      if (fixture.expected.messageCount !== undefined && answer.events > 0)
        expect(answer.messagesMax[answer.events - 1]).toBe(fixture.expected.messageCount)
    }
  })
})
