/**
 * `LensLog.seqIsIndex`, kept at ingest, must say exactly what asking `seqOf` of every event would: the UI maps seqs
 * to events without a round trip only when it is true, and the worker no longer re-parses the log to find out.
 * Real fixtures, mutated logs (seq gaps, duplicates, junk seqs, dropped events, packed rows) and a legacy log.
 * A failing run prints its seed; FC_SEED replays it (src/test-support/fast-check-setup.ts).
 */

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mutatedJsonLogArb, validLogArb } from '../../test-support/log-arbitrary.ts'
import { LogBuilder, packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { LensLog } from './lens-log.ts'

const fold = (bytes: Uint8Array, chunk = Infinity): LensLog => {
  const log = new LensLog()
  for (let at = 0; at < bytes.length; at += chunk) log.push(bytes.subarray(at, at + chunk))
  log.finish()
  return log
}

/** What the worker computed before: `seqOf` of every event, in order. */
const askedEveryEvent = (log: LensLog): boolean => {
  for (let i = 0; i < log.length; i++) if (log.seqOf(i) !== i) return false
  return true
}

describe('LensLog.seqIsIndex', () => {
  it('is true for a generated log whose seqs count from 0, packed rows included', () => {
    const b = new LogBuilder()
    b.apply({ kind: 'user', text: 'hello' })
    b.apply({ kind: 'assistant', text: 'hi', chunks: 5, reasoning: false })
    b.apply({ kind: 'compact', from: 0, length: 1 })
    const log = fold(toJsonlBytes(packRecords(b.events)))
    expect(log.length).toBeGreaterThan(5)
    expect(log.seqIsIndex).toBe(true)
    expect(askedEveryEvent(log)).toBe(true)
  })

  it('turns false at the first event whose seq is not its index, and stays false', () => {
    const b = new LogBuilder()
    b.apply({ kind: 'user', text: 'one' })
    b.apply({ kind: 'user', text: 'two' })
    const events = b.events.map((e, i) => (i === 1 ? { ...e, seq: 7 } : e))
    const log = new LensLog()
    const bytes = toJsonlBytes(events)
    const firstLineEnd = bytes.indexOf(10) + 1
    const secondLineEnd = bytes.indexOf(10, firstLineEnd) + 1
    log.push(bytes.subarray(0, secondLineEnd))
    expect(log.seqIsIndex).toBe(true)
    log.push(bytes.subarray(secondLineEnd))
    log.finish()
    expect(log.seqIsIndex).toBe(false)
    expect(askedEveryEvent(log)).toBe(false)
  })

  it('agrees with seqOf on every event of random valid and mutated logs, in any chunking', () => {
    fc.assert(
      fc.property(
        // Packed rows only from valid logs: packRecords reads every event's type, and a mutation may leave junk.
        fc.oneof(
          fc.tuple(validLogArb, fc.boolean()),
          mutatedJsonLogArb.map((m) => [m.events, false] as const),
        ),
        fc.integer({ min: 1, max: 300 }),
        ([events, packed], chunk) => {
          const log = fold(toJsonlBytes(packed ? packRecords(events) : events), chunk)
          expect(log.seqIsIndex).toBe(askedEveryEvent(log))
        },
      ),
      { numRuns: 150 },
    )
  })

  it.runIf(fixturesAvailable())("agrees with seqOf on every one of the harness's fixtures", () => {
    const fixtures = listFixtures()
    expect(fixtures.length).toBeGreaterThan(50)
    let notIndex = 0
    for (const fixture of fixtures) {
      const log = fold(new Uint8Array(readFileSync(fixture.path)))
      expect(log.seqIsIndex, fixture.name).toBe(askedEveryEvent(log))
      if (!log.seqIsIndex) notIndex++
    }
    // Not vacuous: the fixtures hold both kinds.
    expect(notIndex).toBeLessThan(fixtures.length)
  })
})
