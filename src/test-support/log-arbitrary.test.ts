/**
 * The arbitraries themselves: the byte lanes rely on every generated mutated log surviving a JSON round trip
 * (a cyclic value once made them fail at random), and a generated value must never change between two reads
 * (shared junk constants once leaked state across runs).
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mutatedJsonLogArb, mutatedLogArb } from './log-arbitrary.ts'

describe('log arbitraries', () => {
  it('mutatedJsonLogArb only produces what JSON can carry', () => {
    fc.assert(
      fc.property(mutatedJsonLogArb, ({ events }) => {
        expect(() => JSON.stringify(events)).not.toThrow()
      }),
      { numRuns: 3000 },
    )
  })

  it('the object-level arbitrary still reaches values JSON cannot carry (cyclic sources)', () => {
    const samples = fc.sample(mutatedLogArb, { numRuns: 3000, seed: 7 })
    expect(samples.some(({ applied }) => applied.some((a) => a.startsWith('cyclicSources@')))).toBe(true)
  })

  it('a generated log is the same every time it is read (no state shared across runs)', () => {
    const first = fc.sample(mutatedJsonLogArb, { numRuns: 400, seed: 42 }).map((s) => JSON.stringify(s.events))
    const again = fc.sample(mutatedJsonLogArb, { numRuns: 400, seed: 42 }).map((s) => JSON.stringify(s.events))
    expect(again).toStrictEqual(first)
  })
})
