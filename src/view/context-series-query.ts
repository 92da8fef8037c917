/**
 * Worker side of the context chart (issue 8 §4): the core's `ContextSeries` for the loaded log, cut down by
 * `downsampleContext` to the chart's pixel width and x range. The series itself lives in `OpenLog` and is
 * extended as events arrive (live logs too); this file only shapes one answer. Every array in the answer is
 * freshly allocated per query, so the host transfers their buffers instead of copying them.
 */

import type { ContextSeries } from '../core/series/context-series.ts'
import { downsampleContext, removedTokens } from '../core/series/downsample-context.ts'
import type { ContextMarkerRow, ContextSeriesAnswer, ContextSeriesArgs } from '../protocol/context-series.ts'

/** Widest view a query may ask for (buckets); a chart is never wider than a few thousand pixels. */
export const CONTEXT_WIDTH_MAX = 16384
/** Markers sent at most per answer (the chart draws one line each; more than this is one blur). */
export const CONTEXT_MARKERS_MAX = 5000

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
