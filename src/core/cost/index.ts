/** What it cost (issue 37): the rate card, the cost facts of a log (loaded, or read line by line), and their price. */

export {
  builtInRateCard,
  parseRateCard,
  applyRatesFile,
  RateCardError,
  RATE_CARD_SCHEMA,
  CURRENCIES,
  type Currency,
  type RateCard,
  type RateRow,
  type Rates,
  type Rename,
  type HolidayYear,
  type PeakWindows,
  type RatesMode,
} from './rate-card.ts'
export { ratesAt, periodAt, billedModelAt, RatePricer, type Period, type PricedAt, type UnpricedAt } from './rates-at.ts'
export { costFactsOfLog, costSourceOfLog, compactionFactsOfLog } from './log-facts.ts'
export { CostDigestCollector, type CostDigestState, type DigestHeader } from './cost-digest.ts'
export {
  buildCostFacts,
  tokenCountsOf,
  addCounts,
  type CostFacts,
  type StepFact,
  type SummaryFact,
  type TokenCounts,
  type BreakCause,
} from './cost-facts.ts'
export { headerFingerprint, prefixChanges, type HeaderFingerprint } from './header-fingerprint.ts'
export {
  sessionCost,
  priceTokens,
  breakCostOf,
  breakTokensOf,
  zeroMoney,
  addMoney,
  type SessionCost,
  type StepCost,
  type SummaryCost,
  type CompactionCost,
  type CompactionFact,
  type ModelCost,
  type TurnCost,
  type CostTotals,
  type Money,
  type UnpricedCalls,
} from './session-cost.ts'
export { logCost } from './log-cost.ts'
export { formatMoney, moneyText, payBackSentence, roundAmount } from './money-text.ts'
export {
  sessionUsage,
  usageReport,
  sessionUsageTotals,
  type SessionUsage,
  type UsageCell,
  type UsageReport,
  type UsageRow,
  type UsageTotals,
  type UsageSession,
  type UsageSessionRow,
  type UsageGrouping,
  type UsageOptions,
} from './usage-report.ts'
