/**
 * fast-check arbitraries for harness event logs: realistic valid logs (via
 * LogBuilder), and the same logs mutated into every kind of invalid log the 18
 * fold checks (and the harness's TypeErrors) can meet.
 */

import fc from 'fast-check'
import { LogBuilder, type BuildStep, type TestEvent } from './log-builder.ts'

const stepArb: fc.Arbitrary<BuildStep> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), text: fc.string({ maxLength: 12 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('assistant' as const),
      text: fc.string({ maxLength: 8 }),
      chunks: fc.nat({ max: 7 }),
      reasoning: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty-assistant' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      calls: fc.integer({ min: 1, max: 3 }),
      resultSize: fc.nat({ max: 40 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('log-only' as const), which: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'turn-boundary' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('compact' as const), from: fc.nat({ max: 40 }), length: fc.nat({ max: 8 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('prune' as const), pick: fc.nat({ max: 20 }) }) },
)

/** A valid log: the harness's foldSurface accepts it. */
export const validLogArb: fc.Arbitrary<TestEvent[]> = fc
  .array(stepArb, { minLength: 1, maxLength: 60, size: 'medium' })
  .map((steps) => {
    const builder = new LogBuilder()
    for (const step of steps) builder.apply(step)
    return builder.events
  })

/**
 * Values that break a field in every way JSON (and JS) can. `constantFrom` hands out one
 * shared instance per value, so every use is a structuredClone (see applyMutations): a
 * mutation that stores `{}` in an event and a later one that writes into that event would
 * otherwise change the shared constant (state leaking across runs; with `replaceEvent`
 * then `sourcesJunk`, an event whose sources are itself, which JSON cannot carry).
 */
const junk = fc.constantFrom<unknown>(null, 'x', '3', -1, 1.5, 2 ** 53, true, [], {}, [1, 2], { op: 'replace' }, 'append ')

type Mutation = (events: TestEvent[], at: number, pick: number, value: unknown) => void

/** The event's sources when they are an array (mutations may have left junk there). */
const sourcesOf = (e: TestEvent[], at: number, fallback: unknown[]): unknown[] => {
  const sources = e[at]?.['sourceEventSeqs']
  return Array.isArray(sources) ? [...(sources as unknown[])] : [...fallback]
}

const surfaceSeqs = (events: TestEvent[], before: number) =>
  events
    .slice(0, before)
    .filter((e) => typeof e === 'object' && e !== null && e['surfaceOp'] !== undefined)
    .map((e) => e['seq'] as number)

const mutations: Record<string, Mutation> = {
  seqShift: (e, at, pick) => void ((e[at] as TestEvent)['seq'] = (e[at]?.['seq'] as number) + (pick % 2 === 0 ? 1 : -1)),
  seqJunk: (e, at, _p, v) => void ((e[at] as TestEvent)['seq'] = v),
  seqMissing: (e, at) => void delete (e[at] as TestEvent)['seq'],
  addSurfaceOp: (e, at, _p, v) => void ((e[at] as TestEvent)['surfaceOp'] = v ?? 'append'),
  addSources: (e, at, _p, v) => void ((e[at] as TestEvent)['sourceEventSeqs'] = v ?? [0]),
  dropSurfaceOp: (e, at) => void delete (e[at] as TestEvent)['surfaceOp'],
  junkSurfaceOp: (e, at, _p, v) => void ((e[at] as TestEvent)['surfaceOp'] = v),
  replaceExtraKey: (e, at) => void ((e[at] as TestEvent)['surfaceOp'] = { op: 'replace', start: 0, end: 0, why: 1 }),
  replaceJunkField: (e, at, pick, v) => {
    const field = ['op', 'start', 'end'][pick % 3] as string
    e[at] = { ...e[at], surfaceOp: { op: 'replace', start: 0, end: 0, [field]: v } }
  },
  replaceRandomRange: (e, at, pick) => {
    const seqs = surfaceSeqs(e, at)
    const all = [...seqs, at, at + 1, 0, pick % Math.max(1, at)]
    const start = all[pick % all.length] as number
    const end = all[(pick >> 3) % all.length] as number
    e[at] = { ...e[at], surfaceOp: { op: 'replace', start, end } }
  },
  replaceSwapped: (e, at) => {
    const op = (e[at] as TestEvent)['surfaceOp'] as { start?: number; end?: number } | undefined
    if (typeof op === 'object' && op !== null) e[at] = { ...e[at], surfaceOp: { op: 'replace', start: op.end, end: op.start } }
  },
  sourcesJunk: (e, at, _p, v) => void ((e[at] as TestEvent)['sourceEventSeqs'] = v),
  sourcesEmpty: (e, at) => void ((e[at] as TestEvent)['sourceEventSeqs'] = []),
  sourcesBadElement: (e, at, pick, v) => {
    const sources = sourcesOf(e, at, [0])
    sources.splice(pick % (sources.length + 1), 0, v)
    ;(e[at] as TestEvent)['sourceEventSeqs'] = sources
  },
  sourcesSparse: (e, at) => {
    const sparse: unknown[] = [0]
    sparse[2] = 1
    ;(e[at] as TestEvent)['sourceEventSeqs'] = sparse
  },
  sourcesDuplicate: (e, at) => {
    const sources = sourcesOf(e, at, [])
    if (sources.length > 0) (e[at] as TestEvent)['sourceEventSeqs'] = [...sources, sources[0]]
  },
  sourcesLate: (e, at, pick) => {
    const sources = sourcesOf(e, at, [])
    sources.splice(pick % (sources.length + 1), 0, at + (pick % 3))
    ;(e[at] as TestEvent)['sourceEventSeqs'] = sources
  },
  sourcesDropOne: (e, at, pick) => {
    const sources = sourcesOf(e, at, [])
    if (sources.length > 0) sources.splice(pick % sources.length, 1)
    ;(e[at] as TestEvent)['sourceEventSeqs'] = sources
  },
  toolResultWiden: (e, at) => {
    const target = e[at] as TestEvent
    if (target['type'] !== 'tool/result') return
    const seqs = surfaceSeqs(e, at)
    const op = target['surfaceOp'] as { start?: number } | string
    // A junk surfaceOp may be null here (junkSurfaceOp): typeof null is 'object'.
    const start = typeof op === 'object' && op !== null ? (op.start ?? 0) : (seqs[0] ?? 0)
    const i = seqs.indexOf(start)
    const end = seqs[Math.min(seqs.length - 1, i + 1)] ?? start
    e[at] = { ...target, surfaceOp: { op: 'replace', start, end }, sourceEventSeqs: seqs }
  },
  retype: (e, at, pick) => {
    const types = ['tool/result', 'user/message', 'assistant/message', 'turn/start', 'compaction/prune']
    ;(e[at] as TestEvent)['type'] = types[pick % types.length]
  },
  changeData: (e, at, pick, v) => {
    const data = structuredClone(e[at]?.['data']) as Record<string, unknown> | undefined
    if (typeof data !== 'object' || data === null) return
    const keys = ['turn', 'step', 'error', 'meta']
    const message = data['message'] as Record<string, unknown> | undefined
    const which = pick % 7
    if (which < 4) data[keys[which] as string] = v
    else if (message !== undefined && which === 4) message['id'] = 'changed'
    else if (message !== undefined && which === 5) {
      const content = message['content'] as Record<string, unknown>[]
      if (content[0] !== undefined) content[0] = { ...content[0], isError: true }
      content.push({ type: 'text', text: 'extra block, ignored by check 18' })
    } else delete data['message']
    ;(e[at] as TestEvent)['data'] = data
  },
  dataJunk: (e, at, _p, v) => void ((e[at] as TestEvent)['data'] = v),
  replaceEvent: (e, at, _p, v) => void (e[at] = v as TestEvent),
  dropEvent: (e, at) => void e.splice(at, 1),
  // Object-level only (JSON cannot carry it): the harness walks such values too.
  cyclicSources: (e, at) => {
    const sources: unknown[] = [0]
    sources.push(sources)
    ;(e[at] as TestEvent)['sourceEventSeqs'] = sources
  },
  duplicateEvent: (e, at) => void e.splice(at, 0, structuredClone(e[at]) as TestEvent),
}

export const MUTATION_NAMES = Object.keys(mutations)
/** Mutations whose result JSON cannot serialize: only for lanes that never go through bytes. */
const OBJECT_ONLY_MUTATIONS = new Set(['cyclicSources'])
export const JSON_MUTATION_NAMES = MUTATION_NAMES.filter((name) => !OBJECT_ONLY_MUTATIONS.has(name))
const WHOLE_EVENT_MUTATIONS = new Set(['replaceEvent', 'dropEvent', 'duplicateEvent'])

const mutatedArb = (names: readonly string[]): fc.Arbitrary<{ events: TestEvent[]; applied: string[] }> =>
  fc
    .tuple(
      validLogArb.filter((events) => events.length > 0),
      fc.array(fc.tuple(fc.constantFrom(...names), fc.nat(), fc.nat({ max: 1 << 20 }), junk), {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([source, ops]) => applyMutations(source, ops))

/** A valid log with 1-3 mutations applied: usually invalid, sometimes still valid. May hold values JSON cannot carry. */
export const mutatedLogArb = mutatedArb(MUTATION_NAMES)

/** As `mutatedLogArb`, but every value survives `JSON.stringify`: for the lanes that go through bytes. */
export const mutatedJsonLogArb = mutatedArb(JSON_MUTATION_NAMES)

/** Applies named mutations (name, where, pick, junk value) to a copy of a valid log: the arbitraries' last step. */
export function applyMutations(source: TestEvent[], ops: readonly [string, number, number, unknown][]) {
  // fast-check may hand the same generated log (and the same junk value) to several shrink
  // candidates: mutate copies, so a run never changes what another run sees.
  const events = structuredClone(source)
  const applied: string[] = []
  for (const [name, where, pick, value] of ops) {
    if (events.length === 0) break
    // Aim mostly at surface events: that is where the checks are.
    const surface = events.flatMap((e, i) => (e !== null && typeof e === 'object' && e['surfaceOp'] !== undefined ? [i] : []))
    const at = surface.length > 0 && where % 4 !== 0 ? (surface[where % surface.length] as number) : where % events.length
    const target = events[at]
    const isObject = typeof target === 'object' && target !== null && !Array.isArray(target)
    if (!isObject && !WHOLE_EVENT_MUTATIONS.has(name)) continue
    ;(mutations[name] as Mutation)(events, at, pick, structuredClone(value))
    applied.push(`${name}@${at}`)
  }
  return { events, applied }
}
