/** Two runs side by side (issue 38): where they parted, at the surface, and what the difference cost. */

export {
  compareSessions,
  RunComparison,
  type CompareOptions,
  type ComparedPair,
  type FirstDivergence,
  type PairDetail,
  type PairStep,
  type SessionComparison,
} from './compare-sessions.ts'
export { DIVERGENCE_KINDS, type DivergenceKind } from './divergence-kind.ts'
export type { ForkBlock, ForkVerdict } from './fork-seed.ts'
export type { Lead, MessageMiddle, PairFacts, SidePoint } from './pair-compare.ts'
export type { MessageMark, MessagePairDiff, OutputComparison, RequestComparison } from './request-diff.ts'
export type { PriceStep, RunTotals, StepDelta, StepFigures, StepRoute, ToolCallCount } from './run-totals.ts'
export { IGNORED_SOURCE_FIELDS } from './message-key.ts'
