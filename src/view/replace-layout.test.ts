/** The worker-side replace-graph layout: every replacement placed, nesting ranks, leaf collapse, live extension. */

import { describe, expect, it } from 'vitest'
import type { ReplacementInfo } from '../protocol/log-summary.ts'
import { LEAVES_COLLAPSE_ABOVE } from '../protocol/replace-layout.ts'
import { extendLayout, layoutReplacements } from './replace-layout.ts'

const prune = (seq: number, target: number): ReplacementInfo => ({
  seq,
  index: seq,
  start: target,
  end: target,
  shadowedSeqs: [target],
  sourceEventSeqs: [target],
  kind: 'prune',
  compactionId: null,
  shadowedIsReplacement: [false],
})

const nestedChain = (n: number): ReplacementInfo[] =>
  Array.from({ length: n }, (_, k) => ({
    ...prune(10 * (k + 1), k === 0 ? 0 : 10 * k),
    kind: 'summary' as const,
    compactionId: `c${k}`,
    shadowedIsReplacement: [k > 0],
  }))

describe('layoutReplacements', () => {
  it('places every replacement, each nested one above what it swallowed, with finite coordinates', () => {
    const chain = nestedChain(5)
    const layout = layoutReplacements(chain)
    expect(layout.count).toBe(5)
    expect(Array.from(layout.x).every(Number.isFinite)).toBe(true)
    for (let k = 1; k < 5; k++) expect(layout.y[k]).toBeLessThan(layout.y[k - 1] as number)
    // Only the innermost shadows a plain seq: one leaf, owned by replacement 0.
    expect(layout.leaves.map((l) => [l.owner, l.label])).toStrictEqual([[0, '#0']])
  })

  it('collapses leaves into counts above the threshold, and still places every replacement', () => {
    const many = Array.from({ length: LEAVES_COLLAPSE_ABOVE + 10 }, (_, k) => prune(2 * k + 1, 2 * k))
    const layout = layoutReplacements(many)
    expect(layout.count).toBe(many.length)
    expect(layout.leavesCollapsed).toBe(true)
    expect(layout.leaves).toStrictEqual([])
    const positions = new Set(Array.from(layout.x, (x, k) => `${x},${layout.y[k]}`))
    expect(positions.size).toBe(many.length)
  })

  it('extends a layout for live appends without moving what was placed', () => {
    const chain = nestedChain(4)
    const first = layoutReplacements(chain.slice(0, 2))
    const extended = extendLayout(first, chain)
    expect(extended.count).toBe(4)
    expect(Array.from(extended.x.subarray(0, 2))).toStrictEqual(Array.from(first.x))
    expect(Array.from(extended.y.subarray(0, 2))).toStrictEqual(Array.from(first.y))
    expect(extended.y[3]).toBeLessThan(extended.y[2] as number)
    expect(extended.y[2]).toBeLessThan(Math.min(...first.y))
    expect(extendLayout(extended, chain)).toBe(extended)
  })
})
