/** The context chart's question (width and range) and its answer: the core's downsampled series and markers. */

import type { ContextMarker } from '../core/series/context-series.ts'
import type { ContextSeriesView } from '../core/series/downsample-context.ts'

/** One compaction or prune as the chart draws it: the core's `ContextMarker` with the tokens it removed as drawn. */
export interface ContextMarkerRow extends Pick<
  ContextMarker,
  'index' | 'seq' | 'kind' | 'loggedTokens' | 'estimatedTokens' | 'shadowedCount'
> {
  /** Tokens it removed as drawn: the logged `shadowedTokenCount` when there is one, else our estimate. */
  readonly removed: number
  /** Which of the two `removed` is. */
  readonly removedSource: 'logged' | 'estimated'
}

/** The core's downsampled view (see `ContextSeriesView` for each array), with markers shaped for the chart. */
export interface ContextSeriesAnswer extends Omit<ContextSeriesView, 'markers'> {
  /** Events folded into the series so far (the chart's `data-points`). */
  readonly events: number
  /** Every stored event is folded in; false while a large log's series is still being built (ask again). */
  readonly complete: boolean
  readonly markers: readonly ContextMarkerRow[]
  /** Markers in range (the list is capped at `CONTEXT_MARKERS_MAX`). */
  readonly markerCount: number
}

/** Arguments of the `context-series` query: pixel width, and the event range (null: the whole log). */
export interface ContextSeriesArgs {
  readonly width: number
  readonly from: number | null
  readonly to: number | null
}
