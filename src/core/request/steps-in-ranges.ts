/**
 * "When did the model see it", in steps: for spans of events during which something was on the model surface
 * (search's `visible`, an entry's lifespan), the steps whose request was built inside each span, so those
 * requests carried it. A request is the surface after its `atIndex` (step-locate.ts), and a span holds every event
 * from the one that put the thing on the surface through the one before the replacement that took it off: a step's
 * request carried it exactly when its `atIndex` lies in a span.
 */

import type { LensLog } from '../log/lens-log.ts'
import { locateStep, stepSpans, type LocatedStep } from './step-locate.ts'

/** A step, named `turn.step`, with where its request was built. */
export interface StepMark {
  readonly turn: number
  readonly step: number
  readonly atIndex: number
  readonly atSeq: number
}

/** One span (event indices, inclusive) with its seqs and the steps whose request it carried. */
export interface SpanSteps {
  readonly from: number
  readonly to: number
  readonly fromSeq: number
  readonly toSeq: number
  /** Steps whose request was built in the span: the first, the last, and how many. */
  readonly firstStep: StepMark | null
  readonly lastStep: StepMark | null
  readonly stepCount: number
}

const seqAt = (log: LensLog, index: number): number => {
  const seq = log.seqOf(index)
  return typeof seq === 'number' ? seq : index
}

/** Every step's request point, in ascending `atIndex` order. */
export function stepMarks(log: LensLog): StepMark[] {
  const spans = stepSpans(log)
  const marks = spans.map((_, p) => {
    const l = locateStep(log, p, spans) as LocatedStep
    return { turn: l.turn, step: l.step, atIndex: l.atIndex, atSeq: seqAt(log, l.atIndex) }
  })
  return marks.sort((a, b) => a.atIndex - b.atIndex)
}

/** Number of marks with `atIndex <= bound` (marks sorted ascending). */
function countAtMost(marks: readonly StepMark[], bound: number): number {
  let lo = 0
  let hi = marks.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((marks[mid] as StepMark).atIndex <= bound) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The steps carried by each span of `ranges` (event indices, inclusive). `marks`: `stepMarks(log)`, when at hand. */
export function stepsInRanges(
  log: LensLog,
  ranges: readonly { readonly from: number; readonly to: number }[],
  marks: readonly StepMark[] = stepMarks(log),
): SpanSteps[] {
  return ranges.map(({ from, to }) => {
    const first = countAtMost(marks, from - 1)
    const end = countAtMost(marks, to)
    return {
      from,
      to,
      fromSeq: seqAt(log, from),
      toSeq: seqAt(log, to),
      firstStep: end > first ? (marks[first] as StepMark) : null,
      lastStep: end > first ? (marks[end - 1] as StepMark) : null,
      stepCount: Math.max(0, end - first),
    }
  })
}
