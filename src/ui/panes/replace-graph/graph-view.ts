/** Pure: which of the replace graph's two views a log gets (ReplaceGraphPane). */

import type { LoadState } from '../../../store/slices/source-slice.ts'
import type { LoadProgress } from '../../../protocol/log-summary.ts'
import { LEAVES_COLLAPSE_ABOVE } from '../../../protocol/replace-layout.ts'

/** Above this many replacements in the log (where the worker collapses leaves, so each replacement is one node),
 * React Flow gets only the nodes in view and a canvas draws the far view (LargeReplaceGraph); below it every node up
 * to the cursor is a React Flow node, as before. Not 600 (where the forest layout starts): a trace of the graph-5k
 * lane showed React Flow with hundreds of mounted nodes growing with each interim summary (setNodes/setEdges and a
 * store selector per node) making long tasks while the log opened. */
export const LARGE_GRAPH_ABOVE = LEAVES_COLLAPSE_ABOVE

/** Replacements a loading log must have shown before its final count is estimated from them. */
export const ESTIMATE_FROM_REPLACEMENTS = 16

/**
 * Whether the large view draws the graph: React Flow only for the boxes in view, a canvas for the rest
 * (LargeReplaceGraph). While a log loads its final count is not known. Judged by the count so far, graph-5k's first
 * summary (a few dozen replacements in the first percent of the file) mounted the small graph's nodes and leaves over
 * the first second (long tasks), all unmounted when a later summary went past 60. So a loading log whose count so far, scaled by
 * the part loaded, goes past 60 gets the large view at once; a log with few replacements keeps the small graph and
 * its React Flow instance from the first summary to the end (switching views at `ready` costs a mount).
 * @param loaded the part of the file read so far (0-1), or null when its size is unknown (a stream)
 */
export function usesLargeGraph(loadState: LoadState, replacements: number, loaded: number | null): boolean {
  if (replacements > LARGE_GRAPH_ABOVE) return true
  if (loadState !== 'loading' || loaded === null || loaded <= 0 || replacements < ESTIMATE_FROM_REPLACEMENTS) return false
  return replacements / Math.min(1, loaded) > LARGE_GRAPH_ABOVE
}

/** The part of the file read so far (0-1), or null when the size is unknown. */
export function loadedPart(progress: LoadProgress | null): number | null {
  if (progress === null || progress.totalBytes === null || progress.totalBytes <= 0) return null
  return progress.inputBytes / progress.totalBytes
}
