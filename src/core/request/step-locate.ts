/**
 * Where a step's request was built. The harness's agent loop appends `step/start`, then claims its inbox
 * (`user/message` appends), folds the request header (appending `request/header` when it changed) and calls the
 * provider; the first provider output is the step's first `assistant/chunk` (or its `assistant/message` when
 * nothing streamed). The real fixtures show exactly that order: `step/start`, `user/message`s, `request/header`,
 * `request/context`, then the chunks. So the request of a step is the surface *after the last event before the
 * step's first provider output*, not the surface right after `step/start` (which would miss the step's own user
 * messages). A step with no provider output yet (live, or a provider error) uses everything logged in it so far.
 */

import type { LensLog } from '../log/lens-log.ts'

/** Which rule placed the request point: before the first provider output; the step ended without one; still open without one. */
export type RequestBoundary = 'first-output' | 'step-end' | 'open'

export interface LocatedStep {
  /** Position in log order over every step of every turn. */
  readonly position: number
  readonly turn: number
  readonly step: number
  /** Event index of the step's `step/start`. */
  readonly startIndex: number
  /** Event index of the step's end (`step/end`, or the `turn/end` that closed it), or null while open. */
  readonly endIndex: number | null
  /** The request is the surface after events `0..atIndex`. */
  readonly atIndex: number
  readonly boundary: RequestBoundary
}

/** Every step of the log so far, in log order, as (turn span, step span) pairs. */
export function stepSpans(log: LensLog): { turn: number; step: number; start: number; end: number | null }[] {
  const out: { turn: number; step: number; start: number; end: number | null }[] = []
  for (const t of log.turns.turns) for (const s of t.steps) out.push({ turn: t.turn, step: s.step, start: s.start, end: s.end })
  return out
}

/** The first surface node entered after event `index` (nodes enter in event order), or nodeCount. */
export function firstNodeAfter(log: LensLog, index: number): number {
  const timeline = log.fold.timeline
  let lo = 0
  let hi = timeline.nodeCount
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (timeline.indexOf(mid) <= index) lo = mid + 1
    else hi = mid
  }
  return lo
}

const isOutputType = (type: unknown) => type === 'assistant/chunk' || type === 'assistant/message'

/**
 * Locate step number `position` (log order). The scan from `step/start` to the first output reads only the few
 * events between them, and stops at the first `assistant/message` node at the latest (found by binary search), so
 * a step costs O(events before its first output), whatever the log's size. `spans`: pass `stepSpans(log)` when
 * locating many steps, so each does not rebuild the list (O(steps) apiece).
 */
export function locateStep(log: LensLog, position: number, spans = stepSpans(log)): LocatedStep | undefined {
  const span = spans[position]
  if (span === undefined) return undefined
  const last = span.end ?? log.length - 1
  let limit = last
  const timeline = log.fold.timeline
  for (let node = firstNodeAfter(log, span.start); node < timeline.nodeCount; node++) {
    const index = timeline.indexOf(node)
    if (index > last) break
    if (log.event(index)?.type === 'assistant/message') {
      limit = index
      break
    }
  }
  for (let i = span.start + 1; i <= limit; i++) {
    if (log.isPacked(i) || isOutputType(log.event(i)?.type)) {
      return {
        position,
        turn: span.turn,
        step: span.step,
        startIndex: span.start,
        endIndex: span.end,
        atIndex: i - 1,
        boundary: 'first-output',
      }
    }
  }
  return {
    position,
    turn: span.turn,
    step: span.step,
    startIndex: span.start,
    endIndex: span.end,
    atIndex: last,
    boundary: span.end === null ? 'open' : 'step-end',
  }
}

/** Position of the step `turn.step` (the first one so numbered), or -1. */
export function findStepPosition(log: LensLog, turn: number, step: number): number {
  return stepSpans(log).findIndex((s) => s.turn === turn && s.step === step)
}

/** The step containing event `index`, or else the last step starting before it; -1 when none starts at or before it. */
export function stepPositionAt(log: LensLog, index: number): number {
  const spans = stepSpans(log)
  let lo = 0
  let hi = spans.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((spans[mid] as { start: number }).start <= index) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}
