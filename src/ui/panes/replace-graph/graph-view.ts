/** Pure: which of the replace graph's two views a log gets (ReplaceGraphPane). */

import type { LoadState } from '../../../store/slices/source-slice.ts'
import { LEAVES_COLLAPSE_ABOVE } from '../../../worker/replace-layout.ts'

/** Above this many replacements in the log (where the worker collapses leaves, so each replacement is one node),
 * React Flow gets only the nodes in view and a canvas draws the far view (LargeReplaceGraph); below it every node up
 * to the cursor is a React Flow node, as before. Not 600 (where the forest layout starts): a trace of the graph-5k
 * lane showed React Flow with 150-600 mounted nodes growing with each interim summary (setNodes/setEdges and a
 * store selector per node) making 80-170 ms tasks while the log opened. */
export const LARGE_GRAPH_ABOVE = LEAVES_COLLAPSE_ABOVE

/**
 * Whether the large view draws the graph: React Flow only for the boxes in view, a canvas for the rest
 * (LargeReplaceGraph). While a log loads its final count is unknown, and the large view (a canvas, without React Flow
 * nodes until the load is over) stands in: judged by the count so far, a big log's first summaries (under 60
 * replacements) mounted the small graph's ~100 nodes and leaves over the first second (50-106 ms tasks), all
 * unmounted again when a later summary went past 60.
 */
export function usesLargeGraph(loadState: LoadState, replacements: number): boolean {
  return loadState === 'loading' || replacements > LARGE_GRAPH_ABOVE
}
