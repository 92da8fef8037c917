/**
 * The chart's words and its click mapping, on real answers: the worker's `context-series` view of the demo session
 * (generated in memory, the same generator as the bundled file), read back bucket by bucket against the core series.
 */

import { describe, expect, it } from 'vitest'
import { demoSessionJsonl } from '../../../generate/index.ts'
import { LensLog, loadContentChecksum } from '../../../core/index.ts'
import { ContextSeries } from '../../../core/series/context-series.ts'
import { contextSeriesAnswer } from '../../../view/context-series-query.ts'
import {
  bucketOf,
  bucketValues,
  dashesStandApart,
  dotsStandApart,
  MIN_DASH_SPACING_PX,
  valueChanges,
  indexAtOffset,
  markerText,
  rangeText,
  shortCount,
  withGaps,
  xRange,
} from './chart-values.ts'

const DEMO = new TextEncoder().encode(demoSessionJsonl())
const log = new LensLog({ checksum: await loadContentChecksum() })
log.push(DEMO)
log.finish()
const series = new ContextSeries()
series.update(log)

describe('shortCount', () => {
  it('keeps small counts exact and shortens large ones', () => {
    expect([0, 7, 999, 1000, 1234, 12_345, 999_499, 1_500_000, 12_340_000, -2500, NaN].map(shortCount)).toEqual([
      '0',
      '7',
      '999',
      '1.0k',
      '1.2k',
      '12k',
      '999k',
      '1.50M',
      '12.3M',
      '−2.5k',
      '—',
    ])
  })
})

describe('bucketValues on the demo', () => {
  it('one event per bucket: the values after that event, the usage of the step in force, the markers at it', () => {
    const { answer } = contextSeriesAnswer(series, { width: 100_000, from: null, to: null })
    let lastUsage = -1
    for (let i = 0; i < log.length; i++) {
      const values = bucketValues(answer, bucketOf(answer, i))
      if (values === null) throw new Error(`no bucket for ${i}`)
      expect([values.first, values.last]).toEqual([i, i])
      expect(values.messages).toBe(series.messagesAfter(i).toLocaleString('en-US'))
      expect(values.tokens).toBe(shortCount(series.tokensAfter(i)))
      const k = series.usageIndex.countAtMost(i) - 1
      if (k >= 0) lastUsage = series.usageIndex.get(k)
      expect(values.usageFirst).toBe(lastUsage < 0 ? null : lastUsage)
      expect(values.input).toBe(k < 0 ? null : shortCount(series.usageInput.get(k)))
      expect(values.removed).toEqual(answer.markers.filter((m) => m.index === i).map(markerText))
    }
    expect(answer.markers.length).toBeGreaterThan(0)
  })

  it('wide buckets say the range of their values and list every marker inside', () => {
    const { answer } = contextSeriesAnswer(series, { width: 9, from: null, to: null })
    for (let b = 0; b < answer.x.length; b++) {
      const values = bucketValues(answer, b)
      if (values === null) throw new Error(`no bucket ${b}`)
      const messages = Array.from({ length: values.last - values.first + 1 }, (_, k) => series.messagesAfter(values.first + k))
      const lo = Math.min(...messages)
      const hi = Math.max(...messages)
      expect(values.messages).toBe(lo === hi ? String(lo) : `${lo}–${hi}`)
      expect(values.removed).toHaveLength(series.markers.filter((m) => m.index >= values.first && m.index <= values.last).length)
    }
    expect(bucketValues(answer, answer.x.length)).toBeNull()
    expect(bucketOf(answer, log.length)).toBe(-1)
  })
})

describe('click mapping', () => {
  it('maps the plot edges to the first and last event and rounds to the nearest event', () => {
    const { answer } = contextSeriesAnswer(series, { width: 500, from: null, to: null })
    const range = xRange(answer)
    expect(range).toEqual([0, log.length - 1])
    expect(indexAtOffset(range, 0, 500, log.length)).toBe(0)
    expect(indexAtOffset(range, 500, 500, log.length)).toBe(log.length - 1)
    expect(indexAtOffset(range, 250, 500, log.length)).toBe(Math.round((log.length - 1) / 2))
    expect(indexAtOffset(range, -40, 500, log.length)).toBe(0)
    expect(indexAtOffset(range, 10, 0, log.length)).toBe(-1)
    expect(xRange({ ...answer, from: 0, points: 1 })).toEqual([-0.5, 0.5])
  })

  it('gaps and ranges', () => {
    expect(withGaps(Float64Array.from([1, NaN, 3]))).toEqual([1, null, 3])
    expect(rangeText('seq', 1200, 1200)).toBe('seq 1,200')
    expect(rangeText('seq', 1200, 1210)).toBe('seq 1,200–1,210')
  })
})

describe('dots on the logged series', () => {
  it('draws a dot per logged value only while they stand 8 px apart on average, gaps not counted', () => {
    // The demo's logged input tokens at 500 px: a handful of steps, so each gets its dot.
    const { answer } = contextSeriesAnswer(series, { width: 500, from: null, to: null })
    const input = withGaps(answer.input)
    expect(input.filter((v) => v !== null).length).toBeGreaterThan(0)
    expect(dotsStandApart(input, 0, input.length - 1, 500)).toBe(true)
    // A long log: a logged value in every pixel column.
    const dense = Array.from({ length: 1400 }, (_, i) => i)
    expect(dotsStandApart(dense, 0, dense.length - 1, 1400)).toBe(false)
    // The boundary: 100 values over 800 px stand exactly 8 px apart; one more does not.
    const hundred = [...Array.from({ length: 101 }, (_, i) => i), null, NaN]
    expect(dotsStandApart(hundred, 0, 99, 800)).toBe(true)
    expect(dotsStandApart(hundred, 0, 100, 800)).toBe(false)
    expect(dotsStandApart(hundred, 100, 102, 8)).toBe(true)
  })
})

describe('dashesStandApart', () => {
  it('keeps dashes while each line has its spacing, drops them when they pack closer', () => {
    expect(dashesStandApart(0, 0)).toBe(true)
    expect(dashesStandApart(100, 100 * MIN_DASH_SPACING_PX)).toBe(true)
    expect(dashesStandApart(101, 100 * MIN_DASH_SPACING_PX)).toBe(false)
    // A downsampled series has about one step per pixel column: solid.
    expect(dashesStandApart(1200, 1200)).toBe(false)
  })
})

describe('valueChanges', () => {
  it('counts the steps between consecutive points', () => {
    expect(valueChanges([])).toBe(0)
    expect(valueChanges([3, 3, 3])).toBe(0)
    expect(valueChanges(Int32Array.from([1, 2, 2, 5, 1]))).toBe(3)
  })
})
