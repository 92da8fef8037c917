/**
 * Timing on logs with realistic steps (requestLogArb: streams, bare messages, max-tokens and error outputs,
 * retries, compactions between chunks, tool pairs, turn boundaries, a last step still open) whose clocks are then
 * bent: some times set to 0, some stepped back or leapt forward. Read through JSONL bytes, packed half the time, and
 * pushed in two slices, timing must equal the direct reading of the expanded events' times, with the Request view's
 * steps. A failing run prints its seed; FC_SEED replays it.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { packRecords, toJsonlBytes, type TestEvent } from '../../test-support/log-builder.ts'
import { requestLogArb } from '../../test-support/request-log-arbitrary.ts'
import { directTiming } from '../../test-support/timing-oracle.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { stepList } from '../request/step-request.ts'
import { LensLog } from '../log/lens-log.ts'
import { timingJson } from './step-timing.ts'

const checksum = await loadContentChecksum()

/** What happens to one event's clock reading: kept, 0, or the clock shifted from there on by `ms`. */
const clockEdit = fc.oneof(
  { weight: 12, arbitrary: fc.constant<'keep'>('keep') },
  { weight: 1, arbitrary: fc.constant<'zero'>('zero') },
  { weight: 2, arbitrary: fc.integer({ min: -5_000, max: 90_000 }) },
)

function bend(events: readonly TestEvent[], edits: readonly ('keep' | 'zero' | number)[]): TestEvent[] {
  let shift = 0
  return events.map((event, i) => {
    const edit = edits[i % Math.max(1, edits.length)] ?? 'keep'
    if (typeof edit === 'number') shift += edit
    const time = edit === 'zero' ? 0 : (event['time'] as number) + shift
    return { ...event, time }
  })
}

describe('timing on generated realistic steps with bent clocks', () => {
  it('equals the direct reading of the expanded events', () => {
    fc.assert(
      fc.property(requestLogArb, fc.array(clockEdit, { minLength: 1, maxLength: 64 }), (r, edits) => {
        const events = bend(r.events, edits)
        const bytes = toJsonlBytes(r.packed ? packRecords(events) : events)
        const cut = Math.floor(r.cut * bytes.length)
        const log = new LensLog({ checksum })
        log.push(bytes.subarray(0, cut))
        log.push(bytes.subarray(cut))
        log.finish()
        const steps = stepList(log)
        const timing = timingJson(log)
        expect(timing).toStrictEqual(
          directTiming(
            events,
            steps.map((s) => s.usage),
          ),
        )
        expect(timing.steps.map((s) => s.atSeq)).toStrictEqual(steps.map((s) => s.atSeq))
      }),
      { numRuns: 400 },
    )
  })
})
