/**
 * Search against brute force on generated logs (packed as the harness packs them, pushed in random slices with
 * search steps in between, as a live log grows): every string of every event that contains the needle (case-folded)
 * is found, with its JSON path, and nothing else; the snippet highlights the needle. "When did the model see it"
 * equals, at every seq, whether some matching event is in the harness's own `foldSurface` of that prefix.
 */

import fc from 'fast-check'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import { describe, expect, it } from 'vitest'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes, type TestEvent } from '../../test-support/log-builder.ts'
import { LensLog } from '../log/lens-log.ts'
import { LogSearch, MAX_MATCHES_PER_EVENT, type SearchFilters } from './log-search.ts'
import { compileMatcher } from './text-matcher.ts'

type OracleEvent = Parameters<typeof foldSurface>[0][number]

/** An independent walk: every string leaf with its path, in document order. */
function leaves(value: unknown, path: string, out: { text: string; path: string }[]): void {
  if (typeof value === 'string') out.push({ text: value, path })
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`, out))
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      leaves(v, /^[A-Za-z_$][\w$]*$/.test(k) ? (path === '' ? k : `${path}.${k}`) : `${path}[${JSON.stringify(k)}]`, out)
    }
  }
}

interface Expected {
  seq: number
  path: string
}

/** Brute force over the records as written: rows expanded member by member (shared fields at the first only). */
function bruteForce(records: readonly unknown[], events: readonly TestEvent[], needle: string, keep: (e: TestEvent) => boolean) {
  const lower = needle.toLowerCase()
  const matches: Expected[] = []
  const matchingSeqs = new Set<number>()
  for (const record of records as TestEvent[]) {
    const rowPayload = record['type'] === 'text-chunks' || record['type'] === 'reasoning-chunks'
    const members = rowPayload ? ((record['data'] as { texts: string[] }).texts.length ?? 0) : 1
    const seq0 = rowPayload ? (record['seq0'] as number) : (record['seq'] as number)
    for (let k = 0; k < members; k++) {
      const event = events[seq0 + k] as TestEvent
      if (!keep(event)) continue
      const found: { text: string; path: string }[] = []
      if (rowPayload && k > 0)
        found.push({ text: (event['data'] as { chunk: { text: string } }).chunk.text, path: 'data.chunk.text' })
      else leaves(event, '', found)
      const hits = found.filter((l) => l.text.toLowerCase().includes(lower)).slice(0, MAX_MATCHES_PER_EVENT)
      for (const h of hits) matches.push({ seq: seq0 + k, path: h.path })
      if (hits.length > 0) matchingSeqs.add(seq0 + k)
    }
  }
  return { matches, matchingSeqs }
}

/** A needle drawn from the log itself (so there are hits), case-flipped, or a short random one. */
function needleArb(events: TestEvent[]): fc.Arbitrary<string> {
  const texts: string[] = []
  for (const e of events) {
    const out: { text: string; path: string }[] = []
    leaves(e, '', out)
    for (const l of out) if (l.text.length > 0) texts.push(l.text)
  }
  const fromLog =
    texts.length === 0
      ? fc.constant('x')
      : fc.tuple(fc.constantFrom(...texts), fc.nat(), fc.integer({ min: 1, max: 6 }), fc.boolean()).map(([t, at, len, upper]) => {
          const start = at % t.length
          const s = t.slice(start, start + len)
          return upper ? s.toUpperCase() : s
        })
  return fc.oneof(
    fromLog,
    fc.constantFrom('user', 'a', 'tool', '"', '\\', 'call_', 'Summary'),
    fc.string({ minLength: 1, maxLength: 3 }),
  )
}

const logAndNeedle = validLogArb.chain((events) =>
  fc.record({
    events: fc.constant(events),
    needle: needleArb(events),
    slice: fc.integer({ min: 7, max: 4096 }),
    maxRecords: fc.integer({ min: 1, max: 9 }),
    filter: fc.constantFrom('none', 'surface', 'type', 'turn'),
  }),
)

function filtersFor(kind: string, events: readonly TestEvent[]): { filters: SearchFilters; keep: (e: TestEvent) => boolean } {
  if (kind === 'surface') return { filters: { surfaceOnly: true }, keep: (e) => e['surfaceOp'] !== undefined }
  if (kind === 'type') {
    const types = ['user/message', 'assistant/chunk']
    return { filters: { types }, keep: (e) => types.includes(e['type'] as string) }
  }
  if (kind === 'turn') {
    // The second turn/start's number; events from it through its turn/end.
    const starts = events.filter((e) => e['type'] === 'turn/start')
    const turn = ((starts[1] ?? starts[0])?.['data'] as { turn?: number } | undefined)?.turn ?? 1
    let inside = false
    const admitted = new Set<TestEvent>()
    for (const e of events) {
      if (e['type'] === 'turn/start') inside = (e['data'] as { turn: number }).turn === turn
      if (inside) admitted.add(e)
      if (e['type'] === 'turn/end') inside = false
    }
    return { filters: { turn }, keep: (e) => admitted.has(e) }
  }
  return { filters: {}, keep: () => true }
}

describe('LogSearch on generated logs', () => {
  it('finds exactly the strings that contain the needle, while the log grows, and when the model saw them', () => {
    fc.assert(
      fc.property(logAndNeedle, ({ events, needle, slice, maxRecords, filter }) => {
        const records = packRecords(events)
        const bytes = toJsonlBytes(records)
        const compiled = compileMatcher(needle, false)
        if (!compiled.ok) throw new Error(compiled.error)
        const { filters, keep } = filtersFor(filter, events)
        const log = new LensLog()
        const search = new LogSearch(log, compiled.matcher, filters)
        const found: { seq: number | null; path: string; snippet: string; highlight: readonly [number, number] }[] = []
        for (let at = 0; at < bytes.length; at += slice) {
          log.push(bytes.subarray(at, at + slice))
          found.push(...search.step({ maxRecords }))
        }
        log.finish()
        while (!search.done) found.push(...search.step({ maxRecords }))
        const expected = bruteForce(records, events, needle, keep)
        expect(found.map((m) => ({ seq: m.seq, path: m.path }))).toStrictEqual(expected.matches)
        expect(search.total).toBe(expected.matches.length)
        for (const m of found) expect(m.snippet.slice(m.highlight[0], m.highlight[1]).toLowerCase()).toBe(needle.toLowerCase())

        // Visible: at seq k, some matching event is on the harness's surface after events 0..k.
        const ranges = search.visible()
        for (let k = 0; k < events.length; k++) {
          const nodes = foldSurface(events.slice(0, k + 1) as unknown as OracleEvent[]).nodes
          const seen = nodes.some((seq) => expected.matchingSeqs.has(seq))
          const ours = ranges.some((r) => r.from <= k && k <= r.to)
          if (ours !== seen) throw new Error(`visible at ${k}: ours ${ours}, harness ${seen}; ranges ${JSON.stringify(ranges)}`)
        }
        // Merged: ranges are sorted, disjoint and not adjacent.
        for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.from).toBeGreaterThan(ranges[i - 1]!.to + 1)
      }),
      { numRuns: 1000 },
    )
  })
})
