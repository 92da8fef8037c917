import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { viewOf } from '../../test-support/log-view.ts'
import { packLines } from './pack-lines.ts'

const HEADER = JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 0, delegationDepth: 0 })
const text = (lines: readonly string[]): Uint8Array => new TextEncoder().encode([HEADER, ...lines].join('\n') + '\n')

describe('packLines', () => {
  it('real harness logs: unpacked, then packed again for the page, decode to exactly the same events and rows', () => {
    if (!fixturesAvailable()) return
    let packedAny = 0
    for (const fixture of listFixtures()) {
      const file = viewOf([new Uint8Array(readFileSync(fixture.path))])
      if (file.events.length === 0) continue
      const lines = file.events
      const packed = packLines(lines)
      if (packed.length < lines.length) packedAny++
      const back = viewOf([text(packed)])
      expect(back.events, fixture.name).toStrictEqual(viewOf([text(lines)]).events)
      expect(back.rows, fixture.name).toStrictEqual(viewOf([text(lines)]).rows)
    }
    expect(packedAny).toBeGreaterThan(5)
  })

  it('property: any valid log, as one event per line, packs to the same events', () => {
    fc.assert(
      fc.property(validLogArb, (events) => {
        const lines = events.map((e) => JSON.stringify(e))
        const packed = packLines(lines)
        expect(viewOf([text(packed)]).events).toStrictEqual(viewOf([text(lines)]).events)
      }),
      { numRuns: 300 },
    )
  })

  it('packs a run of three deltas of one block, not two, and never across a seq gap or another block', () => {
    const chunk = (seq: number, index: number, t = 'x') =>
      JSON.stringify({
        type: 'assistant/chunk',
        seq,
        time: 100 + seq,
        data: { turn: 1, step: 1, chunk: { type: 'text-delta', index, text: t } },
      })
    expect(packLines([chunk(0, 0), chunk(1, 0)])).toStrictEqual([chunk(0, 0), chunk(1, 0)])
    expect(packLines([chunk(0, 0), chunk(1, 0, 'y'), chunk(2, 0, 'z'), chunk(3, 1)])).toStrictEqual([
      JSON.stringify({
        type: 'text-chunks',
        seq0: 0,
        time0: 100,
        data: { turn: 1, step: 1, index: 0, dt: [1, 1], texts: ['x', 'y', 'z'] },
      }),
      chunk(3, 1),
    ])
    // An extra key on a member cannot ride in a row: the run stays as it came.
    const odd = JSON.stringify({ ...JSON.parse(chunk(1, 0)), ignorable: true })
    expect(packLines([chunk(0, 0), odd, chunk(2, 0)])).toStrictEqual([chunk(0, 0), odd, chunk(2, 0)])
  })
})
