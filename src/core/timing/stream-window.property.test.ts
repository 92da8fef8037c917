/**
 * The stream at the cursor is read from the turns and the type kept per record, not from the step timing (which a
 * load does not build: the viewer asks at every cursor). It must be the timing's: at every event of realistic steps
 * (retries, packed rows, logs cut mid-stream), of steps breaking provider rules and of mutated logs, the streaming
 * step and where its stream starts equal what the step timing gives. A failing run prints its seed; FC_SEED replays it.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { brokenRequestLogArb } from '../../test-support/broken-request-log-arbitrary.ts'
import { mutatedJsonLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes, type TestEvent } from '../../test-support/log-builder.ts'
import { requestLogArb } from '../../test-support/request-log-arbitrary.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { streamSoFar, streamingStepAt } from './stream-so-far.ts'

const checksum = await loadContentChecksum()

/** The window as the step timing gives it (the reading before issue 35): step position and first delta read. */
function fromTiming(log: LensLog, index: number): { position: number; fromIndex: number } | null {
  const steps = log.timing.steps
  let lo = 0
  let hi = steps.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((steps[mid] as (typeof steps)[number]).span.start <= index) lo = mid + 1
    else hi = mid
  }
  const step = steps[lo - 1]
  if (step === undefined || step.firstOutputIndex < 0 || step.firstOutputIndex > index) return null
  if (step.messageIndex >= 0 && index >= step.messageIndex) return null
  if (step.span.end !== null && index >= step.span.end) return null
  const retry = step.retries.filter((r) => r.index <= index).at(-1)
  return { position: lo - 1, fromIndex: Math.max(step.firstOutputIndex, retry === undefined ? -1 : retry.index + 1) }
}

function expectSameWindows(events: readonly unknown[], packed: boolean): void {
  const log = new LensLog({ checksum })
  log.push(toJsonlBytes(packed ? packRecords(events as TestEvent[]) : (events as TestEvent[])))
  log.finish()
  for (let i = 0; i < log.length; i++) {
    const expected = fromTiming(log, i)
    const stream = streamSoFar(log, i)
    expect(streamingStepAt(log, i), `step at ${i}`).toBe(expected?.position ?? -1)
    expect(stream === null ? null : { position: stream.position, fromIndex: stream.fromIndex }, `window at ${i}`).toStrictEqual(
      expected,
    )
  }
}

describe('the stream at an event, from the turns and record types', () => {
  it('equals the step timing on realistic steps, open last steps and retries mid-stream, packed or not', () => {
    fc.assert(
      fc.property(requestLogArb, fc.array(fc.nat(), { maxLength: 4 }), (r, picks) => {
        // Some deltas become an llm/retry of their step: the stream starts over after it.
        const chunks = r.events.flatMap((e, i) => (e['type'] === 'assistant/chunk' ? [i] : []))
        const retried = new Set(chunks.length === 0 ? [] : picks.map((p) => chunks[p % chunks.length] as number))
        const events = r.events.map((e, i) => {
          if (!retried.has(i)) return e
          const data = e['data'] as { turn: number; step: number }
          return { ...e, type: 'llm/retry', data: { turn: data.turn, step: data.step, retry: 1, delayMs: 10 } }
        })
        expectSameWindows(events, r.packed)
      }),
      { numRuns: 300 },
    )
  })

  it('equals it on steps that break provider rules, and on mutated logs', () => {
    fc.assert(
      fc.property(brokenRequestLogArb, (r) => expectSameWindows(r.events, false)),
      { numRuns: 150 },
    )
    fc.assert(
      fc.property(mutatedJsonLogArb, (m) => expectSameWindows(m.events, false)),
      { numRuns: 300 },
    )
  })
})
