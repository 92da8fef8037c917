/**
 * The series' announcements on logs written out by hand: a replacement's logged count is the
 * `shadowedTokenCount` of the `compaction/summary` (same `compactionId`) or `compaction/prune` that announced it
 * before it landed; a summary logged after its checkpoint announces nothing (the count is then our estimate), and
 * the markers are the same whether the series follows the log as it grows or is built once at the end.
 */

import { describe, expect, it } from 'vitest'
import { LogBuilder } from '../../test-support/log-builder.ts'
import { LensLog } from '../log/lens-log.ts'
import { ContextSeries, type ContextMarker } from './context-series.ts'

const HEADER = { type: 'session', version: 0, id: 's', createdAt: 0, delegationDepth: 0 }
const user = (text: string) => ({
  type: 'user/message',
  data: { id: `u-${text}`, role: 'user', content: [{ type: 'text', text: text.repeat(40) }], source: { kind: 'user' } },
  surfaceOp: 'append',
})
const checkpoint = (compactionId: string, start: number, end: number, sources: number[]) => ({
  type: 'user/message',
  data: {
    id: `cp-${compactionId}-${start}`,
    role: 'user',
    content: [{ type: 'text', text: 'summary' }],
    source: { kind: 'plugin', plugin: 'compact', compactionId },
  },
  surfaceOp: { op: 'replace', start, end },
  sourceEventSeqs: sources,
})
const summary = (compactionId: string, start: number, end: number, count: number) => ({
  type: 'compaction/summary',
  data: {
    compactionId,
    summary: [{ type: 'text', text: 'summary' }],
    shadowedRange: { start, end },
    shadowedSeqs: Array.from({ length: end - start + 1 }, (_, k) => start + k),
    shadowedTokenCount: count,
    provider: 'deepseek',
    model: 'deepseek-chat',
  },
})

function bytes(events: readonly Record<string, unknown>[]): Uint8Array {
  const lines = [HEADER, ...events.map((e, seq) => ({ ...e, seq, time: seq }))].map((e) => JSON.stringify(e) + '\n')
  return new TextEncoder().encode(lines.join(''))
}

/** Markers of the series built once over the whole log. */
function markersAtOnce(events: readonly Record<string, unknown>[]): ContextMarker[] {
  const log = new LensLog()
  log.push(bytes(events))
  log.finish()
  const series = new ContextSeries()
  series.update(log)
  return series.markers
}

/** Markers of the series following the log line by line, as a live log grows. */
function markersAsItGrows(events: readonly Record<string, unknown>[]): ContextMarker[] {
  const all = bytes(events)
  const log = new LensLog()
  const series = new ContextSeries()
  for (let at = 0; at < all.length;) {
    const next = all.indexOf(0x0a, at) + 1
    log.push(all.subarray(at, next))
    series.update(log)
    at = next
  }
  log.finish()
  series.update(log)
  return series.markers
}

describe('the context series: replacements and their announced counts', () => {
  it('a summary logged before its checkpoint announces the count', () => {
    const events = [
      user('a'),
      user('b'),
      { type: 'compaction/start', data: { compactionId: 'c1', turn: null } },
      summary('c1', 0, 1, 777),
      checkpoint('c1', 0, 1, [2, 3, 0, 1]),
      { type: 'compaction/end', data: { compactionId: 'c1', turn: null } },
    ]
    const markers = markersAtOnce(events)
    expect(markers.map((m) => [m.index, m.kind, m.loggedTokens, m.shadowedCount])).toStrictEqual([[4, 'summary', 777, 2]])
    expect(markers[0]?.estimatedTokens).toBeGreaterThan(0)
    expect(markersAsItGrows(events)).toStrictEqual(markers)
  })

  it('a summary logged after its checkpoint announces nothing: the count is estimated, built at once or as it grows', () => {
    const events = [
      user('a'),
      user('b'),
      { type: 'compaction/start', data: { compactionId: 'c1', turn: null } },
      checkpoint('c1', 0, 1, [2, 0, 1]),
      summary('c1', 0, 1, 777),
      { type: 'compaction/end', data: { compactionId: 'c1', turn: null } },
    ]
    const markers = markersAtOnce(events)
    expect(markers.map((m) => [m.index, m.kind, m.loggedTokens])).toStrictEqual([[3, 'summary', null]])
    expect(markersAsItGrows(events)).toStrictEqual(markers)
  })

  it('a prune is announced by the compaction/prune right before its rewritten result, and only by that', () => {
    // A tool result pruned twice; the second prune's announcement is replaced by a log-only event (seqs kept).
    const builder = new LogBuilder()
    for (const step of [
      { kind: 'user', text: 'hi' },
      { kind: 'tools', calls: 1, resultSize: 400 },
      { kind: 'prune', pick: 0 },
      { kind: 'prune', pick: 0 },
    ] as const)
      builder.apply(step)
    const events = structuredClone(builder.events).map(({ seq: _, time: __, ...e }) => e)
    const prunes = events.flatMap((e, i) => (e['type'] === 'compaction/prune' ? [i] : []))
    expect(prunes).toHaveLength(2)
    events[prunes[1] as number] = { type: 'todo/write', data: { todos: [] } }
    const markers = markersAtOnce(events)
    expect(markers.map((m) => [m.index, m.kind, m.loggedTokens])).toStrictEqual([
      [(prunes[0] as number) + 1, 'prune', 50],
      [(prunes[1] as number) + 1, 'other', null],
    ])
    expect(markersAsItGrows(events)).toStrictEqual(markers)
  })
})
