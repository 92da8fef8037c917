import { describe, expect, it } from 'vitest'
import type { ReplaceLayout } from '../../../protocol/replace-layout.ts'
import { mountBudget, sameIndices, visibleReplacements } from './visible-nodes.ts'

/** A row of `n` boxes, 100 apart on x. */
function row(n: number): ReplaceLayout {
  return {
    count: n,
    x: Float64Array.from({ length: n }, (_, k) => k * 100),
    y: new Float64Array(n),
    leaves: [],
    leavesCollapsed: true,
  }
}
const SIZE = { width: 50, height: 20 }

describe('visibleReplacements', () => {
  it('lists the boxes meeting the view, below count, in index order', () => {
    const view = { x: -150, y: 0, zoom: 1, width: 300, height: 100 }
    expect(visibleReplacements(row(10), 10, view, SIZE, 100)).toEqual([1, 2, 3, 4])
    expect(visibleReplacements(row(10), 3, view, SIZE, 100)).toEqual([1, 2])
  })
  it('is null when more than max are in view (the canvas draws them)', () => {
    const view = { x: 0, y: 0, zoom: 0.1, width: 1000, height: 100 }
    expect(visibleReplacements(row(10), 10, view, SIZE, 9)).toBeNull()
    expect(visibleReplacements(row(10), 10, view, SIZE, 10)).toHaveLength(10)
  })
})

describe('mountBudget', () => {
  it('adds at most the budget of new indices per call and keeps those already shown', () => {
    const first = mountBudget(null, [0, 1, 2, 3, 4, 5, 6], 3)
    expect(first).toEqual({ indices: [0, 1, 2], done: false })
    const second = mountBudget(first.indices, [0, 1, 2, 3, 4, 5, 6], 3)
    expect(second).toEqual({ indices: [0, 1, 2, 3, 4, 5], done: false })
    expect(mountBudget(second.indices, [0, 1, 2, 3, 4, 5, 6], 3)).toEqual({ indices: [0, 1, 2, 3, 4, 5, 6], done: true })
  })
  it('drops at once what left the view, and keeps index order', () => {
    expect(mountBudget([1, 2, 3], [3, 4, 5, 9], 1)).toEqual({ indices: [3, 4], done: false })
    expect(mountBudget([3, 4], [3, 4], 0)).toEqual({ indices: [3, 4], done: true })
  })
  it('reaches any view after enough frames', () => {
    const target = Array.from({ length: 97 }, (_, k) => 2 * k)
    let shown: number[] | null = null
    let frames = 0
    for (let done = false; !done; frames++) {
      const step = mountBudget(shown, target, 12)
      shown = step.indices
      done = step.done
    }
    expect(shown).toEqual(target)
    expect(frames).toBe(Math.ceil(97 / 12))
  })
})

describe('sameIndices', () => {
  it('compares lists by content, null only with null', () => {
    expect(sameIndices([1, 2], [1, 2])).toBe(true)
    expect(sameIndices([1, 2], [2, 1])).toBe(false)
    expect(sameIndices(null, [])).toBe(false)
    expect(sameIndices(null, null)).toBe(true)
  })
})
