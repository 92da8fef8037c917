/**
 * What the model had streamed of a step when event `index` was written: the text, reasoning and tool-call
 * arguments of its deltas from the step's first output up to that event, before the step's `assistant/message`
 * gathers them. The replay shows it in the transcript as it grew. A retry starts the stream over (the harness
 * discards a failed attempt's output), so deltas before the step's last `llm/retry` at or before `index` are not
 * part of it.
 */

import { isRecord } from '../model/log-event.ts'
import type { LensLog } from '../log/lens-log.ts'
import type { StepTimes } from './step-times.ts'

export interface StreamSoFar {
  /** Step position (log order). */
  readonly position: number
  readonly turn: number
  readonly step: number
  /** The first delta read and the event read up to (inclusive). */
  readonly fromIndex: number
  readonly index: number
  readonly text: string
  readonly reasoning: string
  /** By block index (`index` of the deltas), in the order they started. */
  readonly toolCalls: readonly {
    readonly index: number
    readonly id: string
    readonly name: string | null
    readonly args: string
  }[]
  /** Delta events read. */
  readonly deltas: number
}

/** The step streaming at `index`: after its first output, before its message and its end; -1 when none. */
export function streamingStepAt(log: LensLog, index: number): number {
  const steps = log.timing.steps
  let lo = 0
  let hi = steps.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((steps[mid] as StepTimes).span.start <= index) lo = mid + 1
    else hi = mid
  }
  const step = steps[lo - 1]
  if (step === undefined || step.firstOutputIndex < 0 || step.firstOutputIndex > index) return -1
  if (step.messageIndex >= 0 && index >= step.messageIndex) return -1
  if (step.span.end !== null && index >= step.span.end) return -1
  return lo - 1
}

interface Accumulator {
  text: string
  reasoning: string
  calls: Map<number, { index: number; id: string; name: string | null; args: string }>
  deltas: number
}

function addDelta(acc: Accumulator, chunk: Record<string, unknown>): void {
  const type = chunk['type']
  if (type === 'text-delta' && typeof chunk['text'] === 'string') acc.text += chunk['text']
  else if (type === 'reasoning-delta' && typeof chunk['text'] === 'string') acc.reasoning += chunk['text']
  else if (type === 'tool-call-delta') {
    const key = typeof chunk['index'] === 'number' ? chunk['index'] : -1
    const call = acc.calls.get(key) ?? {
      index: key,
      id: typeof chunk['id'] === 'string' ? chunk['id'] : '',
      name: null,
      args: '',
    }
    if (typeof chunk['name'] === 'string') call.name = chunk['name']
    if (typeof chunk['argumentsDelta'] === 'string') call.args += chunk['argumentsDelta']
    acc.calls.set(key, call)
  } else return
  acc.deltas++
}

/**
 * The stream of the step at `index` (null when no step is streaming there). `resume`: an earlier answer for the same
 * step at or before `index`, continued from instead of read again (the replay asks at every frame).
 */
export function streamSoFar(log: LensLog, index: number, resume?: StreamSoFar | null): StreamSoFar | null {
  const position = streamingStepAt(log, index)
  if (position < 0) return null
  const times = log.timing.steps[position] as StepTimes
  const retry = times.retries.filter((r) => r.index <= index).at(-1)
  const fromIndex = Math.max(times.firstOutputIndex, retry === undefined ? -1 : retry.index + 1)
  const carry = resume != null && resume.position === position && resume.fromIndex === fromIndex && resume.index <= index
  const acc: Accumulator = {
    text: carry ? resume.text : '',
    reasoning: carry ? resume.reasoning : '',
    calls: new Map(carry ? resume.toolCalls.map((c) => [c.index, { ...c }]) : []),
    deltas: carry ? resume.deltas : 0,
  }
  let i = carry ? resume.index + 1 : fromIndex
  while (i <= index) {
    const packed = log.packedRowAt(i)
    if (packed !== null) {
      const { row, firstIndex, members } = packed
      const last = Math.min(index, firstIndex + members - 1)
      for (let k = i - firstIndex; k <= last - firstIndex; k++) {
        const member = (row.type === 'tool-call-chunks' ? row.data.args : row.data.texts)?.[k] ?? ''
        if (row.type === 'text-chunks') addDelta(acc, { type: 'text-delta', text: member })
        else if (row.type === 'reasoning-chunks') addDelta(acc, { type: 'reasoning-delta', text: member })
        else
          addDelta(acc, {
            type: 'tool-call-delta',
            index: row.data.index,
            id: row.data.id,
            name: row.data.name,
            argumentsDelta: member,
          })
      }
      i = last + 1
      continue
    }
    const event = log.event(i)
    const data = isRecord(event?.data) ? event.data : undefined
    if (event?.type === 'assistant/chunk' && isRecord(data?.['chunk'])) addDelta(acc, data['chunk'])
    i++
  }
  return {
    position,
    turn: times.turn,
    step: times.span.step,
    fromIndex,
    index,
    text: acc.text,
    reasoning: acc.reasoning,
    toolCalls: [...acc.calls.values()],
    deltas: acc.deltas,
  }
}
