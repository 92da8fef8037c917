/**
 * The context series cut into at most `width` buckets of consecutive events, for drawing: a chart cannot show
 * more than a few points per pixel column, and shipping 1.3M points per series to the main thread would cost
 * tens of MB per update. Each bucket keeps the minimum and maximum of the surface size over its events (so a
 * compaction's drop and the peak before it both survive), the largest usage any step in it logged, and the
 * tokens its replacements removed. With `width >= events` every bucket is one event: the full series.
 */

import type { ContextMarker, ContextSeries } from './context-series.ts'

export interface ContextSeriesView {
  /** Per-event points the view represents: events `from..to-1` of the series (the whole log by default). */
  readonly points: number
  /** First event index represented. */
  readonly from: number
  /** Events per bucket (1: the full series). */
  readonly bucketSize: number
  /** Event index where each bucket starts. */
  readonly x: Float64Array
  /** Messages on the surface after each event of the bucket: smallest and largest. */
  readonly messagesMin: Float64Array
  readonly messagesMax: Float64Array
  /** Estimated surface tokens after each event of the bucket: smallest and largest. */
  readonly tokensMin: Float64Array
  readonly tokensMax: Float64Array
  /** Logged usage of the steps in the bucket (the largest of each field); NaN where no step logged one. */
  readonly input: Float64Array
  readonly output: Float64Array
  readonly cacheRead: Float64Array
  readonly cacheWrite: Float64Array
  /** Tokens removed by the bucket's replacements (logged `shadowedTokenCount`, else our estimate); NaN if none. */
  readonly removed: Float64Array
  /** Every replacement in range, exact (there are few). */
  readonly markers: readonly ContextMarker[]
  /** Steps in range that logged usage. */
  readonly usageSteps: number
}

/** Tokens a marker removed, as the chart draws it: the logged count where there is one, else our estimate. */
export function removedTokens(marker: ContextMarker): number {
  return marker.loggedTokens ?? marker.estimatedTokens
}

/** First position in a sorted vector whose value is >= bound. */
function firstAtLeast(vector: { countAtMost(bound: number): number }, bound: number): number {
  return vector.countAtMost(bound - 1)
}

export function downsampleContext(series: ContextSeries, width: number, from = 0, to = series.events): ContextSeriesView {
  const lo = Math.max(0, Math.min(Math.trunc(from), series.events))
  const hi = Math.max(lo, Math.min(Math.trunc(to), series.events))
  const points = hi - lo
  const bucketSize = Math.max(1, Math.ceil(points / Math.max(1, Math.trunc(width))))
  const buckets = Math.ceil(points / bucketSize)
  const x = new Float64Array(buckets)
  const messagesMin = new Float64Array(buckets)
  const messagesMax = new Float64Array(buckets)
  const tokensMin = new Float64Array(buckets)
  const tokensMax = new Float64Array(buckets)
  const usage = [series.usageInput, series.usageOutput, series.usageCacheRead, series.usageCacheWrite]
  const usageOut = usage.map(() => new Float64Array(buckets).fill(NaN))
  const removed = new Float64Array(buckets).fill(NaN)

  // One sweep over the change points: the value entering a bucket is the one left by the previous bucket.
  const changes = series.changeIndex
  let k = firstAtLeast(changes, lo)
  let messages = k > 0 ? series.changeMessages.get(k - 1) : 0
  let tokens = k > 0 ? series.changeTokens.get(k - 1) : 0
  let u = firstAtLeast(series.usageIndex, lo)
  for (let b = 0; b < buckets; b++) {
    const start = lo + b * bucketSize
    const end = Math.min(hi, start + bucketSize)
    x[b] = start
    if (k < changes.length && changes.get(k) === start) {
      messages = series.changeMessages.get(k)
      tokens = series.changeTokens.get(k)
      k++
    }
    let mMin = messages
    let mMax = messages
    let tMin = tokens
    let tMax = tokens
    for (; k < changes.length && changes.get(k) < end; k++) {
      messages = series.changeMessages.get(k)
      tokens = series.changeTokens.get(k)
      if (messages < mMin) mMin = messages
      if (messages > mMax) mMax = messages
      if (tokens < tMin) tMin = tokens
      if (tokens > tMax) tMax = tokens
    }
    messagesMin[b] = mMin
    messagesMax[b] = mMax
    tokensMin[b] = tMin
    tokensMax[b] = tMax
    for (; u < series.usageIndex.length && series.usageIndex.get(u) < end; u++) {
      for (let f = 0; f < usage.length; f++) {
        const value = (usage[f] as (typeof usage)[number]).get(u)
        const out = usageOut[f] as Float64Array
        // NaN (not logged) never wins; a logged value replaces NaN.
        if (!Number.isNaN(value) && !(value <= (out[b] as number))) out[b] = value
      }
    }
  }

  const markers = series.markers.filter((m) => m.index >= lo && m.index < hi)
  for (const marker of markers) {
    const b = Math.floor((marker.index - lo) / bucketSize)
    removed[b] = (Number.isNaN(removed[b]) ? 0 : (removed[b] as number)) + removedTokens(marker)
  }
  const [input, output, cacheRead, cacheWrite] = usageOut as [Float64Array, Float64Array, Float64Array, Float64Array]
  return {
    points,
    from: lo,
    bucketSize,
    x,
    messagesMin,
    messagesMax,
    tokensMin,
    tokensMax,
    input,
    output,
    cacheRead,
    cacheWrite,
    removed,
    markers,
    usageSteps: firstAtLeast(series.usageIndex, hi) - firstAtLeast(series.usageIndex, lo),
  }
}
