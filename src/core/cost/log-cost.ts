/**
 * The cost answer of a loaded log: its facts priced with a card, with every compaction's pay-back. Computed when a
 * reader asks (`dsh-lens cost`, a pane's query), never at load; about one parse per step (log-facts.ts).
 */

import type { LensLog } from '../log/lens-log.ts'
import { compactionFactsOfLog, costFactsOfLog } from './log-facts.ts'
import { builtInRateCard, type Currency, type RateCard } from './rate-card.ts'
import { sessionCost, type SessionCost } from './session-cost.ts'

export function logCost(log: LensLog, currency: Currency = 'CNY', card: RateCard = builtInRateCard()): SessionCost {
  return sessionCost(costFactsOfLog(log), card, currency, compactionFactsOfLog(log))
}
