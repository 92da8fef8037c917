/**
 * What a session cost, from its facts (`cost-facts.ts`) and a rate card: every step at the instant of its request
 * with the model and provider its header named, every compaction's own summary call, what each break of the prompt
 * cache cost, and whether each compaction paid for itself. Every amount is an estimate from the logged usage and the
 * card; a call the card cannot price keeps its tokens and gets no price, with the reason in words.
 *
 * A break (a compaction, a prune, a rewritten message or a header change since the previous request) makes tokens
 * the previous request had cached be billed again as misses: those are the previous request's tokens after the point
 * where the cache stopped — its prompt less what this request read from the cache — less what the break took off the
 * request altogether, and at most what this request was billed as misses. They cost the miss rate less the hit rate.
 */

import {
  addCounts,
  promptTokens,
  type BreakCause,
  type CostFacts,
  type StepFact,
  type SummaryFact,
  type TokenCounts,
} from './cost-facts.ts'
import type { Currency, RateCard, Rates } from './rate-card.ts'
import { RatePricer, type Period } from './rates-at.ts'

export interface Money {
  readonly currency: Currency
  /** Input billed as misses (cache writes included). */
  readonly input: number
  readonly cacheRead: number
  readonly output: number
  readonly total: number
}

export interface StepCost {
  readonly turn: number
  readonly step: number
  readonly atSeq: number
  /** `T.S`. */
  readonly label: string
  readonly at: number | null
  readonly provider: string | null
  readonly model: string | null
  /** The model it was billed as (a retired name's successor), when priced. */
  readonly billedModel: string | null
  readonly period: Period | null
  /** The card version used: its `effectiveFrom`. */
  readonly rateVersion: string | null
  /** Every attempt's tokens (retried attempts included); null when the step logged no usage. */
  readonly tokens: TokenCounts | null
  readonly cost: Money | null
  /** Why there is no cost, in one sentence; null when priced. */
  readonly unpriced: string | null
  readonly breakCauses: readonly BreakCause[]
  /** The causes in words, as the Request view names them; null without a break. */
  readonly breakCause: string | null
  readonly breakTokens: number | null
  readonly breakCost: number | null
  /** Per 1M tokens at this step, for what a compaction saves here; null when unpriced. */
  readonly hitRate: number | null
}

/** A compaction's summary call priced: its fact, its tokens (`usage`) as `tokens`. */
export interface SummaryCost extends Omit<SummaryFact, 'usage'> {
  readonly tokens: TokenCounts | null
  readonly cost: Money | null
  readonly unpriced: string | null
}

/** A compaction that landed (its checkpoint replaced a range), with what the core knows of its tokens. */
export interface CompactionFact {
  /** The checkpoint `user/message` (the replacement). */
  readonly seq: number
  readonly compactionId: string | null
  /** Its `compaction/summary` event, or null when the log has none before the checkpoint. */
  readonly summarySeq: number | null
  /** Tokens it took off the request (the logged `shadowedTokenCount`, else an estimate) less the summary's own. */
  readonly savedTokens: number
  /** Seq of the first later replacement that took the checkpoint itself off the request (null: it stayed). */
  readonly replacedAtSeq: number | null
}

export interface CompactionCost {
  readonly seq: number
  readonly compactionId: string | null
  readonly summarySeq: number | null
  /** Its own model call. */
  readonly summaryCost: number | null
  /** What the break it made cost the first request after it. */
  readonly breakCost: number | null
  /** What it saves on the first request after it: the tokens it took off, at that request's cache-hit rate. */
  readonly savedPerStep: number | null
  /** The first step where the savings reach `summaryCost + breakCost`, `T.S`; null when they never do. */
  readonly paidBackAtStep: string | null
  /** Savings less `summaryCost + breakCost` at the session's end (negative: not paid back). */
  readonly balance: number | null
  /** The first request with the summary, `T.S`, or null when the session ends before one. */
  readonly firstStep: string | null
  readonly savedTokens: number
  /** Why the pay-back cannot be said, or null. */
  readonly note: string | null
}

export interface ModelCost {
  readonly provider: string | null
  readonly model: string | null
  readonly billedAs: readonly string[]
  readonly steps: number
  readonly summaries: number
  readonly tokens: TokenCounts | null
  readonly cost: Money
}

export interface TurnCost {
  readonly turn: number
  readonly steps: number
  readonly cost: Money
  readonly breakCost: number
}

export interface UnpricedCalls {
  readonly model: string | null
  readonly provider: string | null
  readonly steps: readonly string[]
  readonly summaries: readonly number[]
  readonly reason: string
}

export interface CostTotals {
  /** All the money spent: steps, their retried attempts and the compactions' summary calls. */
  readonly cost: Money
  readonly stepsCost: Money
  readonly summariesCost: Money
  readonly breakCost: number
  readonly breaks: number
  readonly tokens: TokenCounts | null
  /** Cache reads / (input + cache reads + cache writes) over every call that logged usage. */
  readonly cacheHit: number | null
  readonly pricedSteps: number
  readonly unpricedSteps: number
}

export interface SessionCost {
  readonly currency: Currency
  readonly rateCard: { readonly version: string; readonly checked: string }
  readonly steps: readonly StepCost[]
  readonly summaries: readonly SummaryCost[]
  readonly compactions: readonly CompactionCost[]
  readonly totals: CostTotals
  readonly byModel: readonly ModelCost[]
  readonly byTurn: readonly TurnCost[]
  readonly unpriced: readonly UnpricedCalls[]
  /** What the figures leave out or assume, one sentence each. */
  readonly notes: readonly string[]
}

export const zeroMoney = (currency: Currency): Money => ({ currency, input: 0, cacheRead: 0, output: 0, total: 0 })

export function addMoney(a: Money, b: Money | null): Money {
  if (b === null) return a
  return {
    currency: a.currency,
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output,
    total: a.total + b.total,
  }
}

/** Tokens at rates per 1M: cache writes at the row's write rate, else as misses. */
export function priceTokens(tokens: TokenCounts, rates: Rates, currency: Currency): Money {
  const input = (tokens.input * rates.inputMiss + tokens.cacheWrite * (rates.cacheWrite ?? rates.inputMiss)) / 1e6
  const cacheRead = (tokens.cacheRead * rates.inputHit) / 1e6
  const output = (tokens.output * rates.output) / 1e6
  return { currency, input, cacheRead, output, total: input + cacheRead + output }
}

/** What a break re-billed: its tokens at the miss rate less the hit rate. */
export const breakCostOf = (breakTokens: number, rates: Rates): number => (breakTokens * (rates.inputMiss - rates.inputHit)) / 1e6

/**
 * Tokens of the previous request billed again as misses because of a break: its prompt less this request's cache
 * reads less what the break took off, between 0 and this request's misses.
 */
export function breakTokensOf(step: Pick<StepFact, 'previousPrompt' | 'usage' | 'removedTokens'>): number | null {
  if (step.previousPrompt === null || step.usage === null) return null
  const misses = step.usage.input + step.usage.cacheWrite
  return Math.min(misses, Math.max(0, step.previousPrompt - step.removedTokens - step.usage.cacheRead))
}

export function breakCauseText(causes: readonly BreakCause[]): string | null {
  if (causes.length === 0) return null
  return causes
    .map((c) =>
      c.kind === 'header'
        ? `header changed: ${c.fields.join(', ')}`
        : c.kind === 'compaction'
          ? `compaction summary (seq ${c.seq})`
          : c.kind === 'prune'
            ? `prune (seq ${c.seq})`
            : `rewritten message (seq ${c.seq})`,
    )
    .join('; ')
}

const label = (s: { turn: number; step: number }): string => `${s.turn}.${s.step}`

const hitShare = (t: TokenCounts | null): number | null => {
  if (t === null) return null
  const prompt = promptTokens(t)
  return prompt > 0 ? t.cacheRead / prompt : null
}

/** One step priced; a day no holiday list covers goes to `uncovered`. One object literal per step (a big log has thousands). */
function priceStep(fact: StepFact, pricer: RatePricer, uncovered: Set<string>): StepCost {
  const tokens = addCounts(fact.usage, fact.retried)
  const priced = pricer.at(fact.provider, fact.model, fact.at)
  const breakTokens = fact.breakCauses.length > 0 ? breakTokensOf(fact) : null
  const ok = !('unpriced' in priced)
  if (ok && priced.uncoveredDate !== null) uncovered.add(priced.uncoveredDate)
  return {
    turn: fact.turn,
    step: fact.step,
    atSeq: fact.atSeq,
    label: label(fact),
    at: fact.at,
    provider: fact.provider,
    model: fact.model,
    billedModel: ok ? priced.billedModel : null,
    period: ok ? priced.period : null,
    rateVersion: ok ? priced.version : null,
    tokens,
    cost: ok && tokens !== null ? priceTokens(tokens, priced.rates, pricer.currency) : null,
    unpriced: ok ? (tokens === null ? 'the step logged no usage' : null) : priced.unpriced,
    breakCauses: fact.breakCauses,
    breakCause: breakCauseText(fact.breakCauses),
    breakTokens,
    breakCost: ok && breakTokens !== null ? breakCostOf(breakTokens, priced.rates) : null,
    hitRate: ok && tokens !== null ? priced.rates.inputHit : null,
  }
}

function priceSummary(fact: SummaryFact, pricer: RatePricer, uncovered: Set<string>): SummaryCost {
  const priced = pricer.at(fact.provider, fact.model, fact.at)
  const ok = !('unpriced' in priced)
  if (ok && priced.uncoveredDate !== null) uncovered.add(priced.uncoveredDate)
  return {
    seq: fact.seq,
    compactionId: fact.compactionId,
    turn: fact.turn,
    at: fact.at,
    provider: fact.provider,
    model: fact.model,
    tokens: fact.usage,
    cost: ok && fact.usage !== null ? priceTokens(fact.usage, priced.rates, pricer.currency) : null,
    unpriced: ok ? (fact.usage === null ? 'the summary call logged no usage' : null) : priced.unpriced,
  }
}

function payBack(c: CompactionFact, steps: readonly StepCost[], summaries: readonly SummaryCost[]): CompactionCost {
  const summary = c.summarySeq === null ? undefined : summaries.find((s) => s.seq === c.summarySeq)
  const summaryCost = summary?.cost?.total ?? null
  const first = steps.findIndex((s) => s.atSeq >= c.seq)
  const base = { seq: c.seq, compactionId: c.compactionId, summarySeq: c.summarySeq, savedTokens: c.savedTokens }
  if (first < 0) {
    return {
      ...base,
      summaryCost,
      breakCost: 0,
      savedPerStep: null,
      paidBackAtStep: null,
      balance: summaryCost === null ? null : -summaryCost,
      firstStep: null,
      note:
        summaryCost === null
          ? (summary?.unpriced ?? 'the log has no summary call for it')
          : 'the session ends before a request uses it',
    }
  }
  const firstStep = steps[first] as StepCost
  const own = firstStep.breakCauses.some((b) => b.kind === 'compaction' && b.seq === c.seq)
  const breakCost = own ? firstStep.breakCost : 0
  const saved = (s: StepCost): number => (s.hitRate === null ? 0 : (c.savedTokens * s.hitRate) / 1e6)
  const note =
    summaryCost === null
      ? (summary?.unpriced ?? 'the log has no summary call for it')
      : breakCost === null
        ? `the first request after it (step ${firstStep.label}) ${firstStep.unpriced ?? 'has no usage before it'}`
        : null
  let paidBackAtStep: string | null = null
  let cumulative = 0
  const cost = (summaryCost ?? 0) + (breakCost ?? 0)
  for (let k = first; k < steps.length; k++) {
    const s = steps[k] as StepCost
    if (c.replacedAtSeq !== null && s.atSeq >= c.replacedAtSeq) break
    cumulative += saved(s)
    if (paidBackAtStep === null && note === null && cumulative >= cost) paidBackAtStep = s.label
  }
  return {
    ...base,
    summaryCost,
    breakCost,
    savedPerStep: firstStep.hitRate === null ? null : saved(firstStep),
    paidBackAtStep,
    balance: note === null ? cumulative - cost : null,
    firstStep: firstStep.label,
    note,
  }
}

/** The session's cost: `facts` priced with `card` in `currency`; `compactions` (the core's, from a LensLog) adds pay-back. */
export function sessionCost(
  facts: CostFacts,
  card: RateCard,
  currency: Currency,
  compactions: readonly CompactionFact[] = [],
  pricer: RatePricer = new RatePricer(card, currency),
): SessionCost {
  const uncovered = new Set<string>()
  const steps = facts.steps.map((f) => priceStep(f, pricer, uncovered))
  const summaries = facts.summaries.map((f) => priceSummary(f, pricer, uncovered))
  let stepsCost = zeroMoney(currency)
  let summariesCost = zeroMoney(currency)
  let breakCost = 0
  let breaks = 0
  let tokens: TokenCounts | null = null
  const models = new Map<
    string,
    {
      provider: string | null
      model: string | null
      billedAs: Set<string>
      steps: number
      summaries: number
      tokens: TokenCounts | null
      cost: Money
    }
  >()
  const turns = new Map<number, { steps: number; cost: Money; breakCost: number }>()
  const unpriced = new Map<
    string,
    { model: string | null; provider: string | null; steps: string[]; summaries: number[]; reason: string }
  >()
  const notes: string[] = []
  const model = (provider: string | null, name: string | null) => {
    const key = `${provider}\u0000${name}`
    let m = models.get(key)
    if (m === undefined)
      models.set(
        key,
        (m = { provider, model: name, billedAs: new Set(), steps: 0, summaries: 0, tokens: null, cost: zeroMoney(currency) }),
      )
    return m
  }
  const missing = (provider: string | null, name: string | null, reason: string) => {
    const key = `${provider}\u0000${name}\u0000${reason}`
    let u = unpriced.get(key)
    if (u === undefined) unpriced.set(key, (u = { model: name, provider, steps: [], summaries: [], reason }))
    return u
  }
  const noUsage: string[] = []
  for (const s of steps) {
    tokens = addCounts(tokens, s.tokens)
    const m = model(s.provider, s.model)
    m.steps++
    m.tokens = addCounts(m.tokens, s.tokens)
    if (s.billedModel !== null && s.billedModel !== s.model) m.billedAs.add(s.billedModel)
    m.cost = addMoney(m.cost, s.cost)
    stepsCost = addMoney(stepsCost, s.cost)
    let t = turns.get(s.turn)
    if (t === undefined) turns.set(s.turn, (t = { steps: 0, cost: zeroMoney(currency), breakCost: 0 }))
    t.steps++
    t.cost = addMoney(t.cost, s.cost)
    if (s.breakCauses.length > 0) breaks++
    if (s.breakCost !== null) {
      breakCost += s.breakCost
      t.breakCost += s.breakCost
    }
    if (s.tokens === null) noUsage.push(s.label)
    else if (s.cost === null) missing(s.provider, s.model, s.unpriced ?? '').steps.push(s.label)
  }
  for (const s of summaries) {
    tokens = addCounts(tokens, s.tokens)
    const m = model(s.provider, s.model)
    m.summaries++
    m.tokens = addCounts(m.tokens, s.tokens)
    m.cost = addMoney(m.cost, s.cost)
    summariesCost = addMoney(summariesCost, s.cost)
    if (s.turn !== null) {
      const t = turns.get(s.turn)
      if (t !== undefined) t.cost = addMoney(t.cost, s.cost)
    }
    if (s.tokens === null)
      notes.push(`the summary call of compaction ${s.compactionId ?? `at seq ${s.seq}`} logged no usage: not counted`)
    else if (s.cost === null) missing(s.provider, s.model, s.unpriced ?? '').summaries.push(s.seq)
  }
  for (const u of unpriced.values()) notes.push(u.reason)
  if (noUsage.length > 0)
    notes.push(
      `${noUsage.length} step${noUsage.length === 1 ? '' : 's'} logged no usage (${noUsage.slice(0, 5).join(', ')}${noUsage.length > 5 ? ', …' : ''}): no tokens, no cost`,
    )
  const retried = facts.steps.filter((f) => f.retried !== null).length
  if (retried > 0)
    notes.push(
      `${retried} step${retried === 1 ? ' was' : 's were'} retried after an attempt that logged usage: every attempt is counted`,
    )
  if (facts.inherited > 0)
    notes.push(
      `${facts.inherited} call${facts.inherited === 1 ? '' : 's'} in the seed this session copied from its parent: the parent's spend, not counted`,
    )
  for (const date of [...uncovered].sort())
    notes.push(
      `${date} is on no holiday list of the card (it lists ${[...new Set(card.holidays.map((h) => h.year))].join(', ') || 'none'}): priced as a working day`,
    )
  for (const m of models.values())
    for (const as of m.billedAs) notes.push(`${m.model} at ${m.provider} is billed as ${as} from the card's rename`)
  const all = tokens as TokenCounts | null
  return {
    currency,
    rateCard: { version: card.version, checked: card.checked },
    steps,
    summaries,
    compactions: compactions.map((c) => payBack(c, steps, summaries)),
    totals: {
      cost: addMoney(stepsCost, summariesCost),
      stepsCost,
      summariesCost,
      breakCost,
      breaks,
      tokens: all,
      cacheHit: hitShare(all),
      pricedSteps: steps.filter((s) => s.cost !== null).length,
      unpricedSteps: steps.filter((s) => s.cost === null).length,
    },
    byModel: [...models.values()].map((m) => ({ ...m, billedAs: [...m.billedAs].sort() })),
    byTurn: [...turns].map(([turn, t]) => ({ turn, ...t })),
    unpriced: [...unpriced.values()],
    notes,
  }
}
