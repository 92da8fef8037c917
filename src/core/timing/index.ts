/** Where the time went (issue 30): per-step model and tool times, session totals, clock warnings. */

export { StepTimesTracker, clockTime, type StepTimes, type ToolTimes, type RetryTimes, type UsageTokens } from './step-times.ts'
export {
  stepTimings,
  stepTimingAt,
  timingJson,
  timingParts,
  timingTotals,
  elapsed,
  nearestRank,
  type StepTiming,
  type StepTimingJson,
  type TimingJson,
  type TimingTotals,
  type TimingWarning,
  type ToolTiming,
  type RetryTiming,
} from './step-timing.ts'
export { eventTimes, EVENT_TIMES_MAX } from './event-times.ts'
export { streamSoFar, streamingStepAt, type StreamSoFar } from './stream-so-far.ts'
