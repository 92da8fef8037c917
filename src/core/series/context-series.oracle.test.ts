/**
 * The context series against a brute-force recomputation from the harness's own code: for every prefix of the
 * log, `foldSurface` of that prefix, each node derived with the harness's `deriveEventMessage`, counted and
 * estimated. Also the logged usage per step and every replacement's removed tokens, on the real fixtures and on
 * generated logs (fed in random slices, so the incremental update is exercised as a live log grows); and the
 * downsampled view keeps each bucket's true minimum and maximum.
 */

import { readFileSync } from 'node:fs'
import { deriveEventMessage, foldSurface } from '@deepseek-ai/dsh-session/surface'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes, type TestEvent } from '../../test-support/log-builder.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { isRecord } from '../model/log-event.ts'
import { estimateTokens } from '../model/token-estimate.ts'
import { LensLog } from '../log/lens-log.ts'
import { ContextSeries } from './context-series.ts'
import { downsampleContext } from './downsample-context.ts'

const checksum = await loadContentChecksum()
type OracleEvents = Parameters<typeof foldSurface>[0]

function oracleMessage(event: unknown): unknown {
  return deriveEventMessage(event as OracleEvents[number])
}

/** Messages and estimated tokens on the surface after every event, refolding each prefix from scratch. */
function bruteForce(events: readonly unknown[], upTo: number): { messages: number[]; tokens: number[] } {
  const bySeq = new Map(events.map((e) => [(e as { seq: number }).seq, e]))
  const messages: number[] = []
  const tokens: number[] = []
  for (let i = 0; i < upTo; i++) {
    let m = 0
    let t = 0
    for (const seq of foldSurface(events.slice(0, i + 1) as OracleEvents).nodes) {
      const message = oracleMessage(bySeq.get(seq))
      if (message === null) continue
      m++
      t += estimateTokens(message)
    }
    messages.push(m)
    tokens.push(t)
  }
  return { messages, tokens }
}

const NUM = (v: unknown) => (typeof v === 'number' ? v : NaN)

function expectedUsage(events: readonly unknown[], upTo: number) {
  return events.slice(0, upTo).flatMap((e, index) => {
    const event = e as TestEvent
    const data = event['data'] as Record<string, unknown> | undefined
    const usage = data?.['usage']
    if (event['type'] !== 'assistant/message' || !isRecord(usage)) return []
    return [
      [
        index,
        NUM(usage['inputTokens']),
        NUM(usage['outputTokens']),
        NUM(usage['cacheReadTokens']),
        NUM(usage['cacheWriteTokens']),
      ],
    ]
  })
}

/** Each replacement's removed tokens: the announcement's `shadowedTokenCount`, and the estimate of what it shadowed. */
function expectedMarkers(events: readonly unknown[], upTo: number) {
  const bySeq = new Map(events.map((e) => [(e as { seq: number }).seq, e as TestEvent]))
  return foldSurface(events.slice(0, upTo) as OracleEvents).replacements.map((r) => {
    const event = bySeq.get(r.seq) as TestEvent
    const index = events.indexOf(event)
    let announcement: TestEvent | undefined
    const source = (event['data'] as { source?: { plugin?: unknown; compactionId?: unknown } }).source
    if (event['type'] === 'user/message' && typeof source?.compactionId === 'string') {
      announcement = events
        .slice(0, index)
        .map((e) => e as TestEvent)
        .findLast(
          (e) =>
            e['type'] === 'compaction/summary' && (e['data'] as { compactionId?: unknown }).compactionId === source.compactionId,
        )
    } else if (event['type'] === 'tool/result' && (events[index - 1] as TestEvent | undefined)?.['type'] === 'compaction/prune') {
      announcement = events[index - 1] as TestEvent
    }
    const logged = (announcement?.['data'] as { shadowedTokenCount?: unknown } | undefined)?.shadowedTokenCount
    return {
      index,
      seq: r.seq,
      loggedTokens: typeof logged === 'number' ? logged : null,
      estimatedTokens: r.shadowedSeqs.reduce((sum, seq) => {
        const message = oracleMessage(bySeq.get(seq))
        return sum + (message === null ? 0 : estimateTokens(message))
      }, 0),
      replacementTokens: estimateTokens(oracleMessage(event)),
      shadowedCount: r.shadowedSeqs.length,
    }
  })
}

function usageOf(series: ContextSeries) {
  return Array.from({ length: series.usageIndex.length }, (_, k) => [
    series.usageIndex.get(k),
    series.usageInput.get(k),
    series.usageOutput.get(k),
    series.usageCacheRead.get(k),
    series.usageCacheWrite.get(k),
  ])
}

/** The series after every event `0..upTo-1`, read back through the public accessors. */
function perEvent(series: ContextSeries, upTo: number) {
  const messages: number[] = []
  const tokens: number[] = []
  for (let i = 0; i < upTo; i++) {
    messages.push(series.messagesAfter(i))
    tokens.push(series.tokensAfter(i))
  }
  return { messages, tokens }
}

/** Check the series of a log against the oracle up to `upTo` events (the strict prefix). */
function expectMatchesOracle(series: ContextSeries, events: readonly unknown[], upTo: number): void {
  expect(perEvent(series, upTo)).toStrictEqual(bruteForce(events, upTo))
  expect(usageOf(series).filter(([index]) => (index as number) < upTo)).toStrictEqual(expectedUsage(events, upTo))
  expect(series.markers.filter((m) => m.index < upTo).map(({ kind: _kind, ...rest }) => rest)).toStrictEqual(
    expectedMarkers(events, upTo),
  )
}

/** Generated logs with varied usage (some fields missing) and some announcements without a token count. */
const variedLogArb = fc
  .tuple(validLogArb, fc.array(fc.oneof(fc.nat({ max: 200_000 }), fc.constant(undefined)), { minLength: 1, maxLength: 16 }))
  .map(([events, values]) => {
    let k = 0
    const next = () => values[k++ % values.length]
    for (const event of events) {
      const data = event['data'] as Record<string, unknown>
      if (event['type'] === 'assistant/message' && data['usage'] !== undefined) {
        const usage: Record<string, unknown> = {}
        for (const key of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens']) {
          const v = next()
          if (v !== undefined) usage[key] = v
        }
        data['usage'] = usage
      }
      if (event['type'] === 'compaction/summary' || event['type'] === 'compaction/prune') {
        const v = next()
        if (v === undefined) delete data['shadowedTokenCount']
        else data['shadowedTokenCount'] = v
      }
    }
    return events
  })

describe('context series against the harness, prefix by prefix', () => {
  it('generated logs, fed in random slices (live growth)', () => {
    fc.assert(
      fc.property(variedLogArb, fc.integer({ min: 1, max: 2048 }), (events, slice) => {
        expect(harnessVerdict(events).error).toBeNull()
        const bytes = toJsonlBytes(packRecords(events))
        const log = new LensLog({ checksum })
        const series = new ContextSeries()
        for (let i = 0; i < bytes.length; i += slice) {
          log.push(bytes.subarray(i, i + slice))
          series.update(log)
          expect(series.events).toBe(log.length)
        }
        log.finish()
        series.update(log)
        expect(series.events).toBe(events.length)
        expectMatchesOracle(series, events, events.length)
      }),
      { numRuns: 300 },
    )
  })

  it('a summary and a prune are marked with their logged counts, and the surface drops at them', () => {
    // A direct case the property above cannot silently skip: both kinds present, with the builder's counts.
    const events = fc.sample(validLogArb, { numRuns: 400, seed: 7 }).find((e) => {
      const types = new Set(e.map((x) => x['type']))
      return types.has('compaction/summary') && types.has('compaction/prune')
    })
    expect(events).toBeDefined()
    const log = new LensLog({ checksum })
    log.push(toJsonlBytes(packRecords(events as TestEvent[])))
    log.finish()
    const series = new ContextSeries()
    series.update(log)
    const kinds = new Set(series.markers.map((m) => m.kind))
    expect(kinds).toStrictEqual(new Set(['summary', 'prune']))
    for (const m of series.markers) {
      expect(m.loggedTokens).toBe(m.kind === 'summary' ? 100 : 50)
      expect(series.tokensAfter(m.index)).toBe(series.tokensAfter(m.index - 1) - m.estimatedTokens + m.replacementTokens)
    }
  })
})

const available = fixturesAvailable()
describe.runIf(available)('context series on the harness fixtures', () => {
  const fixtures = available ? listFixtures() : []
  it.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
    const log = new LensLog({ checksum })
    log.push(readFileSync(fixture.path))
    log.finish()
    const series = new ContextSeries()
    series.update(log)
    expect(series.events).toBe(fixture.expected.eventCount)
    const events = Array.from({ length: log.length }, (_, i) => log.event(i))
    expectMatchesOracle(series, events, log.strictLength)
    if (fixture.expected.messageCount !== undefined && log.strictLength === log.length)
      expect(series.messagesAfter(log.length - 1)).toBe(fixture.expected.messageCount)
  })
})

describe('downsampling', () => {
  it('every bucket holds the true min and max of its events, and the usage and removals that fall in it', () => {
    fc.assert(
      fc.property(variedLogArb, fc.integer({ min: 1, max: 80 }), fc.nat(), fc.nat(), (events, width, a, b) => {
        const log = new LensLog({ checksum })
        log.push(toJsonlBytes(packRecords(events)))
        log.finish()
        const series = new ContextSeries()
        series.update(log)
        const n = series.events
        const from = a % (n + 1)
        const to = from + (b % (n - from + 1))
        const view = downsampleContext(series, width, from, to)
        expect(view.points).toBe(to - from)
        expect(view.x.length).toBeLessThanOrEqual(width)
        const { messages, tokens } = bruteForce(events, n)
        const usage = expectedUsage(events, n)
        const markers = expectedMarkers(events, n)
        for (let k = 0; k < view.x.length; k++) {
          const start = view.x[k] as number
          const end = Math.min(to, start + view.bucketSize)
          expect(start).toBe(from + k * view.bucketSize)
          const m = messages.slice(start, end)
          const t = tokens.slice(start, end)
          expect([view.messagesMin[k], view.messagesMax[k]]).toStrictEqual([Math.min(...m), Math.max(...m)])
          expect([view.tokensMin[k], view.tokensMax[k]]).toStrictEqual([Math.min(...t), Math.max(...t)])
          const inBucket = usage.filter(([index]) => (index as number) >= start && (index as number) < end)
          const fields = [view.input, view.output, view.cacheRead, view.cacheWrite]
          fields.forEach((field, f) => {
            const logged = inBucket.map((row) => row[f + 1] as number).filter((v) => !Number.isNaN(v))
            expect(field[k]).toStrictEqual(logged.length === 0 ? NaN : Math.max(...logged))
          })
          const removed = markers.filter((r) => r.index >= start && r.index < end)
          expect(view.removed[k]).toStrictEqual(
            removed.length === 0 ? NaN : removed.reduce((s, r) => s + (r.loggedTokens ?? r.estimatedTokens), 0),
          )
        }
        // The buckets tile the range exactly.
        if (to > from) expect((view.x.at(-1) as number) + view.bucketSize).toBeGreaterThanOrEqual(to)
      }),
      { numRuns: 300 },
    )
  })

  it('a width at least the event count is the full series, one event per point', () => {
    fc.assert(
      fc.property(validLogArb, (events) => {
        const log = new LensLog({ checksum })
        log.push(toJsonlBytes(packRecords(events)))
        log.finish()
        const series = new ContextSeries()
        series.update(log)
        const view = downsampleContext(series, events.length + 5)
        expect(view.bucketSize).toBe(1)
        expect(Array.from(view.x)).toStrictEqual(events.map((_, i) => i))
        expect(Array.from(view.messagesMax)).toStrictEqual(Array.from(view.messagesMin))
        expect(Array.from(view.messagesMax)).toStrictEqual(bruteForce(events, events.length).messages)
      }),
      { numRuns: 100 },
    )
  })
})
