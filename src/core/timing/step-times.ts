/**
 * The times of each step, gathered while the log is read (LensLog feeds every event and packed row in order): when
 * the request went out, when the first output and the assistant message came, each tool call's dispatch and
 * result, each retry, and the clock's oddities. Only facts are kept here, each with the event index it came from;
 * `step-timing.ts` turns them into durations. It is one of LensLog's indexes (log-indexes.ts): fed while the log is
 * read when its reader keeps `timing`, else built from the stored records the first time it is asked for, over turns
 * that already know where every step ends, then fed as a live log grows. Both ways read the same: a step is found
 * by where it starts and is over once its end is at or before the event read.
 *
 * Which step an event belongs to follows the Request view exactly (`locateStep`, `stepUsage`): a step spans its
 * `step/start` to its `step/end` (or the `turn/end` that closed it); its first output is the first
 * `assistant/chunk`, packed row or `assistant/message` after its start, its message the first `assistant/message`,
 * its usage that of the first `assistant/message` surface node carrying one. A step the log never closes (a crash,
 * or a malformed log where a second `step/start` came first) reaches to the end of the log for those three, as it
 * does there. Tool calls and retries belong to the step started last.
 */

import { isRecord, type LogEvent, type PackedRow } from '../model/log-event.ts'
import type { StepSpan, TurnStructure } from '../projection/turn-structure.ts'

/** One tool call of a step: its `tool/call` and, once it landed, its `tool/result`. */
export interface ToolTimes {
  readonly callId: string
  readonly name: string | null
  readonly callIndex: number
  readonly callTime: number | null
  /** -1 while unanswered. */
  resultIndex: number
  resultTime: number | null
}

/** One `llm/retry` of a step and the wait it scheduled (`delayMs`). */
export interface RetryTimes {
  readonly index: number
  readonly time: number | null
  readonly waitMs: number | null
}

/** The logged usage fields timing reads (null where the usage does not carry them). */
export interface UsageTokens {
  readonly inputTokens: number | null
  readonly outputTokens: number | null
  readonly cacheReadTokens: number | null
  readonly cacheWriteTokens: number | null
}

export interface StepTimes {
  readonly span: StepSpan
  readonly turn: number
  /** Index of the first provider output (-1: none yet). */
  firstOutputIndex: number
  firstOutputTime: number | null
  /** Time of the event right before the first output: the request point's. */
  requestTime: number | null
  /** Index of the step's first `assistant/message` (-1: none yet). */
  messageIndex: number
  messageTime: number | null
  /** Time of the event that closed the step (its `step/end` or `turn/end`). */
  endTime: number | null
  usage: UsageTokens | null
  readonly tools: ToolTimes[]
  readonly retries: RetryTimes[]
}

/** A clock oddity: how often, where first, and (for a backward jump) by how much the first one went back. */
export interface ClockOddity {
  count: number
  firstIndex: number
  firstBackMs: number
}

/** A usable clock reading: a safe integer other than 0 (`time: 0` is what writers put when they had no clock). */
export function clockTime(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value !== 0 ? value : null
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

function usageTokens(usage: Record<string, unknown>): UsageTokens {
  return {
    inputTokens: count(usage['inputTokens']),
    outputTokens: count(usage['outputTokens']),
    cacheReadTokens: count(usage['cacheReadTokens']),
    cacheWriteTokens: count(usage['cacheWriteTokens']),
  }
}

/** The call a `tool/result` answers: `message.source.callId`, as the harness's own stats read it. */
function resultCallId(data: unknown): unknown {
  if (!isRecord(data) || !isRecord(data['message'])) return undefined
  const source = data['message']['source']
  return isRecord(source) ? source['callId'] : undefined
}

/** Whether `span` has ended at or before event `index` (its end may be known ahead, to a tracker built later). */
function endedBy(span: StepSpan, index: number): boolean {
  return span.end !== null && span.end <= index
}

/** The step of `steps` (in log order) that starts at event `index`, if one does. */
function stepStartingAt(steps: readonly StepSpan[], index: number): StepSpan | undefined {
  const last = steps.at(-1)
  if (last === undefined || last.start === index) return last?.start === index ? last : undefined
  let lo = 0
  let hi = steps.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((steps[mid] as StepSpan).start < index) lo = mid + 1
    else hi = mid
  }
  return steps[lo]?.start === index ? steps[lo] : undefined
}

export class StepTimesTracker {
  /** Aligned with the log's steps in log order (`stepSpans`). */
  readonly steps: StepTimes[] = []
  readonly backwards: ClockOddity = { count: 0, firstIndex: -1, firstBackMs: 0 }
  /** Indices of the events whose time is before the previous usable time, ascending (usually none). */
  private readonly backSteps: number[] = []
  readonly zero: ClockOddity = { count: 0, firstIndex: -1, firstBackMs: 0 }
  /** Time of the last event read (null when it had no usable time): the request time of a step whose output is next. */
  lastTime: number | null = null
  /** Steps whose span is still open: each waits for its first output, message and usage (usually one step). */
  private readonly open: StepTimes[] = []
  /** Calls dispatched and not answered yet, by call id; cleared at `turn/end` (a result never lands after its turn). */
  private readonly pending = new Map<string, ToolTimes>()
  /** The last usable time seen, to tell when the clock goes backwards. */
  private clock: number | null = null

  constructor(private readonly turns: TurnStructure) {}

  /** One event (not a packed row); call after `TurnStructure.observe` saw it. `node`: whether it joined the surface. */
  observe(event: LogEvent | null | undefined, index: number, node: boolean): void {
    const time = isRecord(event) ? this.tick(event.time, index) : null
    if (!isRecord(event)) {
      this.lastTime = null
      return
    }
    const data = isRecord(event.data) ? event.data : undefined
    switch (event.type) {
      case 'step/start': {
        // The span TurnStructure opened here, if any (read by position, so a tracker built after the whole log was
        // read, over turns that already know how each step ends, reads the same span).
        const turn = this.turns.turnAt(index)
        const span = turn === undefined ? undefined : stepStartingAt(turn.steps, index)
        if (span !== undefined && turn !== undefined) this.startStep(span, turn.turn)
        break
      }
      case 'assistant/chunk':
        this.output(index, time)
        break
      case 'assistant/message': {
        this.output(index, time)
        const usage = node && data !== undefined && isRecord(data['usage']) ? usageTokens(data['usage']) : null
        for (const step of this.open) {
          if (step.messageIndex < 0) {
            step.messageIndex = index
            step.messageTime = time
          }
          if (usage !== null && step.usage === null) step.usage = usage
        }
        break
      }
      case 'tool/call': {
        const step = this.latestOpen(index)
        const callId = data?.['callId']
        if (step === undefined || typeof callId !== 'string') break
        const name = data?.['name']
        const tool: ToolTimes = {
          callId,
          name: typeof name === 'string' ? name : null,
          callIndex: index,
          callTime: time,
          resultIndex: -1,
          resultTime: null,
        }
        step.tools.push(tool)
        this.pending.set(callId, tool)
        break
      }
      case 'tool/result': {
        const callId = resultCallId(data)
        const tool = typeof callId === 'string' ? this.pending.get(callId) : undefined
        if (tool === undefined) break
        tool.resultIndex = index
        tool.resultTime = time
        this.pending.delete(tool.callId)
        break
      }
      case 'llm/retry': {
        const delay = data?.['delayMs']
        this.latestOpen(index)?.retries.push({
          index,
          time,
          waitMs: typeof delay === 'number' && Number.isFinite(delay) ? delay : null,
        })
        break
      }
      case 'turn/end':
        this.pending.clear()
        break
      default:
        break
    }
    this.closeEnded(index, time)
    this.lastTime = time
  }

  /** A packed chunk row standing for events `index .. index + size - 1`: member k's time is time0 + dt[0..k-1]. */
  observeRow(row: PackedRow, index: number, size: number): void {
    const first = this.tick(row.time0, index)
    this.output(index, first)
    let time = row.time0
    const dt = row.data.dt
    for (let k = 1; k < size; k++) {
      const gap = dt[k - 1] ?? 0
      time += gap
      // The clock at the previous member's reading and a gap forward to a nonzero one: the clock just moves on (a
      // validated row's member times are safe integers). Anything else goes through the checks.
      if (gap >= 0 && time !== 0 && this.clock === time - gap) this.clock = time
      else this.tick(time, index + k)
    }
    this.lastTime = clockTime(time)
  }

  private startStep(span: StepSpan, turn: number): void {
    const step: StepTimes = {
      span,
      turn,
      firstOutputIndex: -1,
      firstOutputTime: null,
      requestTime: null,
      messageIndex: -1,
      messageTime: null,
      endTime: null,
      usage: null,
      tools: [],
      retries: [],
    }
    this.steps.push(step)
    this.open.push(step)
  }

  /** The step started last, while open at event `index`. */
  private latestOpen(index: number): StepTimes | undefined {
    const step = this.steps.at(-1)
    return step !== undefined && !endedBy(step.span, index) ? step : undefined
  }

  private output(index: number, time: number | null): void {
    for (const step of this.open) {
      if (step.firstOutputIndex >= 0) continue
      step.firstOutputIndex = index
      step.firstOutputTime = time
      step.requestTime = this.lastTime
    }
  }

  /** Record the end of the steps this event closed, and stop watching steps that need nothing more. */
  private closeEnded(index: number, time: number | null): void {
    const open = this.open
    if (open.length === 0) return
    const latest = this.steps[this.steps.length - 1]
    // In place: this runs for every event, and there is usually one open step.
    let kept = 0
    for (const step of open) {
      if (step.span.end === index) step.endTime = time
      if (endedBy(step.span, index)) continue
      // A step left open behind a newer one only waits for what it still lacks.
      if (step === latest || step.firstOutputIndex < 0 || step.messageIndex < 0 || step.usage === null) open[kept++] = step
    }
    open.length = kept
  }

  /**
   * Whether the clock went backwards after event `from` and at or before event `to`: a duration between the two is
   * then no duration (a clock stepped back and forth again can make it look like days).
   */
  spansBackStep(from: number, to: number): boolean {
    const steps = this.backSteps
    let lo = 0
    let hi = steps.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((steps[mid] as number) <= from) lo = mid + 1
      else hi = mid
    }
    return lo < steps.length && (steps[lo] as number) <= to
  }

  /** Read one event's time for the clock checks; returns the usable time or null. */
  private tick(value: unknown, index: number): number | null {
    if (value === 0) {
      if (this.zero.count++ === 0) this.zero.firstIndex = index
      return null
    }
    const time = clockTime(value)
    if (time === null) return null
    if (this.clock !== null && time < this.clock) {
      if (this.backwards.count++ === 0) {
        this.backwards.firstIndex = index
        this.backwards.firstBackMs = this.clock - time
      }
      this.backSteps.push(index)
    }
    this.clock = time
    return time
  }
}
