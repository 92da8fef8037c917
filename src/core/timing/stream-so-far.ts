/**
 * What the model had streamed of a step when event `index` was written: the text, reasoning and tool-call
 * arguments of its deltas from the step's first output up to that event, before the step's `assistant/message`
 * gathers them. The replay shows it in the transcript as it grew. A retry starts the stream over (the harness
 * discards a failed attempt's output), so deltas before the step's last `llm/retry` at or before `index` are not
 * part of it.
 */

import { isRecord } from '../model/log-event.ts'
import type { LensLog } from '../log/lens-log.ts'
import type { StepSpan } from '../projection/turn-structure.ts'

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

/** A step as the turns hold it (the step timing's steps, in the same order), with its log-order position. */
interface LocatedStep {
  readonly position: number
  readonly turn: number
  readonly span: StepSpan
}

/** Steps before each turn, per log: positions without walking every turn at every ask (the replay asks each frame). */
const stepsBefore = new WeakMap<LensLog, { turns: number; lastSteps: number; counts: number[] }>()

function stepsBeforeTurn(log: LensLog, turn: number): number {
  const turns = log.turns.turns
  let cached = stepsBefore.get(log)
  const lastSteps = turns.at(-1)?.steps.length ?? 0
  if (cached === undefined || cached.turns !== turns.length || cached.lastSteps !== lastSteps) {
    const counts: number[] = []
    let sum = 0
    for (const t of turns) {
      counts.push(sum)
      sum += t.steps.length
    }
    cached = { turns: turns.length, lastSteps, counts }
    stepsBefore.set(log, cached)
  }
  return cached.counts[turn] as number
}

/** The step started last at or before event `index` (as the step timing would have it), if any. */
function stepStartedBy(log: LensLog, index: number): LocatedStep | undefined {
  const turns = log.turns
  for (let t = turns.starts.countAtMost(index) - 1; t >= 0; t--) {
    const turn = turns.turns[t]
    if (turn === undefined) break
    let lo = 0
    let hi = turn.steps.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((turn.steps[mid] as StepSpan).start <= index) lo = mid + 1
      else hi = mid
    }
    if (lo > 0) return { position: stepsBeforeTurn(log, t) + lo - 1, turn: turn.turn, span: turn.steps[lo - 1] as StepSpan }
  }
  return undefined
}

/** Where the stream of a step runs up to event `index`: its first output and its last retry so far, or null. */
interface StreamWindow {
  readonly step: LocatedStep
  readonly firstOutput: number
  readonly lastRetry: number
}

/**
 * The step streaming at `index` and where its stream starts: after the step's first output (a delta or its message),
 * before its `assistant/message` and its end, read from the turns and the type of each event (no event is parsed,
 * and no step timing is needed: the viewer asks at every cursor, while the log loads too). The same window the step
 * timing gives (its first output, and the retries it gives the step: llm/retry events after its start, while it is
 * the step started last and still open).
 */
function streamWindow(log: LensLog, index: number): StreamWindow | null {
  const step = stepStartedBy(log, index)
  if (step === undefined) return null
  const span = step.span
  if (span.end !== null && index >= span.end) return null
  let firstOutput = -1
  let lastRetry = -1
  for (let i = span.start + 1; i <= index;) {
    const type = log.typeOf(i)
    if (type === 'assistant/message') return null
    if (type === 'assistant/chunk') {
      if (firstOutput < 0) firstOutput = i
      // A packed row is deltas only: past it in one step.
      i = log.recordEnd(i)
      continue
    }
    if (type === 'llm/retry') lastRetry = i
    i++
  }
  return firstOutput < 0 ? null : { step, firstOutput, lastRetry }
}

/** The step streaming at `index`: after its first output, before its message and its end; -1 when none. */
export function streamingStepAt(log: LensLog, index: number): number {
  return streamWindow(log, index)?.step.position ?? -1
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
  const window = streamWindow(log, index)
  if (window === null) return null
  const { step, firstOutput, lastRetry } = window
  const position = step.position
  const fromIndex = Math.max(firstOutput, lastRetry + 1)
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
    turn: step.turn,
    step: step.span.step,
    fromIndex,
    index,
    text: acc.text,
    reasoning: acc.reasoning,
    toolCalls: [...acc.calls.values()],
    deltas: acc.deltas,
  }
}
