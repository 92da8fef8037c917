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
import { comparePair, type PairFacts, type SidePoint } from './pair-compare.ts'
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

export class RunComparison {
  readonly a: RunIndex
  readonly b: RunIndex
  readonly fork: ForkVerdict
  /** The aligned steps, in order: the pair list's rows. */
  readonly aligned: readonly AlignedPair[]
  private readonly texts: TextDiffCache
  private readonly facts: (PairFacts | undefined)[]

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
    this.facts = new Array<PairFacts | undefined>(this.aligned.length)
  }

  /** Pair `index` compared (kept: a reader comes back to the pair it picked). */
  pairFacts(index: number): PairFacts {
    let facts = this.facts[index]
    if (facts === undefined) {
      facts = comparePair(this.a, this.b, this.aligned[index] as AlignedPair)
      this.facts[index] = facts
    }
    return facts
  }

  /** The whole answer: every pair compared, the first divergence, the totals. */
  result(): SessionComparison {
    const priced = this.options.priceStep !== undefined
    const figuresA = this.a.steps.map((s) => stepFigures(this.a, s, this.options.priceStep))
    const figuresB = this.b.steps.map((s) => stepFigures(this.b, s, this.options.priceStep))
    let first: FirstDivergence | null = null
    const pairs: ComparedPair[] = []
    for (const [i, pair] of this.aligned.entries()) {
      const facts = this.pairFacts(i)
      if (first === null && facts.lead !== null) first = this.firstDivergence(facts)
      const fa: StepFigures | null = pair.a === null ? null : (figuresA[pair.a.position] as StepFigures)
      const fb: StepFigures | null = pair.b === null ? null : (figuresB[pair.b.position] as StepFigures)
      pairs.push({
        a: stepOf(pair.a),
        b: stepOf(pair.b),
        same: facts.same,
        kinds: facts.kinds,
        requestDiff: this.options.details === true ? requestComparison(facts, this.a, this.b, this.texts) : null,
        delta: stepDelta(fa, fb, priced),
      })
      // The CLI walks every pair once: what it no longer needs is not kept.
      if (this.options.details === true) this.facts[i] = undefined
    }
    return {
      fork: this.fork.fork,
      firstDivergence: first,
      pairs,
      totals: { a: runTotals(this.a, figuresA, priced), b: runTotals(this.b, figuresB, priced) },
    }
  }

  private firstDivergence(facts: PairFacts): FirstDivergence {
    const lead = facts.lead as NonNullable<PairFacts['lead']>
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

  /** The report's first line: where A and B parted, in words, or that they are the same run. */
  partedLine(result: SessionComparison): string {
    const index = result.pairs.findIndex((p) => !p.same)
    const facts = index === -1 ? null : this.pairFacts(index)
    const lead =
      facts?.lead == null || result.firstDivergence === null
        ? null
        : { lead: facts.lead, sentence: result.firstDivergence.message }
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
