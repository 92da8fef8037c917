/**
 * `dsh-lens cost FILE --json` (contract in docs/cli.md): the core's cost answer (`logCost`) in the JSON the issue fixes.
 * Amounts are rounded to 1e-10 of the currency (`roundAmount`: far below a cent, far above float noise) so equal inputs
 * print equal text, and equal the viewer's data attributes; `null` where the card or the log cannot say.
 */

import { roundAmount, type CompactionCost, type Money, type SessionCost, type StepCost, type TokenCounts } from '../core/index.ts'

export interface CostJson {
  readonly currency: string
  readonly rateCard: { readonly version: string; readonly checked: string }
  readonly steps: {
    readonly turn: number
    readonly step: number
    readonly atSeq: number
    readonly model: string | null
    readonly period: string | null
    readonly tokens: TokenCounts | null
    readonly cost: Money | null
    readonly breakCost: number | null
    readonly breakCause: string | null
  }[]
  readonly compactions: {
    readonly seq: number
    readonly summaryCost: number | null
    readonly breakCost: number | null
    readonly savedPerStep: number | null
    readonly paidBackAtStep: string | null
    readonly balance: number | null
  }[]
  readonly totals: Record<string, unknown>
  readonly unpriced: { readonly model: string | null; readonly provider: string | null; readonly steps: readonly string[] }[]
}

export const amount = roundAmount
const orNull = (value: number | null): number | null => (value === null ? null : amount(value))

export function moneyJson(m: Money | null): Money | null {
  return m === null
    ? null
    : {
        currency: m.currency,
        input: amount(m.input),
        cacheRead: amount(m.cacheRead),
        output: amount(m.output),
        total: amount(m.total),
      }
}

const stepJson = (s: StepCost): CostJson['steps'][number] => ({
  turn: s.turn,
  step: s.step,
  atSeq: s.atSeq,
  model: s.model,
  period: s.period,
  tokens: s.tokens,
  cost: moneyJson(s.cost),
  breakCost: orNull(s.breakCost),
  breakCause: s.breakCause,
})

const compactionJson = (c: CompactionCost): CostJson['compactions'][number] => ({
  seq: c.seq,
  summaryCost: orNull(c.summaryCost),
  breakCost: orNull(c.breakCost),
  savedPerStep: orNull(c.savedPerStep),
  paidBackAtStep: c.paidBackAtStep,
  balance: orNull(c.balance),
})

export function costJson(cost: SessionCost): CostJson {
  const t = cost.totals
  return {
    currency: cost.currency,
    rateCard: cost.rateCard,
    steps: cost.steps.map(stepJson),
    compactions: cost.compactions.map(compactionJson),
    totals: {
      ...(moneyJson(t.cost) as Money),
      stepsCost: amount(t.stepsCost.total),
      summariesCost: amount(t.summariesCost.total),
      breakCost: amount(t.breakCost),
      breaks: t.breaks,
      tokens: t.tokens,
      cacheHit: t.cacheHit,
      byModel: cost.byModel.map((m) => ({
        provider: m.provider,
        model: m.model,
        billedAs: m.billedAs,
        steps: m.steps,
        summaries: m.summaries,
        tokens: m.tokens,
        cost: moneyJson(m.cost),
      })),
      byTurn: cost.byTurn.map((t) => ({
        turn: t.turn,
        steps: t.steps,
        total: amount(t.cost.total),
        breakCost: amount(t.breakCost),
      })),
      notes: cost.notes,
    },
    unpriced: cost.unpriced
      .filter((u) => u.steps.length > 0)
      .map((u) => ({ model: u.model, provider: u.provider, steps: u.steps })),
  }
}
