/**
 * Where the time went, per step and for the session: the one function `lens timing --json`, the worker's time lanes
 * and the Request view's timing line all read, so they can never disagree.
 *
 * Durations are differences of the events' own `time`s. A duration is null when the log does not say: an end not
 * logged yet (an unanswered call, an open step), a time missing or 0, or the clock went backwards anywhere between
 * its two events (an end before its start, or a step back and forth again). Never a made-up 0. The clock's oddities are reported as warnings beside the figures.
 *
 * Built from the facts `StepTimesTracker` gathered at ingest: O(steps + tool calls), no event is parsed again.
 */

import type { LensLog } from '../log/lens-log.ts'
import type { ClockOddity, StepTimes, UsageTokens } from './step-times.ts'

export interface ToolTiming {
  readonly callId: string
  readonly name: string | null
  /** `tool/result` time − `tool/call` time; null while unanswered. */
  readonly ms: number | null
}

export interface RetryTiming {
  readonly seq: number
  /** The wait the retry scheduled (`llm/retry.data.delayMs`). */
  readonly waitMs: number | null
}

/** One step's timing: the `steps[]` entry of `lens timing --json` (contract in the README). */
export interface StepTimingJson {
  readonly turn: number
  readonly step: number
  /** Where the request was taken, as in the Request view (`lens request`'s `atSeq`). */
  readonly atSeq: number
  /** Time of the event at `atSeq`. */
  readonly requestAt: number | null
  /** Time of the first `assistant/chunk` (or packed row member), or of the `assistant/message` when nothing streamed. */
  readonly firstOutputAt: number | null
  /** Time of the step's `assistant/message`. */
  readonly lastOutputAt: number | null
  readonly ttftMs: number | null
  readonly generationMs: number | null
  /** The step's logged `usage.outputTokens`. */
  readonly outputTokens: number | null
  /** outputTokens per generation second; null when generation took 0 ms or either is unknown. */
  readonly tokensPerSecond: number | null
  /** cacheReadTokens / (inputTokens + cacheReadTokens + cacheWriteTokens): the harness's usage counts are disjoint. */
  readonly cacheHit: number | null
  readonly tools: ToolTiming[]
  readonly retries: RetryTiming[]
}

/** Session totals: the `totals` of `lens timing --json`. */
export interface TimingTotals {
  readonly turns: number
  readonly steps: number
  /** Σ (lastOutputAt − requestAt) over the steps where both are known. */
  readonly modelMs: number | null
  /** Σ of the tools' `ms`. */
  readonly toolMs: number | null
  /** Nearest-rank median and 95th percentile of the steps' `ttftMs`. */
  readonly ttftMedianMs: number | null
  readonly ttftP95Ms: number | null
  /** Σ outputTokens / Σ generation seconds, over the steps that have a `tokensPerSecond`. */
  readonly tokensPerSecond: number | null
  /** Σ cacheReadTokens / Σ (input + cacheRead + cacheWrite), over the steps that have a `cacheHit`. */
  readonly cacheHit: number | null
  /** Σ of each logged usage field over the steps that logged one; null when no step logged it. */
  readonly inputTokens: number | null
  readonly outputTokens: number | null
  readonly cacheReadTokens: number | null
  readonly cacheWriteTokens: number | null
  readonly retries: number
  /** Σ of the retries' `waitMs`. */
  readonly retryWaitMs: number | null
}

export interface TimingWarning {
  readonly code: 'clock-backwards' | 'clock-zero'
  /** The first event it happened at. */
  readonly seq: number
  readonly count: number
  readonly message: string
}

export interface TimingJson {
  readonly steps: StepTimingJson[]
  readonly totals: TimingTotals
  readonly warnings: TimingWarning[]
}

/** One step's timing with the event indices behind it: what the worker's time lanes are drawn from. */
export interface StepTiming {
  readonly json: StepTimingJson
  /** From the request point to the message (the totals' model time); null as for the durations in `json`. */
  readonly modelMs: number | null
  readonly atIndex: number
  /** Index of the first output, -1 without one. */
  readonly firstOutputIndex: number
  /** Index of the step's `assistant/message`, -1 without one. */
  readonly messageIndex: number
  /** `step/start` and end (null while open) indices. */
  readonly startIndex: number
  readonly endIndex: number | null
  /** Time of the event that closed the step. */
  readonly endAt: number | null
  readonly tools: readonly {
    readonly callIndex: number
    readonly resultIndex: number
    readonly callAt: number | null
    readonly resultAt: number | null
  }[]
  readonly retries: readonly { readonly index: number; readonly at: number | null }[]
  /** The logged usage fields the totals add up. */
  readonly usage: UsageTokens | null
}

/** `end − start` when both are known and the end is not before the start. */
export function elapsed(start: number | null, end: number | null): number | null {
  return start === null || end === null || end < start ? null : end - start
}

/** `elapsed`, and null when the clock stepped back between events `from` and `to` (indices; -1: not logged). */
function durationBetween(log: LensLog, from: number, to: number, start: number | null, end: number | null): number | null {
  return from >= 0 && to >= 0 && log.timing.spansBackStep(from, to) ? null : elapsed(start, end)
}

function seqAt(log: LensLog, index: number): number {
  // A valid log's seqs are its indices: no record parsed again (a 1.3M-event log has thousands of steps).
  if (log.seqIsIndex) return index
  const seq = log.seqOf(index)
  return typeof seq === 'number' ? seq : index
}

function cacheHitOf(usage: UsageTokens | null): number | null {
  if (usage === null || usage.cacheReadTokens === null) return null
  const billed = (usage.inputTokens ?? 0) + usage.cacheReadTokens + (usage.cacheWriteTokens ?? 0)
  return billed > 0 ? usage.cacheReadTokens / billed : null
}

function stepTiming(log: LensLog, times: StepTimes): StepTiming {
  const span = times.span
  const streamed = times.firstOutputIndex >= 0
  const atIndex = streamed ? times.firstOutputIndex - 1 : (span.end ?? log.length - 1)
  // The request point's time: the event before the first output (known at ingest), the step's end, or (a step
  // still open without output) the last event so far.
  const requestAt = streamed ? times.requestTime : span.end !== null ? times.endTime : log.timing.lastTime
  const firstOutputAt = times.firstOutputTime
  const lastOutputAt = times.messageTime
  const generationMs = durationBetween(log, times.firstOutputIndex, times.messageIndex, firstOutputAt, lastOutputAt)
  const outputTokens = times.usage?.outputTokens ?? null
  const json: StepTimingJson = {
    turn: times.turn,
    step: span.step,
    atSeq: seqAt(log, atIndex),
    requestAt,
    firstOutputAt,
    lastOutputAt,
    ttftMs: durationBetween(log, atIndex, times.firstOutputIndex, requestAt, firstOutputAt),
    generationMs,
    outputTokens,
    tokensPerSecond:
      outputTokens === null || generationMs === null || generationMs === 0 ? null : outputTokens / (generationMs / 1000),
    cacheHit: cacheHitOf(times.usage),
    tools: times.tools.map((t) => ({
      callId: t.callId,
      name: t.name,
      ms: durationBetween(log, t.callIndex, t.resultIndex, t.callTime, t.resultTime),
    })),
    retries: times.retries.map((r) => ({ seq: seqAt(log, r.index), waitMs: r.waitMs })),
  }
  return {
    json,
    modelMs: durationBetween(log, atIndex, times.messageIndex, requestAt, lastOutputAt),
    atIndex,
    firstOutputIndex: times.firstOutputIndex,
    messageIndex: times.messageIndex,
    startIndex: span.start,
    endIndex: span.end,
    endAt: times.endTime,
    tools: times.tools.map((t) => ({
      callIndex: t.callIndex,
      resultIndex: t.resultIndex,
      callAt: t.callTime,
      resultAt: t.resultTime,
    })),
    retries: times.retries.map((r) => ({ index: r.index, at: r.time })),
    usage: times.usage,
  }
}

/** The timing of step `position` (log order), or undefined when there is no such step. */
export function stepTimingAt(log: LensLog, position: number): StepTiming | undefined {
  const times = log.timing.steps[position]
  return times === undefined ? undefined : stepTiming(log, times)
}

/** Every step of the log so far, in log order (the Request view's steps), with its timing. */
export function stepTimings(log: LensLog): StepTiming[] {
  return log.timing.steps.map((times) => stepTiming(log, times))
}

/** Nearest-rank percentile (`p` in 0..1] of values sorted ascending. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number
}

/** A sum over the known values, or null when none is known. */
function sumKnown(values: Iterable<number | null>): number | null {
  let sum: number | null = null
  for (const v of values) if (v !== null) sum = (sum ?? 0) + v
  return sum
}

export function timingTotals(timings: readonly StepTiming[]): TimingTotals {
  const steps = timings.map((t) => t.json)
  const usages = timings.map((t) => t.usage)
  const ttfts = steps.flatMap((s) => (s.ttftMs === null ? [] : [s.ttftMs])).sort((a, b) => a - b)
  let rateTokens = 0
  let rateMs = 0
  for (const s of steps) {
    if (s.tokensPerSecond === null) continue
    rateTokens += s.outputTokens as number
    rateMs += s.generationMs as number
  }
  let cacheRead = 0
  let billed = 0
  for (const [i, s] of steps.entries()) {
    const usage = usages[i]
    if (s.cacheHit === null || usage == null) continue
    cacheRead += usage.cacheReadTokens as number
    billed += (usage.inputTokens ?? 0) + (usage.cacheReadTokens as number) + (usage.cacheWriteTokens ?? 0)
  }
  const field = (key: keyof UsageTokens) => sumKnown(usages.map((u) => u?.[key] ?? null))
  return {
    turns: new Set(steps.map((s) => s.turn)).size,
    steps: steps.length,
    modelMs: sumKnown(timings.map((t) => t.modelMs)),
    toolMs: sumKnown(steps.flatMap((s) => s.tools.map((t) => t.ms))),
    ttftMedianMs: nearestRank(ttfts, 0.5),
    ttftP95Ms: nearestRank(ttfts, 0.95),
    tokensPerSecond: rateMs > 0 ? rateTokens / (rateMs / 1000) : null,
    cacheHit: billed > 0 ? cacheRead / billed : null,
    inputTokens: field('inputTokens'),
    outputTokens: field('outputTokens'),
    cacheReadTokens: field('cacheReadTokens'),
    cacheWriteTokens: field('cacheWriteTokens'),
    retries: steps.reduce((n, s) => n + s.retries.length, 0),
    retryWaitMs: sumKnown(steps.flatMap((s) => s.retries.map((r) => r.waitMs))),
  }
}

function clockWarnings(log: LensLog): TimingWarning[] {
  const out: TimingWarning[] = []
  const { backwards, zero } = log.timing
  const where = (oddity: ClockOddity) => seqAt(log, oddity.firstIndex)
  if (backwards.count > 0)
    out.push({
      code: 'clock-backwards',
      seq: where(backwards),
      count: backwards.count,
      message: `the clock goes backwards ${backwards.count === 1 ? 'once' : `${backwards.count} times`}, first at seq ${where(backwards)} (by ${backwards.firstBackMs} ms): durations that span a backward step are left out`,
    })
  if (zero.count > 0)
    out.push({
      code: 'clock-zero',
      seq: where(zero),
      count: zero.count,
      message: `${zero.count === 1 ? 'one event has' : `${zero.count} events have`} time 0 (no clock reading), first at seq ${where(zero)}: durations from or to them are left out`,
    })
  return out
}

/** Every step's timing with its event indices, the totals and the clock warnings: what the time lanes are built from. */
export function timingParts(log: LensLog): { timings: StepTiming[]; totals: TimingTotals; warnings: TimingWarning[] } {
  const timings = stepTimings(log)
  return { timings, totals: timingTotals(timings), warnings: clockWarnings(log) }
}

/** `lens timing --json`: every step's timing, the session totals and the clock warnings. */
export function timingJson(log: LensLog): TimingJson {
  const { timings, totals, warnings } = timingParts(log)
  return { steps: timings.map((t) => t.json), totals, warnings }
}
