/**
 * The Time mode's and the replay's answers over the open log: the time lanes (built once per log state and kept:
 * a loaded log asks once, a live one again only after it grew), the replay's event times, and the stream a step had
 * sent at the cursor (continued from the previous answer while the replay moves forward through a step).
 */

import { eventTimes, stepTimingAt, streamSoFar, timingParts, type LensLog, type StreamSoFar } from '../core/index.ts'
import type { EventTimesAnswer, StreamPreview, TimeLanesAnswer, TimeStepInfo } from '../protocol/time-lanes.ts'
import { stepInfo, timeLanes } from './time-lanes.ts'

/** Characters of streamed text and reasoning a preview carries (the end: what was streamed last). */
export const STREAM_PREVIEW_CHARS = 4000

const tail = (text: string): { text: string; cut: number } =>
  text.length <= STREAM_PREVIEW_CHARS
    ? { text, cut: 0 }
    : { text: text.slice(-STREAM_PREVIEW_CHARS), cut: text.length - STREAM_PREVIEW_CHARS }

export class TimeQueries {
  private lanes: { log: LensLog; length: number; answer: TimeLanesAnswer } | null = null
  private stream: { log: LensLog; last: StreamSoFar } | null = null

  /** The lanes for the log as it is now. The answer is kept and sent again, so its buffers are copied, never moved. */
  timeLanes(log: LensLog): TimeLanesAnswer {
    const cached = this.lanes
    if (cached !== null && cached.log === log && cached.length === log.length) return cached.answer
    const { timings, totals, warnings } = timingParts(log)
    const built = timeLanes(timings, totals, warnings)
    this.lanes = { log, length: log.length, answer: built.answer }
    return built.answer
  }

  /** The hover line's figures of step `position` (log order), or null. */
  timeStep(log: LensLog, position: number): TimeStepInfo | null {
    const step = stepTimingAt(log, Math.trunc(position))
    return step === undefined ? null : stepInfo(step)
  }

  /** A fresh array per answer: the host moves its buffer. */
  eventTimes(log: LensLog, from: number, count: number, transfer: Transferable[]): EventTimesAnswer {
    const times = eventTimes(log, from, count)
    transfer.push(times.buffer)
    return { from: Math.max(0, Math.trunc(from)), times }
  }

  streamSoFar(log: LensLog, index: number): StreamPreview | null {
    const resume = this.stream?.log === log ? this.stream.last : null
    const now = streamSoFar(log, index, resume !== null && resume.index <= index ? resume : null)
    if (now === null) return null
    this.stream = { log, last: now }
    const text = tail(now.text)
    const reasoning = tail(now.reasoning)
    return {
      turn: now.turn,
      step: now.step,
      index: now.index,
      text: text.text,
      reasoning: reasoning.text,
      toolCalls: now.toolCalls.map((c) => ({
        name: c.name,
        args: c.args.length > STREAM_PREVIEW_CHARS ? c.args.slice(-STREAM_PREVIEW_CHARS) : c.args,
      })),
      deltas: now.deltas,
      cutText: text.cut,
      cutReasoning: reasoning.cut,
    }
  }
}
