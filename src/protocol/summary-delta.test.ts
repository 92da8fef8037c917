/**
 * Summary deltas: through the encoder, a structured clone (the worker boundary) and the decoder, every summary of a
 * real load arrives whole and equal to what the host published, while each replacement crosses only once.
 */

import { describe, expect, it } from 'vitest'
import { generateSession, presetOptions, toJsonl } from '../generate/index.ts'
import { createLensHost } from '../worker/lens-host.ts'
import { PROTOCOL_VERSION, type LensResponse } from './messages.ts'
import type { LogSummary, ReplacementInfo } from './log-summary.ts'
import { createSummaryDecoder, createSummaryEncoder } from './summary-delta.ts'

// The graph preset's shape (a compaction and a prune almost every turn, nested summaries), cut to ~300 replacements.
const BYTES = new TextEncoder().encode(
  toJsonl(generateSession({ ...presetOptions('graph-5k', 1), targetEvents: 30_000, targetReplacements: 300 })),
)

/** Streams the log in chunks (as `?log=` does) and returns what the host posted, what went on the wire, what came out. */
async function streamThrough(loadId: number): Promise<{ host: LensResponse[]; wire: LensResponse[]; out: LensResponse[] }> {
  const host: LensResponse[] = []
  const wire: LensResponse[] = []
  const out: LensResponse[] = []
  const encode = createSummaryEncoder()
  const decode = createSummaryDecoder()
  const handle = createLensHost((message) => {
    host.push(structuredClone(message))
    const sent = structuredClone(encode(message))
    wire.push(sent)
    out.push(decode(sent))
  })
  handle({ v: PROTOCOL_VERSION, type: 'load-begin', loadId, name: 'graph.jsonl', totalBytes: BYTES.length, live: false })
  const step = 64 * 1024
  for (let offset = 0; offset < BYTES.length; offset += step) {
    handle({ v: PROTOCOL_VERSION, type: 'load-chunk', loadId, bytes: BYTES.slice(offset, offset + step).buffer })
    await new Promise((resolve) => setTimeout(resolve, offset === 0 ? 5 : 40))
  }
  handle({ v: PROTOCOL_VERSION, type: 'load-end', loadId })
  await expect.poll(() => host.some((m) => m.type === 'summary' && m.summary.final), { timeout: 60_000 }).toBe(true)
  return { host, wire, out }
}

const summaries = (messages: LensResponse[]): Extract<LensResponse, { type: 'summary' }>[] =>
  messages.flatMap((m) => (m.type === 'summary' ? [m] : []))

describe('summary deltas', () => {
  it('a streamed load: decoded summaries equal the host’s, and each replacement is on the wire once', async () => {
    const { host, wire, out } = await streamThrough(3)
    const published = summaries(host)
    const final = published[published.length - 1]?.summary as LogSummary
    expect(final.final).toBe(true)
    expect(final.replacements.length).toBeGreaterThan(20)
    // More than one summary carried replacements, so deltas were really exercised.
    expect(published.filter((m) => m.summary.replacements.length > 0).length).toBeGreaterThan(2)
    expect(out).toStrictEqual(host)
    expect(summaries(out).every((m) => m.replacementsFrom === undefined)).toBe(true)
    const onWire = summaries(wire).reduce((n, m) => n + m.summary.replacements.length, 0)
    expect(onWire).toBe(final.replacements.length)
    expect(summaries(wire).some((m) => (m.replacementsFrom ?? 0) > 0)).toBe(true)
  })

  it('keeps the replacements it already had (same objects), so views memoized on them stay valid', () => {
    const encode = createSummaryEncoder()
    const decode = createSummaryDecoder()
    const r = (seq: number): ReplacementInfo => ({
      seq,
      index: seq,
      start: 0,
      end: 0,
      shadowedSeqs: [],
      sourceEventSeqs: [],
      kind: 'prune',
      compactionId: null,
      shadowedIsReplacement: [],
    })
    const base = { length: 1, replacements: [] as ReplacementInfo[] } as unknown as LogSummary
    const a = [r(1), r(2)]
    const b = [...a, r(3)]
    const send = (loadId: number, replacements: ReplacementInfo[]) => {
      const wire = structuredClone(encode({ v: PROTOCOL_VERSION, type: 'summary', loadId, summary: { ...base, replacements } }))
      return { wire, out: decode(wire) }
    }
    const first = send(1, a)
    const second = send(1, b)
    expect(second.wire.type === 'summary' && second.wire.replacementsFrom).toBe(2)
    const kept = first.out.type === 'summary' ? first.out.summary.replacements : []
    const now = second.out.type === 'summary' ? second.out.summary.replacements : []
    expect(now.map((x) => x.seq)).toStrictEqual([1, 2, 3])
    expect(now[0]).toBe(kept[0])
    // A new load starts whole.
    const other = send(2, [r(9)])
    expect(other.wire.type === 'summary' && other.wire.replacementsFrom).toBe(undefined)
    // After a failed load, the next summary of the same id is whole too.
    encode({ v: PROTOCOL_VERSION, type: 'load-failed', loadId: 2, message: 'x', summary: null })
    const again = send(2, [r(9), r(10)])
    expect(again.wire.type === 'summary' && again.wire.replacementsFrom).toBe(undefined)
  })

  it('a continuation the client cannot place is an error, never a silently short list', () => {
    const decode = createSummaryDecoder()
    const summary = { length: 1, replacements: [] } as unknown as LogSummary
    expect(() => decode({ v: PROTOCOL_VERSION, type: 'summary', loadId: 1, summary, replacementsFrom: 3 })).toThrow(
      /continues from/,
    )
  })
})
