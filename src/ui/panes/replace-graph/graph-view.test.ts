import { describe, expect, it } from 'vitest'
import { LARGE_GRAPH_ABOVE, usesLargeGraph } from './graph-view.ts'

describe('usesLargeGraph', () => {
  it('draws a loaded log with few replacements as the small graph, with many as the large one', () => {
    for (const state of ['ready', 'error', 'idle'] as const) {
      expect(usesLargeGraph(state, 0)).toBe(false)
      expect(usesLargeGraph(state, LARGE_GRAPH_ABOVE)).toBe(false)
      expect(usesLargeGraph(state, LARGE_GRAPH_ABOVE + 1)).toBe(true)
    }
  })
  it('uses the large view while a log loads, whatever its count so far', () => {
    expect(usesLargeGraph('loading', 0)).toBe(true)
    expect(usesLargeGraph('loading', 5)).toBe(true)
    expect(usesLargeGraph('loading', 5000)).toBe(true)
  })
})
