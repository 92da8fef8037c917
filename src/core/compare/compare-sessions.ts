/**
 * Two runs side by side (issue 38): `compareSessions(a, b)` over two loaded logs, the answer `dsh-lens diff --json`
 * prints, and `RunComparison`, the same answer in parts for a reader that asks pair by pair (the viewer's worker: the
 * aligned pair list first, one pair's full difference when it is picked).
 *
 * A fork's shared seed is one block (fork-seed.ts); after it the steps are paired (align.ts), each pair compared
 * (pair-compare.ts: same or not, every kind it holds, what leads), the first pair that is not the same is the first
 * divergence, and each run's totals are summed beside the pairs' deltas (run-totals.ts).
 */

import type { LensLog } from '../log/lens-log.ts'
import { stepRequest, type StepRequestJson } from '../request/step-request.ts'
import { alignSteps, type AlignedPair } from './align.ts'
import type { DivergenceKind } from './divergence-kind.ts'
import { leadSentence, partedLine } from './divergence-words.ts'
import { forkVerdict, type ForkBlock, type ForkVerdict } from './fork-seed.ts'
import { comparePair, type Lead, type PairFacts, type SidePoint } from './pair-compare.ts'
import { messageMarks, requestComparison, TextDiffCache, type MessageMark, type RequestComparison } from './request-diff.ts'
import { RunIndex, type RunStep } from './run-index.ts'
import {
  runTotals,
  stepDelta,
  stepFigures,
  type PriceStep,
  type RunTotals,
  type StepDelta,
  type StepFigures,
} from './run-totals.ts'

export interface CompareOptions {
  /** Issue 37's seam: prices a step's usage; with it, totals and deltas carry `cost` (run-totals.ts). */
  readonly priceStep?: PriceStep
  /** Compute every pair's `requestDiff` (the CLI); without it they are null and a reader asks `pairDetail(i)`. */
  readonly details?: boolean
}

/** A step of one run in a pair: `lens request`'s `turn`, `step` and `atSeq`. */
export interface PairStep {
  readonly turn: number
  readonly step: number
  readonly atSeq: number
}

export interface ComparedPair {
  readonly a: PairStep | null
  readonly b: PairStep | null
  readonly same: boolean
  readonly kinds: DivergenceKind[]
  readonly requestDiff: RequestComparison | null
  readonly delta: StepDelta
}

export interface FirstDivergence {
  readonly kind: DivergenceKind
  readonly a: SidePoint
  readonly b: SidePoint
  readonly message: string
}

/** `dsh-lens diff --json` (docs/cli.md). */
export interface SessionComparison {
  readonly fork: ForkBlock | null
  readonly firstDivergence: FirstDivergence | null
  readonly pairs: ComparedPair[]
  readonly totals: { readonly a: RunTotals; readonly b: RunTotals }
}

/** One pair in full, for a reader that picked it: both requests as the Request view builds them, and how they differ. */
export interface PairDetail {
  readonly index: number
  readonly a: StepRequestJson | null
  readonly b: StepRequestJson | null
  readonly requestDiff: RequestComparison | null
  /** Per side, one mark per message of `a.messages` / `b.messages`. */
  readonly marks: { readonly a: MessageMark[]; readonly b: MessageMark[] } | null
}

const stepOf = (step: RunStep | null): PairStep | null =>
  step === null ? null : { turn: step.turn, step: step.step, atSeq: step.atSeq }

/** What a pair's comparison leaves behind once its node lists are let go: small, kept for every pair. */
interface Verdict {
  readonly same: boolean
  readonly kinds: DivergenceKind[]
  readonly lead: Lead | null
}

/**
 * Two runs compared, in parts a reader can ask for one at a time, cheapest first: `aligned` (the rows, at
 * construction), `firstDivergence()` (walks the pairs only up to the first that differs), `pairs(from, to)` (rows'
 * verdicts and deltas, any range), `totals()`, `pairDetail(i)` (one pair in full). `result()` is all of it at once.
 * Keys and text diffs are kept; per-pair node lists are not (a pair is compared again, in O(its messages), when asked
 * in full).
 */
export class RunComparison {
  readonly a: RunIndex
  readonly b: RunIndex
  readonly fork: ForkVerdict
  /** The aligned steps, in order: the pair list's rows. */
  readonly aligned: readonly AlignedPair[]
  private readonly texts: TextDiffCache
  private readonly verdicts: (Verdict | undefined)[]
  private figures: { a: StepFigures[]; b: StepFigures[] } | undefined
  private first: { index: number; divergence: FirstDivergence } | null | undefined

  constructor(
    a: LensLog,
    b: LensLog,
    private readonly options: CompareOptions = {},
  ) {
    this.a = new RunIndex(a)
    this.b = new RunIndex(b)
    this.fork = forkVerdict(a, b)
    this.aligned = alignSteps(this.a, this.b, this.fork.fork?.seedLength ?? 0)
    this.texts = new TextDiffCache(this.a, this.b)
    this.verdicts = new Array<Verdict | undefined>(this.aligned.length)
  }

  /** Pair `index` compared in full (its requests' node lists and middle, its outcomes): not kept. */
  pairFacts(index: number): PairFacts {
    const facts = comparePair(this.a, this.b, this.aligned[index] as AlignedPair)
    this.verdicts[index] ??= { same: facts.same, kinds: facts.kinds, lead: facts.lead }
    return facts
  }

  private verdict(index: number): Verdict {
    return this.verdicts[index] ?? this.pairFacts(index)
  }

  /** The first pair that is not the same, and the divergence it holds; null when the runs are equal. */
  firstDivergence(): { readonly index: number; readonly divergence: FirstDivergence } | null {
    if (this.first === undefined) {
      this.first = null
      for (let i = 0; i < this.aligned.length; i++) {
        if (this.verdict(i).lead === null) continue
        this.first = { index: i, divergence: this.divergenceOf(this.pairFacts(i)) }
        break
      }
    }
    return this.first
  }

  private stepFigures(): { a: StepFigures[]; b: StepFigures[] } {
    this.figures ??= {
      a: this.a.steps.map((s) => stepFigures(this.a, s, this.options.priceStep)),
      b: this.b.steps.map((s) => stepFigures(this.b, s, this.options.priceStep)),
    }
    return this.figures
  }

  /** Rows `from` to `to` (exclusive) of the pair list: steps, same, kinds, delta; `requestDiff` with `details` only. */
  pairs(from = 0, to = this.aligned.length): ComparedPair[] {
    const figures = this.stepFigures()
    const priced = this.options.priceStep !== undefined
    const out: ComparedPair[] = []
    for (let i = Math.max(0, from); i < Math.min(to, this.aligned.length); i++) {
      const pair = this.aligned[i] as AlignedPair
      const details = this.options.details === true
      const facts = details ? this.pairFacts(i) : null
      const verdict = facts ?? this.verdict(i)
      out.push({
        a: stepOf(pair.a),
        b: stepOf(pair.b),
        same: verdict.same,
        kinds: verdict.kinds,
        requestDiff: facts === null ? null : requestComparison(facts, this.a, this.b, this.texts),
        delta: stepDelta(
          pair.a === null ? null : (figures.a[pair.a.position] as StepFigures),
          pair.b === null ? null : (figures.b[pair.b.position] as StepFigures),
          priced,
        ),
      })
    }
    return out
  }

  /** Each run's totals, side by side. */
  totals(): { readonly a: RunTotals; readonly b: RunTotals } {
    const figures = this.stepFigures()
    const priced = this.options.priceStep !== undefined
    return { a: runTotals(this.a, figures.a, priced), b: runTotals(this.b, figures.b, priced) }
  }

  /** The whole answer: every pair compared, the first divergence, the totals. */
  result(): SessionComparison {
    const pairs = this.pairs()
    return { fork: this.fork.fork, firstDivergence: this.firstDivergence()?.divergence ?? null, pairs, totals: this.totals() }
  }

  private divergenceOf(facts: PairFacts): FirstDivergence {
    const lead = facts.lead as Lead
    const detail = lead.kind === 'header' ? requestComparison(facts, this.a, this.b, this.texts) : null
    let message = leadSentence(lead, detail?.headerChanged ?? [])
    if (this.fork.mismatch !== null) message += ` (${this.fork.mismatch})`
    return { kind: lead.kind, a: lead.a, b: lead.b, message }
  }

  /** Pair `index` in full: both requests (`stepRequest`, as the Request view shows them) and their difference. */
  pairDetail(index: number): PairDetail | null {
    const pair = this.aligned[index]
    if (pair === undefined) return null
    const facts = this.pairFacts(index)
    return {
      index,
      a: pair.a === null ? null : (stepRequest(this.a.log, pair.a.position) ?? null),
      b: pair.b === null ? null : (stepRequest(this.b.log, pair.b.position) ?? null),
      requestDiff: requestComparison(facts, this.a, this.b, this.texts),
      marks: messageMarks(facts),
    }
  }

  /** The sentence a reader sees first: where A and B parted, in words, or that they are the same run. */
  partedLine(): string {
    const first = this.firstDivergence()
    const lead = first === null ? null : { lead: this.verdict(first.index).lead as Lead, sentence: first.divergence.message }
    const counted = this.aligned.filter((p) => p.a !== null)
    return partedLine(lead, this.fork, {
      steps: counted.length,
      turns: new Set(counted.map((p) => (p.a as RunStep).turnOrdinal)).size,
    })
  }
}

/** Compare two runs (`dsh-lens diff --json`): every pair with its request diff, the first divergence, the totals. */
export function compareSessions(a: LensLog, b: LensLog, options: CompareOptions = {}): SessionComparison {
  return new RunComparison(a, b, { details: true, ...options }).result()
}
