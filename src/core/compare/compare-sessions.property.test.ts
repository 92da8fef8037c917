/**
 * Two runs of one generated session (src/generate/twin-runs.ts: B with fresh ids and its own clock, and one divergence
 * injected at a site of each kind, so the generator knows where they must part), compared: the first divergence is
 * found exactly (its kind, and each side's seq, turn and step), comparing B with A mirrors comparing A with B, and a
 * run compared with itself, or with its second run before any divergence, is equal. Logs are packed half the time.
 * A failing run prints its seed; FC_SEED replays it (src/test-support/fast-check-setup.ts).
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { comparable, loadTwins, mirrored } from '../../test-support/compare-kit.ts'
import { INJECTED_KINDS, type InjectedKind } from '../../generate/twin-runs.ts'
import { compareSessions } from './compare-sessions.ts'

const kindArb = fc.constantFrom<InjectedKind | 'none'>(...INJECTED_KINDS, 'none')

/** Small sessions that still hold every site: compactions (nested at times), prunes, header changes, retries. */
const sessionArb = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  targetEvents: fc.integer({ min: 250, max: 900 }),
  compactionEveryTurns: fc.integer({ min: 1, max: 3 }),
  pruneEveryTurns: fc.integer({ min: 1, max: 2 }),
  pruneMinBytes: fc.constant(200),
  headerChangeEveryTurns: fc.integer({ min: 1, max: 3 }),
  maxTokensEveryTurns: fc.constantFrom(0, 3),
  retryEverySteps: fc.constantFrom(0, 4),
  parallelTools: fc.boolean(),
  stepsPerTurn: fc.constant<[number, number]>([1, 4]),
  reasoningTokens: fc.constant(6),
  textTokens: fc.constant(10),
  toolResultMedianBytes: fc.constant(400),
  toolResultMaxBytes: fc.constant(3_000),
  hugeToolResultEvery: fc.constant(0),
  pack: fc.boolean(),
})

describe('comparing two generated runs with a divergence injected at a known step', () => {
  it('finds it exactly, mirrors when swapped, and finds a run equal to itself', () => {
    let found = 0
    fc.assert(
      fc.property(sessionArb, fc.integer({ min: 1, max: 2 ** 31 - 1 }), kindArb, fc.nat(), (session, twinSeed, kind, site) => {
        const twins = loadTwins({ session, twinSeed, divergence: kind === 'none' ? null : { kind, site } })
        // B is a log the harness accepts, as a second run writes one.
        const errors = (log: typeof twins.logA) => log.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)
        expect(errors(twins.logB)).toStrictEqual([])
        expect(errors(twins.logA)).toStrictEqual([])
        // Every session has sites of these kinds (a short one may hold no compaction or prune inside a step).
        if (kind !== 'none' && kind !== 'length' && kind !== 'surface-op') expect(twins.sites).toBeGreaterThan(0)
        const ab = compareSessions(twins.logA, twins.logB)
        const first = ab.firstDivergence
        expect(first === null ? null : { kind: first.kind, a: first.a, b: first.b }).toStrictEqual(twins.expected)
        if (twins.expected !== null) found++
        // Every pair before the first that differs is the same; the first that differs holds the divergence's kind.
        const index = ab.pairs.findIndex((p) => !p.same)
        expect(index === -1).toBe(first === null)
        if (first !== null) expect(ab.pairs[index]?.kinds).toContain(first.kind)
        const ba = compareSessions(twins.logB, twins.logA)
        expect(comparable(ba)).toStrictEqual(mirrored(ab))
        const self = compareSessions(twins.logA, twins.logA)
        expect(self.firstDivergence).toBeNull()
        expect(self.pairs.every((p) => p.same && p.kinds.length === 0)).toBe(true)
      }),
      { numRuns: 320 },
    )
    // The property is about divergences: most runs must have had one to find.
    expect(found).toBeGreaterThan(200)
  })
})
