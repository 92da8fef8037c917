/**
 * The Compare view's questions and answers (issue 38): the worker's main log is run A, the second log it holds beside
 * it run B, and their comparison is the core's `RunComparison` (src/core/compare), asked for in parts: the overview
 * first (the rows' count, the first divergence, the sentence of where they parted), then rows by range, one pair in
 * full when it is picked, and the totals. Every shape is the core's, or the Request view's rows for a request's
 * messages (a message can be a multi-megabyte tool result: rows carry a preview, never the message).
 */

import type { ComparedPair, FirstDivergence, ForkBlock, MessageMark, RequestComparison, RunTotals } from '../core/index.ts'
import type { RequestMessageRow, StepRequestView } from './step-request.ts'

/** One run as its own log says: the header's session id, and how much it holds. */
export interface CompareRun {
  readonly sessionId: string | null
  readonly events: number
  readonly turns: number
  readonly steps: number
}

export interface CompareOverview {
  /** Rows of the aligned step list (pairs, and steps only one run has). */
  readonly pairCount: number
  readonly fork: ForkBlock | null
  /** The first pair that is not the same, and why; null when the runs are equal. */
  readonly first: { readonly index: number; readonly divergence: FirstDivergence } | null
  /** Where the runs parted, in words (the CLI report's first line). */
  readonly parted: string
  readonly runs: { readonly a: CompareRun; readonly b: CompareRun }
}

/** Rows `from` on of the aligned step list: steps, same, kinds, deltas (`requestDiff` is the picked pair's). */
export interface ComparePairRows {
  readonly from: number
  readonly pairs: readonly ComparedPair[]
}

/** One run's request of a picked pair, as the Request view shows a request, and how each message compares. */
export interface CompareRequest {
  readonly request: StepRequestView
  readonly rows: readonly RequestMessageRow[]
  /** One per row: whether the other run's request holds this message. */
  readonly marks: readonly MessageMark[]
}

/** A picked pair in full: its row, both requests side by side, and how they differ. */
export interface ComparePair {
  readonly index: number
  readonly pair: ComparedPair
  readonly a: CompareRequest | null
  readonly b: CompareRequest | null
  readonly requestDiff: RequestComparison | null
}

export interface CompareTotals {
  readonly a: RunTotals
  readonly b: RunTotals
}
