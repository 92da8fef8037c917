/**
 * What the replay reads: each event's time (packed members from time0 and their dt's) for any window, and what a
 * step had streamed at each event, against a direct reading of the expanded events; resuming a stream read from an
 * earlier answer gives the same as reading it afresh.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { eventsOfJsonl, expandGeneratedSession } from '../../test-support/expanded-events.ts'
import { toJsonlBytes } from '../../test-support/log-builder.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { generateSession, presetOptions, toJsonl } from '../../generate/index.ts'
import { LensLog } from '../log/lens-log.ts'
import { EVENT_TIMES_MAX, eventTimes } from './event-times.ts'
import { streamSoFar, type StreamSoFar } from './stream-so-far.ts'
import { stepTimings } from './step-timing.ts'

const checksum = await loadContentChecksum()

function load(bytes: Uint8Array): LensLog {
  const log = new LensLog({ checksum })
  log.push(bytes)
  log.finish()
  return log
}

type Event = { type?: unknown; time?: unknown; data?: { chunk?: Record<string, unknown> } }
const directTime = (e: unknown): number => {
  const t = (e as Event | null)?.time
  return typeof t === 'number' && Number.isSafeInteger(t) && t !== 0 ? t : Number.NaN
}

const session = generateSession({ ...presetOptions('demo', 9), retryEverySteps: 2, clockJumpEveryTurns: 2, parallelTools: true })
const events = expandGeneratedSession(session) as unknown[]
const log = load(new TextEncoder().encode(toJsonl(session)))

describe('eventTimes', () => {
  it('equals each expanded event time, for windows cut anywhere (inside rows too)', () => {
    const all = Array.from(eventTimes(log, 0, log.length))
    expect(all).toStrictEqual(events.map(directTime))
    for (const [from, count] of [
      [17, 5],
      [100, 333],
      [log.length - 3, 10],
      [-5, 8],
    ] as const)
      expect(Array.from(eventTimes(log, from, count))).toStrictEqual(
        events.slice(Math.max(0, from), Math.max(0, from) + count).map(directTime),
      )
    expect(eventTimes(log, 0, 10 * EVENT_TIMES_MAX).length).toBe(Math.min(log.length, EVENT_TIMES_MAX))
  })

  it.runIf(fixturesAvailable())('on every fixture', () => {
    for (const f of listFixtures()) {
      const bytes = readFileSync(f.path)
      expect(Array.from(eventTimes(load(bytes), 0, EVENT_TIMES_MAX))).toStrictEqual(
        eventsOfJsonl(bytes.toString('utf8')).map(directTime),
      )
    }
  })
})

/** The stream at `index`, read directly: the deltas from the step's first output (or after its last retry) to it. */
function directStream(index: number): (Pick<StreamSoFar, 'text' | 'reasoning' | 'deltas'> & { args: string[] }) | null {
  const step = stepTimings(log)
    .filter((s) => s.startIndex <= index)
    .at(-1)
  if (step === undefined || step.firstOutputIndex < 0 || index < step.firstOutputIndex) return null
  if ((step.messageIndex >= 0 && index >= step.messageIndex) || (step.endIndex !== null && index >= step.endIndex)) return null
  let from = step.firstOutputIndex
  for (let i = from; i <= index; i++) if ((events[i] as Event).type === 'llm/retry') from = i + 1
  const out = { text: '', reasoning: '', deltas: 0, args: new Map<unknown, string>() }
  for (let i = from; i <= index; i++) {
    const chunk = (events[i] as Event).data?.chunk
    if ((events[i] as Event).type !== 'assistant/chunk' || chunk === undefined) continue
    if (chunk['type'] === 'text-delta') out.text += chunk['text'] as string
    else if (chunk['type'] === 'reasoning-delta') out.reasoning += chunk['text'] as string
    else if (chunk['type'] === 'tool-call-delta')
      out.args.set(chunk['index'], (out.args.get(chunk['index']) ?? '') + (chunk['argumentsDelta'] as string))
    else continue
    out.deltas++
  }
  return { text: out.text, reasoning: out.reasoning, deltas: out.deltas, args: [...out.args.values()] }
}

describe('streamSoFar', () => {
  it('at every event: the deltas streamed so far in the step, nothing outside a stream; resumed reads agree', () => {
    let previous: StreamSoFar | null = null
    let streaming = 0
    for (let i = 0; i < log.length; i++) {
      const fresh = streamSoFar(log, i)
      const direct = directStream(i)
      if (direct === null) expect(fresh).toBeNull()
      else {
        streaming++
        expect({
          text: fresh?.text,
          reasoning: fresh?.reasoning,
          deltas: fresh?.deltas,
          args: fresh?.toolCalls.map((c) => c.args),
        }).toStrictEqual(direct)
      }
      expect(streamSoFar(log, i, previous)).toStrictEqual(fresh)
      previous = fresh ?? previous
    }
    expect(streaming).toBeGreaterThan(log.length / 2)
  })
})

describe('streamSoFar after a retry', () => {
  it('starts over: a failed attempt streamed part of an answer, the retry streams the whole', () => {
    const delta = (seq: number, text: string) => ({
      type: 'assistant/chunk',
      seq,
      time: 1000 + seq,
      data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text } },
    })
    const retried = load(
      toJsonlBytes([
        { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
        { type: 'step/start', seq: 1, time: 1001, data: { turn: 1, step: 1 } },
        delta(2, 'Hel'),
        delta(3, 'lo wor'),
        {
          type: 'assistant/chunk',
          seq: 4,
          time: 1004,
          data: { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'error' } } },
        },
        { type: 'llm/retry', seq: 5, time: 1005, data: { retryId: 'r', turn: 1, step: 1, retry: 1, delayMs: 10 } },
        delta(6, 'Hello '),
        delta(7, 'world'),
      ]),
    )
    expect(streamSoFar(retried, 3)?.text).toBe('Hello wor')
    expect(streamSoFar(retried, 7)?.text).toBe('Hello world')
    expect(streamSoFar(retried, 7, streamSoFar(retried, 3))?.text).toBe('Hello world')
  })
})
