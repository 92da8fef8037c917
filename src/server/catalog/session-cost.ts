/**
 * A listed session's cost (issue 37's sessions home): the calls its own log records, priced in both currencies with
 * the card the server was given, summed as `dsh-lens usage` sums them (`sessionUsage`, `sessionUsageTotals`), so a
 * project's total on the home equals `usage --by project`'s row. Computed once per scan of the log (the digest scan
 * reads the cost facts beside its own digest), never when a list is sent.
 */

import { RatePricer, sessionUsage, sessionUsageTotals, type CostFacts, type RateCard } from '../../core/index.ts'

/** The session's own spending in each currency; null where the card prices none of its calls in that currency. */
export interface SessionCostTotals {
  readonly CNY: number | null
  readonly USD: number | null
}

/** The day a call is counted on does not change a session's total: any day key will do. */
const NO_DAY = (): string => ''

export function sessionCostTotals(facts: CostFacts, card: RateCard): SessionCostTotals {
  const total = (currency: 'CNY' | 'USD'): number | null => {
    const t = sessionUsageTotals(sessionUsage(facts, new RatePricer(card, currency), NO_DAY), currency)
    const priced = t.steps + t.summaries - t.unpricedCalls
    return priced > 0 || t.unpricedCalls === 0 ? t.cost.total : null
  }
  return { CNY: total('CNY'), USD: total('USD') }
}
