/**
 * What the page asks the worker about money (issue 37), in the core's shapes (`SessionCost`, `StepCost`,
 * `CompactionCost`): the session's cost over the log for the strip's Cost mode, one step's cost for the Request view,
 * one compaction's pay-back for the inspector. Every amount is an estimate from the logged usage and the rate card the
 * worker prices with (the built-in one, or the one the companion server was given): each answer names it.
 */

import type { CompactionCost, CostTotals, Currency, StepCost, UnpricedCalls } from '../core/index.ts'

/** The rate card an answer was priced with. */
export interface RateCardInfo {
  readonly version: string
  /** The day its prices were last read from the providers' pages. */
  readonly checked: string
  /** A card the companion server prices with (`--rates`, `DSH_LENS_RATES`), not the one built into the page. */
  readonly custom: boolean
}

interface Priced {
  readonly currency: Currency
  readonly rateCard: RateCardInfo
}

/** A compaction as the strip marks it: the core's pay-back, where it happened (event indices), and its sentence. */
export interface CostCompactionMark extends CompactionCost {
  /** The checkpoint that replaced the range (`seq`). */
  readonly index: number
  /** Its `compaction/summary` event, where the summary call is charged; -1 when the log has none. */
  readonly summaryIndex: number
  /** The request point of the step it paid back at; -1 when it did not. */
  readonly paidBackIndex: number
  /** `cost ¥a (summary ¥b + cache break ¥c); paid back at step N`, or why not (the core's `payBackSentence`). */
  readonly sentence: string
}

/** A cache break that is no compaction's (a prune, a rewritten message, a header change), at its step's request. */
export interface CostBreakMark {
  readonly index: number
  /** The step, `T.S`. */
  readonly label: string
  /** Tokens billed again as misses, and what that cost; null when the step has no usage or no price. */
  readonly tokens: number | null
  readonly cost: number | null
  /** The causes as the Request view names them. */
  readonly cause: string
}

/** The model calls of a log in log order (steps and compaction summary calls), for the Cost mode's line. */
export interface CostCalls {
  /** Event index the call is charged at: a step's request point, a summary call's `compaction/summary`. */
  readonly index: Float64Array
  /** What it cost; NaN when it has no price (no usage, or none on the card). */
  readonly cost: Float64Array
  /** The running total after it (calls without a price add nothing). */
  readonly total: Float64Array
  /** `T.S` of a step, `summary #SEQ` of a summary call. */
  readonly labels: readonly string[]
  /** 1 for a summary call, 0 for a step. */
  readonly summary: Uint8Array
}

/** The `cost` query: the whole session in one currency. */
export interface CostAnswer extends Priced {
  /** Events of the log when it was priced. */
  readonly events: number
  readonly totals: CostTotals
  readonly unpriced: readonly UnpricedCalls[]
  /** What the figures leave out or assume, one sentence each (the core's `notes`). */
  readonly notes: readonly string[]
  readonly calls: CostCalls
  readonly compactions: readonly CostCompactionMark[]
  readonly breaks: readonly CostBreakMark[]
  /** The same log in the other currency: how much of it that one prices (the switch's hint when this one has gaps). */
  readonly other: {
    readonly currency: Currency
    readonly total: number
    readonly pricedSteps: number
    readonly unpricedSteps: number
  }
}

/** The `step-cost` query: one step, or null when the log has no such step. */
export interface StepCostAnswer extends Priced {
  readonly step: StepCost | null
  /** Whether the other currency prices this step when this one cannot. */
  readonly otherPrices: boolean
}

/** The `compaction-cost` query: the compaction whose checkpoint or summary event is `seq`, or null. */
export interface CompactionCostAnswer extends Priced {
  readonly compaction: CostCompactionMark | null
}
