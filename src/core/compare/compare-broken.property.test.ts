/**
 * Comparing logs that are broken in every way the fuzz arbitraries break them (events dropped, duplicated, replaced by
 * junk; seqs, types, data and surface ops mangled: `mutatedJsonLogArb`) never throws, a broken log compared with itself
 * is equal, and any two of them compare the same way both ways round. A failing run prints its seed; FC_SEED replays it.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { comparable, mirrored } from '../../test-support/compare-kit.ts'
import { mutatedJsonLogArb, validLogArb } from '../../test-support/log-arbitrary.ts'
import { toJsonlBytes } from '../../test-support/log-builder.ts'
import { LensLog } from '../log/lens-log.ts'
import { compareSessions } from './compare-sessions.ts'

function load(events: readonly unknown[]): LensLog {
  const log = new LensLog()
  log.push(toJsonlBytes(events))
  log.finish()
  return log
}

const logArb = fc.oneof(
  mutatedJsonLogArb.map((m) => m.events),
  validLogArb,
)

describe('comparing broken logs', () => {
  it('never throws, finds a log equal to itself, and mirrors when swapped', () => {
    let differing = 0
    fc.assert(
      fc.property(logArb, logArb, (x, y) => {
        const a = load(x)
        const b = load(y)
        const self = compareSessions(a, a)
        expect(self.firstDivergence).toBeNull()
        const ab = compareSessions(a, b)
        if (ab.pairs.some((p) => p.a !== null && p.b !== null && !p.same)) differing++
        expect(comparable(compareSessions(b, a))).toStrictEqual(mirrored(ab))
      }),
      { numRuns: 300 },
    )
    // Not vacuous: most pairs of logs have steps on both sides that differ.
    expect(differing).toBeGreaterThan(100)
  })
})
