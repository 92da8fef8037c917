import { describe, expect, it } from 'vitest'
import { ESTIMATE_FROM_REPLACEMENTS, LARGE_GRAPH_ABOVE, loadedPart, usesLargeGraph } from './graph-view.ts'

describe('usesLargeGraph', () => {
  it('draws a loaded log with few replacements as the small graph, with many as the large one', () => {
    for (const state of ['ready', 'error', 'idle'] as const) {
      expect(usesLargeGraph(state, 0, 1)).toBe(false)
      expect(usesLargeGraph(state, LARGE_GRAPH_ABOVE, 1)).toBe(false)
      // Not loading: the count is final, whatever part of the file was read (a budget cut, a cancel).
      expect(usesLargeGraph(state, LARGE_GRAPH_ABOVE, 0.01)).toBe(false)
      expect(usesLargeGraph(state, LARGE_GRAPH_ABOVE + 1, 1)).toBe(true)
    }
  })
  it('while loading, goes large at once when the count so far, scaled by the part loaded, passes the threshold', () => {
    // graph-5k's first summary: 35 replacements in 0.7% of the file.
    expect(usesLargeGraph('loading', 35, 0.007)).toBe(true)
    // The 280k log: 18 replacements in all, ~10 by the time 60% is read.
    expect(usesLargeGraph('loading', 10, 0.6)).toBe(false)
    expect(usesLargeGraph('loading', 40, 0.8)).toBe(false)
    expect(usesLargeGraph('loading', 50, 0.8)).toBe(true)
  })
  it('does not estimate from a handful of replacements, nor without a file size', () => {
    expect(usesLargeGraph('loading', ESTIMATE_FROM_REPLACEMENTS - 1, 0.001)).toBe(false)
    expect(usesLargeGraph('loading', ESTIMATE_FROM_REPLACEMENTS, 0.001)).toBe(true)
    expect(usesLargeGraph('loading', 40, null)).toBe(false)
    expect(usesLargeGraph('loading', 40, 0)).toBe(false)
    expect(usesLargeGraph('loading', LARGE_GRAPH_ABOVE + 1, null)).toBe(true)
  })
})

describe('loadedPart', () => {
  const progress = (inputBytes: number, totalBytes: number | null) => ({
    inputBytes,
    totalBytes,
    events: 0,
    lines: 0,
    bytesPerSecond: 0,
  })
  it('is the part of the file read, or null without a size', () => {
    expect(loadedPart(progress(25, 100))).toBe(0.25)
    expect(loadedPart(progress(25, null))).toBeNull()
    expect(loadedPart(progress(0, 0))).toBeNull()
    expect(loadedPart(null)).toBeNull()
  })
})
