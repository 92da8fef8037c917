/**
 * The Compare view's answers (issue 38), over the worker's two open logs: run A is the main log, run B the other. One
 * `RunComparison` (src/core/compare) is kept, built on the view's first question (the overview) and never while a log
 * loads; another load, or an overview asked after a log grew, builds it again. Closing the view lets it go (`close`). What each part costs on two 280k-event logs: docs/benchmarks.md.
 */

import { RunComparison, type LensLog, type PriceStep } from '../core/index.ts'
import type {
  CompareOverview,
  ComparePair,
  ComparePairRows,
  CompareRequest,
  CompareRun,
  CompareTotals,
} from '../protocol/compare.ts'
import { requestRows } from './step-request-query.ts'

/** Rows one `compare-pairs` answer holds at most (the list asks for what it shows, a screenful and its overscan). */
export const COMPARE_ROWS_MAX = 500

export interface CompareQueryOptions {
  /** Issue 37's rate card, when it lands: every total and delta then carries a `cost` (src/core/compare/run-totals.ts). */
  readonly priceStep?: PriceStep
}

interface Held {
  readonly a: LensLog
  readonly b: LensLog
  readonly lengths: readonly [number, number]
  readonly comparison: RunComparison
}

export class CompareQueries {
  private held: Held | null = null

  constructor(private readonly options: CompareQueryOptions = {}) {}

  /**
   * The comparison of `a` and `b`. The overview (`fresh`) compares the logs as they are now, built again when either
   * grew; the other answers read the comparison the overview was given, so rows, pairs and totals agree with it while a
   * followed log grows (an append-only log's earlier steps and requests do not change). Other logs: built again.
   */
  comparison(a: LensLog, b: LensLog, fresh = false): RunComparison {
    const held = this.held
    const same = held !== null && held.a === a && held.b === b
    if (same && (!fresh || (held.lengths[0] === a.length && held.lengths[1] === b.length))) return held.comparison
    const priced = this.options.priceStep === undefined ? {} : { priceStep: this.options.priceStep }
    const comparison = new RunComparison(a, b, priced)
    this.held = { a, b, lengths: [a.length, b.length], comparison }
    return comparison
  }

  overview(a: LensLog, b: LensLog): CompareOverview {
    const comparison = this.comparison(a, b, true)
    const [eventsA, eventsB] = (this.held as Held).lengths
    const run = (log: LensLog, events: number, steps: number): CompareRun => ({
      sessionId: typeof log.header?.id === 'string' ? log.header.id : null,
      events,
      turns: log.turns.turns.length,
      steps,
    })
    return {
      pairCount: comparison.aligned.length,
      fork: comparison.fork.fork,
      first: comparison.firstDivergence(),
      parted: comparison.partedLine(),
      runs: { a: run(a, eventsA, comparison.a.steps.length), b: run(b, eventsB, comparison.b.steps.length) },
    }
  }

  pairs(a: LensLog, b: LensLog, from: number, to: number): ComparePairRows {
    const start = Math.max(0, Math.trunc(from))
    const end = Math.min(Math.trunc(to), start + COMPARE_ROWS_MAX)
    return { from: start, pairs: this.comparison(a, b).pairs(start, end) }
  }

  pair(a: LensLog, b: LensLog, index: number): ComparePair | null {
    const comparison = this.comparison(a, b)
    const detail = comparison.pairDetail(index)
    const row = comparison.pairs(index, index + 1)[0]
    if (detail === null || row === undefined) return null
    const side = (json: typeof detail.a, marks: readonly ('same' | 'differs')[] | undefined): CompareRequest | null =>
      json === null ? null : { ...requestRows(json), marks: marks ?? [] }
    return {
      index,
      pair: row,
      a: side(detail.a, detail.marks?.a),
      b: side(detail.b, detail.marks?.b),
      requestDiff: detail.requestDiff,
    }
  }

  totals(a: LensLog, b: LensLog): CompareTotals {
    return this.comparison(a, b).totals()
  }

  close(): void {
    this.held = null
  }
}
