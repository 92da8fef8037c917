/**
 * The harness's per-event surface validation (`planSurfaceEvent` in
 * `@deepseek-ai/dsh-session/surface`), rebuilt over {@link SurfaceTimeline} so a
 * replace costs O(shadowed nodes) instead of an `indexOf` scan.
 *
 * Everything else is deliberately a transliteration: the same checks in the same
 * order, the same texts, and the same property accesses in the same order. The
 * last point matters for malformed logs: where the harness dereferences a missing
 * field it throws V8's TypeError ("Cannot read properties of undefined (reading
 * 'content')"), and reading the same expressions here throws the same message.
 * So values are typed `any` on purpose, and the code must not be "tidied".
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- mirrors the harness's property accesses on untyped JSON (see above) */

import { FOLD } from '../model/harness-messages.ts'
import { isEventSeq } from '../model/log-event.ts'
import type { SurfaceTimeline } from './surface-timeline.ts'

const SURFACE_EVENT_TYPES = new Set<unknown>(['user/message', 'assistant/message', 'tool/result'])

/** Whether an event type can join the model-visible surface. */
export function isSurfaceEligibleType(type: unknown): boolean {
  return SURFACE_EVENT_TYPES.has(type)
}

export type SurfacePlan =
  | { readonly kind: 'append'; readonly seq: number; readonly sources: number[] }
  | {
      readonly kind: 'replace'
      readonly seq: number
      readonly start: number
      readonly end: number
      readonly first: number
      readonly last: number
      readonly shadowedSeqs: number[]
      readonly sources: number[]
    }

/** Looks up the event that entered the surface as `seq` (the harness's `events[seq]`). */
export type SurfaceEventLookup = (seq: number) => unknown

function isReplaceOp(value: any): boolean {
  const op = value
  return (
    Object.keys(op).length === 3 &&
    Object.hasOwn(op, 'op') &&
    Object.hasOwn(op, 'start') &&
    Object.hasOwn(op, 'end') &&
    op['op'] === 'replace' &&
    isEventSeq(op['start']) &&
    isEventSeq(op['end'])
  )
}

function surfaceOpOf(event: any): 'append' | { start: number; end: number } | undefined {
  const raw = event
  if (!isSurfaceEligibleType(event.type)) {
    if (raw.surfaceOp !== undefined) throw new Error(FOLD.notEligibleOp(event.type))
    if (raw.sourceEventSeqs !== undefined) throw new Error(FOLD.notEligibleSources(event.type))
    return undefined
  }
  const op = raw.surfaceOp
  if (op === undefined) throw new Error(FOLD.requiresOp(event.type))
  if (op === 'append') return op
  if (op === null || typeof op !== 'object' || Array.isArray(op)) throw new Error(FOLD.invalidOp(event.type))
  if (!isReplaceOp(op)) throw new Error(FOLD.invalidReplace(event.type))
  return op
}

/**
 * The common case, decided without a Set: sources strictly ascending, all safe
 * integers >= 0 and below the event's seq. Then checks 12-14 cannot fail, so the
 * result equals the harness's; anything else takes the exact path.
 */
function ascendingEarlierSources(raw: unknown, seq: unknown): raw is number[] {
  if (!Array.isArray(raw) || raw.length === 0 || typeof seq !== 'number') return false
  let previous = -1
  for (let i = 0; i < raw.length; i++) {
    const value: unknown = raw[i]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= previous) return false
    previous = value
  }
  return previous < seq
}

/** Checks 10-15; returns the validated sources in array order. */
function assertProvenance(event: any, shadowedSeqs: readonly number[]): number[] {
  const raw = event.sourceEventSeqs
  if (shadowedSeqs.length === 0 && ascendingEarlierSources(raw, event.seq)) return raw
  const sources = new Set<number>()
  if (raw !== undefined) {
    if (!Array.isArray(raw)) throw new Error(FOLD.sourcesNotArray(event.seq))
    if (raw.length === 0 && event.type !== 'assistant/message') throw new Error(FOLD.sourcesEmpty)
    let nonEarlierSource: number | undefined
    for (const source of raw) {
      if (!isEventSeq(source)) throw new Error(FOLD.sourcesDense(event.type))
      sources.add(source)
      if (nonEarlierSource === undefined && source >= event.seq) nonEarlierSource = source
    }
    if (sources.size !== raw.length) throw new Error(FOLD.sourcesDuplicates)
    if (nonEarlierSource !== undefined) throw new Error(FOLD.sourcesNotEarlier(nonEarlierSource, event.seq))
  }
  const missing = shadowedSeqs.filter((seq) => !sources.has(seq))
  if (missing.length > 0) throw new Error(FOLD.sourcesMissing(missing))
  return [...sources]
}

/**
 * Deep equality over the JSON value domain, as the harness's `isDeepEqualJson`
 * (key order ignored, arrays by position).
 */
export function isDeepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => isDeepEqualJson(item, b[i]))
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const aKeys = Object.keys(a)
  const bRecord = b as Record<string, unknown>
  if (aKeys.length !== Object.keys(b).length) return false
  return aKeys.every((key) => Object.hasOwn(b, key) && isDeepEqualJson((a as any)[key], bRecord[key]))
}

/** Checks 16-18: a tool/result replacement may rewrite only one current result's content. */
function assertToolResultRewrite(event: any, shadowedSeqs: readonly number[], lookup: SurfaceEventLookup): void {
  if (event.type !== 'tool/result') return
  if (shadowedSeqs.length !== 1) throw new Error(FOLD.rewriteOneNode)
  for (const originalSeq of shadowedSeqs) {
    const original: any = lookup(originalSeq)
    if (original?.type !== 'tool/result') throw new Error(FOLD.rewriteTarget)
    const originalRest = { ...original.data }
    const replacementRest = { ...event.data }
    const originalResult = original.data.message.content[0]
    const replacementResult = event.data.message.content[0]
    originalRest['message'] = { ...original.data.message, content: [{ ...originalResult, content: null }] }
    replacementRest['message'] = { ...event.data.message, content: [{ ...replacementResult, content: null }] }
    if (!isDeepEqualJson(originalRest, replacementRest)) throw new Error(FOLD.rewriteContentOnly)
  }
}

/**
 * Validate one event against the current surface and plan its transition, without
 * mutating anything (the harness validates atomically per event).
 * @returns the plan, or undefined for an event that does not touch the surface.
 * @throws Error with the harness's text, or the TypeError the harness would throw.
 */
export function planSurfaceEvent(
  timeline: SurfaceTimeline,
  event: unknown,
  expectedSeq: number,
  lookup: SurfaceEventLookup,
): SurfacePlan | undefined {
  const e = event as any
  if (e.seq !== expectedSeq) throw new Error(FOLD.notContiguous(e.seq, expectedSeq))
  const surfaceOp = surfaceOpOf(e)
  if (surfaceOp === undefined) return undefined
  if (surfaceOp === 'append') {
    return { kind: 'append', seq: e.seq, sources: assertProvenance(e, []) }
  }
  const first = timeline.liveNode(surfaceOp.start)
  if (first === -1) throw new Error(FOLD.startNotFound(surfaceOp.start))
  const last = timeline.liveNode(surfaceOp.end)
  if (last === -1) throw new Error(FOLD.endNotFound(surfaceOp.end))
  if (timeline.isAfter(first, last)) {
    throw new Error(FOLD.startAfterEnd(surfaceOp.start, timeline.liveIndexOf(first), surfaceOp.end, timeline.liveIndexOf(last)))
  }
  const shadowedSeqs = timeline.rangeSeqs(first, last)
  const sources = assertProvenance(e, shadowedSeqs)
  assertToolResultRewrite(e, shadowedSeqs, lookup)
  return { kind: 'replace', seq: e.seq, start: surfaceOp.start, end: surfaceOp.end, first, last, shadowedSeqs, sources }
}
