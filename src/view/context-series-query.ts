/**
 * Worker side of the context chart (issue 8 §4): the core's `ContextSeries` for the loaded log, cut down by
 * `downsampleContext` to the chart's pixel width and x range. The series is made on the first `context-series`
 * query and then extended by each later query with only the surface nodes that arrived since (a live log is
 * followed, never rebuilt; `ContextSeriesQueries`). Not on push: the load path stays as fast with the chart open as
 * without it, and the chart asks again as the log grows anyway. Every array in the answer is freshly allocated per
 * query, so the host transfers their buffers instead of copying them.
 */

import type { LensLog } from '../core/index.ts'
import { ContextSeries } from '../core/series/context-series.ts'
import { downsampleContext, removedTokens } from '../core/series/downsample-context.ts'
import type { ContextMarkerRow, ContextSeriesAnswer, ContextSeriesArgs } from '../protocol/context-series.ts'

/** Widest view a query may ask for (buckets); a chart is never wider than a few thousand pixels. */
export const CONTEXT_WIDTH_MAX = 16384
/** Markers sent at most per answer (the chart draws one line each; more than this is one blur). */
export const CONTEXT_MARKERS_MAX = 5000

/** Slice of worker time one context-series extension may take before it yields (ms). */
export const SERIES_SLICE_MS = 30

function deadline(ms: number): (() => boolean) | undefined {
  if (ms === Infinity) return undefined
  // No time at all: one node per call (exactly, whatever the clock's resolution).
  if (ms <= 0) return () => true
  const end = performance.now() + ms
  return () => performance.now() > end
}

/** The open log's context series: built once per log, then only extended. */
export class ContextSeriesQueries {
  private built: { log: LensLog; series: ContextSeries } | null = null

  /**
   * The series, extended with the events stored since. With a budget the extension stops after about `budgetMs`
   * (`caughtUp` says whether it got to the end; ask again for the rest).
   */
  series(log: LensLog, budgetMs = Infinity): ContextSeries {
    if (this.built?.log !== log) this.built = { log, series: new ContextSeries() }
    this.built.series.update(log, deadline(budgetMs))
    return this.built.series
  }
}

/** The `context-series` query over an up-to-date series; `transfer` lists the buffers the answer owns. */
export function contextSeriesAnswer(
  series: ContextSeries,
  args: ContextSeriesArgs,
  complete = true,
): { answer: ContextSeriesAnswer; transfer: ArrayBuffer[] } {
  const width = Math.max(1, Math.min(CONTEXT_WIDTH_MAX, Math.trunc(Number.isFinite(args.width) ? args.width : 1)))
  const view = downsampleContext(series, width, args.from ?? 0, args.to ?? series.events)
  const markers = view.markers.slice(0, CONTEXT_MARKERS_MAX).map((m): ContextMarkerRow => ({
    index: m.index,
    seq: m.seq,
    kind: m.kind,
    removed: removedTokens(m),
    removedSource: m.loggedTokens === null ? 'estimated' : 'logged',
    loggedTokens: m.loggedTokens,
    estimatedTokens: m.estimatedTokens,
    shadowedCount: m.shadowedCount,
  }))
  const answer: ContextSeriesAnswer = {
    events: series.events,
    complete,
    from: view.from,
    points: view.points,
    bucketSize: view.bucketSize,
    x: view.x,
    messagesMin: view.messagesMin,
    messagesMax: view.messagesMax,
    tokensMin: view.tokensMin,
    tokensMax: view.tokensMax,
    input: view.input,
    output: view.output,
    cacheRead: view.cacheRead,
    cacheWrite: view.cacheWrite,
    removed: view.removed,
    markers,
    markerCount: view.markers.length,
    usageSteps: view.usageSteps,
  }
  const arrays = [
    answer.x,
    answer.messagesMin,
    answer.messagesMax,
    answer.tokensMin,
    answer.tokensMax,
    answer.input,
    answer.output,
    answer.cacheRead,
    answer.cacheWrite,
    answer.removed,
  ]
  return { answer, transfer: arrays.map((a) => a.buffer as ArrayBuffer) }
}
