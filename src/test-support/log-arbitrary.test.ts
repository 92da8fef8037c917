/**
 * The arbitraries themselves: the byte lanes rely on every generated mutated log surviving a JSON round trip
 * (a cyclic value once made them fail at random), and a generated value must never change between two reads
 * (shared junk constants once leaked state across runs).
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyMutations, mutatedJsonLogArb, mutatedLogArb, validLogArb } from './log-arbitrary.ts'

describe('log arbitraries', () => {
  it('mutatedJsonLogArb only produces what JSON can carry', () => {
    fc.assert(
      fc.property(mutatedJsonLogArb, ({ events }) => {
        expect(() => JSON.stringify(events)).not.toThrow()
      }),
      { numRuns: 3000 },
    )
  })

  it('a mutation meeting a surfaceOp of null (junk) goes on, as any other junk value', () => {
    const [log] = fc.sample(
      validLogArb.filter((events) => events.some((e) => e['type'] === 'tool/result' && e['surfaceOp'] !== undefined)),
      { numRuns: 1, seed: 3 },
    )
    const events = log ?? []
    const surface = events.flatMap((e, i) => (e['surfaceOp'] !== undefined ? [i] : []))
    const target = surface.find((i) => events[i]?.['type'] === 'tool/result') as number
    // applyMutations' aim (where % 4 !== 0: the surface list, else every event): find a `where` that lands on target.
    const lands = (w: number) => (w % 4 !== 0 ? surface[w % surface.length] : w % events.length) === target
    const aim = Array.from({ length: 4 * events.length }, (_, w) => w).find(lands) as number
    const { events: out, applied } = applyMutations(events, [
      ['junkSurfaceOp', aim, 0, null],
      ['toolResultWiden', aim, 0, null],
    ])
    expect(applied.map((a) => a.split('@')[0])).toStrictEqual(['junkSurfaceOp', 'toolResultWiden'])
    expect(out[target]?.['surfaceOp']).toMatchObject({ op: 'replace' })
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
