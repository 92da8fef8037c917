/**
 * What the open log cost (issue 37), asked by the page: the whole session for the strip's Cost mode, one step for the
 * Request view, one compaction's pay-back for the inspector. Computed only when asked, never at load: the log's cost
 * facts are read once per log state (`costFactsOfLog`, about one parse per step) and priced once per currency; both are
 * kept until the log grows or the card changes. A live log that grew prices again, except for a step that was already
 * finished (a later step had started): its figures cannot change, so they are answered from what is kept.
 */

import {
  builtInRateCard,
  compactionFactsOfLog,
  costFactsOfLog,
  parseRateCard,
  payBackSentence,
  sessionCost,
  type CompactionFact,
  type CostFacts,
  type Currency,
  type LensLog,
  type RateCard,
  type SessionCost,
} from '../core/index.ts'
import type {
  CompactionCostAnswer,
  CostAnswer,
  CostBreakMark,
  CostCompactionMark,
  RateCardInfo,
  StepCostAnswer,
} from '../protocol/cost.ts'

interface Kept {
  readonly log: LensLog
  readonly length: number
  readonly facts: CostFacts
  readonly compactions: readonly CompactionFact[]
  readonly priced: Map<Currency, SessionCost>
  /** Event index of each seq the answers place (request points, checkpoints, summary events). */
  indexOf: Map<number, number> | null
}

const otherOf = (currency: Currency): Currency => (currency === 'CNY' ? 'USD' : 'CNY')

/** The event indices of `seqs`: the seq itself in a log whose seqs are its indices, else one pass over the log. */
function indicesOf(log: LensLog, seqs: Iterable<number>): Map<number, number> {
  const wanted = new Set(seqs)
  const out = new Map<number, number>()
  if (log.seqIsIndex) {
    for (const seq of wanted) if (seq >= 0 && seq < log.length) out.set(seq, seq)
    return out
  }
  for (let i = 0; i < log.length && out.size < wanted.size; i++) {
    const seq = log.seqOf(i)
    if (typeof seq === 'number' && wanted.has(seq) && !out.has(seq)) out.set(seq, i)
  }
  return out
}

export class CostQueries {
  private card: RateCard = builtInRateCard()
  private info: RateCardInfo = { version: this.card.version, checked: this.card.checked, custom: false }
  private kept: Kept | null = null

  /**
   * Price with the card whose JSON is `text` from now on (null: the built-in card); a malformed card is refused. The
   * card is whole (the server applied its rates file already); it may name the built-in card's holiday calendars.
   */
  useCard(text: string | null): RateCardInfo {
    const card =
      text === null ? builtInRateCard() : parseRateCard(text, "the companion server's rate card", builtInRateCard()).card
    this.card = card
    this.info = { version: card.version, checked: card.checked, custom: text !== null }
    this.kept = null
    return this.info
  }

  /** The log's facts as it is now, priced in `currency`. */
  private priced(log: LensLog, currency: Currency): { kept: Kept; cost: SessionCost } {
    let kept = this.kept
    if (kept === null || kept.log !== log || kept.length !== log.length) {
      kept = {
        log,
        length: log.length,
        facts: costFactsOfLog(log),
        compactions: compactionFactsOfLog(log),
        priced: new Map(),
        indexOf: null,
      }
      this.kept = kept
    }
    let cost = kept.priced.get(currency)
    if (cost === undefined) {
      cost = sessionCost(kept.facts, this.card, currency, kept.compactions)
      kept.priced.set(currency, cost)
    }
    return { kept, cost }
  }

  private indices(kept: Kept, cost: SessionCost): Map<number, number> {
    kept.indexOf ??= indicesOf(kept.log, [
      ...cost.steps.map((s) => s.atSeq),
      ...cost.summaries.map((s) => s.seq),
      ...cost.compactions.map((c) => c.seq),
    ])
    return kept.indexOf
  }

  private marks(kept: Kept, cost: SessionCost): CostCompactionMark[] {
    const at = this.indices(kept, cost)
    const stepAt = new Map(cost.steps.map((s) => [s.label, s.atSeq]))
    return cost.compactions.map((c) => {
      const paidAt = c.paidBackAtStep === null ? undefined : stepAt.get(c.paidBackAtStep)
      return {
        ...c,
        index: at.get(c.seq) ?? -1,
        summaryIndex: c.summarySeq === null ? -1 : (at.get(c.summarySeq) ?? -1),
        paidBackIndex: paidAt === undefined ? -1 : (at.get(paidAt) ?? -1),
        sentence: payBackSentence(c, cost.currency),
      }
    })
  }

  /** The session's cost over the log in `currency`. The arrays are fresh per answer: the host moves their buffers. */
  cost(log: LensLog, currency: Currency, transfer: Transferable[] = []): CostAnswer {
    const { kept, cost } = this.priced(log, currency)
    const other = this.priced(log, otherOf(currency)).cost
    const at = this.indices(kept, cost)
    const calls = [
      ...cost.steps.map((s) => ({ index: at.get(s.atSeq) ?? -1, cost: s.cost?.total ?? null, label: s.label, summary: 0 })),
      ...cost.summaries.map((s) => ({
        index: at.get(s.seq) ?? -1,
        cost: s.cost?.total ?? null,
        label: `summary #${s.seq}`,
        summary: 1,
      })),
    ]
      .filter((c) => c.index >= 0)
      .sort((a, b) => a.index - b.index || a.summary - b.summary)
    const index = new Float64Array(calls.length)
    const each = new Float64Array(calls.length)
    const total = new Float64Array(calls.length)
    const summary = new Uint8Array(calls.length)
    let sum = 0
    calls.forEach((c, k) => {
      index[k] = c.index
      each[k] = c.cost ?? Number.NaN
      sum += c.cost ?? 0
      total[k] = sum
      summary[k] = c.summary
    })
    transfer.push(index.buffer, each.buffer, total.buffer, summary.buffer)
    const breaks: CostBreakMark[] = cost.steps
      .filter((s) => s.breakCauses.length > 0 && !s.breakCauses.some((b) => b.kind === 'compaction'))
      .map((s) => ({
        index: at.get(s.atSeq) ?? -1,
        label: s.label,
        tokens: s.breakTokens,
        cost: s.breakCost,
        cause: s.breakCause ?? '',
      }))
      .filter((b) => b.index >= 0)
    return {
      currency,
      rateCard: this.info,
      events: kept.length,
      totals: cost.totals,
      unpriced: cost.unpriced,
      notes: cost.notes,
      calls: { index, cost: each, total, labels: calls.map((c) => c.label), summary },
      compactions: this.marks(kept, cost),
      breaks,
      other: {
        currency: other.currency,
        total: other.totals.cost.total,
        pricedSteps: other.totals.pricedSteps,
        unpricedSteps: other.totals.unpricedSteps,
      },
    }
  }

  /** Step `turn.step` in `currency`, or null when the log has no such step. */
  stepCost(log: LensLog, turn: number, step: number, currency: Currency): StepCostAnswer {
    const label = `${turn}.${step}`
    const answer = (here: SessionCost, there: SessionCost): StepCostAnswer => {
      const found = here.steps.find((s) => s.label === label) ?? null
      const other = found === null ? null : (there.steps.find((s) => s.label === label) ?? null)
      return { currency, rateCard: this.info, step: found, otherPrices: found?.cost === null && other?.cost != null }
    }
    // A finished step (a later one has started) costs the same however the log grows: answered from what is kept.
    const kept = this.kept
    if (kept !== null && kept.log === log && kept.length !== log.length) {
      const here = kept.priced.get(currency)
      const there = kept.priced.get(otherOf(currency))
      const k = here?.steps.findIndex((s) => s.label === label) ?? -1
      if (here !== undefined && there !== undefined && k >= 0 && k < here.steps.length - 1) return answer(here, there)
    }
    return answer(this.priced(log, currency).cost, this.priced(log, otherOf(currency)).cost)
  }

  /** The compaction whose checkpoint or `compaction/summary` event is `seq`, in `currency`. */
  compactionCost(log: LensLog, seq: number, currency: Currency): CompactionCostAnswer {
    const { kept, cost } = this.priced(log, currency)
    const found = cost.compactions.findIndex((c) => c.seq === seq || c.summarySeq === seq)
    return {
      currency,
      rateCard: this.info,
      compaction: found < 0 ? null : (this.marks(kept, cost)[found] ?? null),
    }
  }
}
