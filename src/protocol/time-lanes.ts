/**
 * The Time mode's question and answer (issue 30): the lanes of every step on a folded wall-clock axis, the session
 * totals and the clock warnings; the replay's event times; the stream a step had sent at an event.
 */

import type { TimingTotals, TimingWarning } from '../core/index.ts'

/** Gaps without activity longer than this are folded. */
export const FOLD_MIN_MS = 60_000
/** The axis length a folded gap keeps: wide enough to draw its mark, small against the minute it stands for. */
export const FOLD_SHOWN_MS = 4_000

/** Rows of the tools lane: calls overlapping more than this share the last row. */
export const TOOL_ROWS = 3

export const Lane = { model: 0, tools: 1, waiting: 2 } as const

/** What a bar shows. */
export const BarKind = {
  /** Request to first output. */
  ttft: 0,
  /** First output to the assistant message. */
  generation: 1,
  /** Request to message when the first output's time is unknown. */
  model: 2,
  tool: 3,
  /** A call never answered: drawn to the last time the log knows. */
  toolOpen: 4,
  /** Between the previous step's last activity and this step's request. */
  idle: 5,
  /** A retry's scheduled wait. */
  retry: 6,
} as const
export type BarKind = (typeof BarKind)[keyof typeof BarKind]

export interface TimeBars {
  readonly kind: Uint8Array
  readonly lane: Uint8Array
  /** Row within the lane (tools overlapping one another). */
  readonly row: Uint8Array
  /** Axis milliseconds. */
  readonly x0: Float64Array
  readonly x1: Float64Array
  /** Position of the step in log order. */
  readonly step: Int32Array
  /** Which of the step's tools a tool bar is, else -1. */
  readonly tool: Int32Array
  /** The event a click moves the cursor to. */
  readonly target: Int32Array
}

/** One step's figures for the hover line (the `time-step` query: asked for the step under the pointer only). */
export interface TimeStepInfo {
  readonly turn: number
  readonly step: number
  readonly atIndex: number
  readonly atSeq: number
  readonly ttftMs: number | null
  readonly generationMs: number | null
  readonly tokensPerSecond: number | null
  readonly outputTokens: number | null
  readonly tools: readonly { readonly name: string | null; readonly ms: number | null }[]
  readonly retries: readonly { readonly waitMs: number | null }[]
}

export interface TimeFold {
  /** Axis position of the fold's start. */
  readonly x: number
  /** Its real length. */
  readonly ms: number
}

export interface TimeLanesAnswer {
  /** Steps in the log (the contract's `data-steps`). */
  readonly steps: number
  readonly totals: TimingTotals
  readonly warnings: readonly TimingWarning[]
  /** Real time at axis 0 (null: nothing timed). */
  readonly start: number | null
  /** Axis length (ms). */
  readonly span: number
  readonly folds: readonly TimeFold[]
  readonly bars: TimeBars
  /** Per step (log order): its turn and step numbers, and its request point's event index. */
  readonly stepTurn: Int32Array
  readonly stepNumber: Int32Array
  readonly stepAt: Int32Array
  /** Bar ends by event index (ascending), for the cursor's place on the axis: the last anchor at or before it. */
  readonly anchorIndex: Int32Array
  readonly anchorX: Float64Array
}

/** The `event-times` answer: times of events `from ..` (NaN where an event has no usable time). */
export interface EventTimesAnswer {
  readonly from: number
  readonly times: Float64Array
}

/** The `stream-so-far` answer: what the step streaming at an event had sent, each text capped to its last part. */
export interface StreamPreview {
  readonly turn: number
  readonly step: number
  readonly index: number
  readonly text: string
  readonly reasoning: string
  readonly toolCalls: readonly { readonly name: string | null; readonly args: string }[]
  /** Delta events so far. */
  readonly deltas: number
  /** Characters left out at the start of each text (0: whole). */
  readonly cutText: number
  readonly cutReasoning: number
}

/** The cursor's place on the axis: the last anchor at or before event `index` (null before the first). */
export function cursorX(answer: Pick<TimeLanesAnswer, 'anchorIndex' | 'anchorX'>, index: number): number | null {
  let lo = 0
  let hi = answer.anchorIndex.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((answer.anchorIndex[mid] as number) <= index) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? null : (answer.anchorX[lo - 1] as number)
}
