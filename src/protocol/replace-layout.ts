/**
 * The replace graph's layout as it crosses to the main thread (laid out in the worker: view/replace-layout.ts), and
 * the node sizes and ids both sides draw with.
 */

export const REPLACE_NODE_SIZE = { width: 190, height: 66 } as const

export const LEAF_NODE_SIZE = { width: 110, height: 30 } as const

/** With more replacements than this, leaves are left out (each node already says how many seqs it shadows):
 * every replacement must stay in the DOM, and leaves would multiply the node count several times over. Also where
 * the viewport-only large graph starts (ReplaceGraphPane): past it the full React Flow graph is fitted at a zoom too
 * far out to read, and its layerization costs every frame the page changes. */
export const LEAVES_COLLAPSE_ABOVE = 60

/** A box of plain shadowed seqs under the replacement numbered `owner`; x/y are its top-left corner. */
export interface GraphLeaf {
  readonly id: string
  readonly owner: number
  readonly label: string
  readonly seqs: readonly number[]
  readonly x: number
  readonly y: number
}

/** Positions (top-left corners, flow coordinates) for the first `count` replacements and their leaves. */
export interface ReplaceLayout {
  readonly count: number
  readonly x: Float64Array
  readonly y: Float64Array
  /** Sorted by owner, so the leaves of the first k replacements are a prefix. */
  readonly leaves: readonly GraphLeaf[]
  readonly leavesCollapsed: boolean
  /** With leaves collapsed: for each replacement the index of the one that nested it, or -1 (the large graph's edges),
   * built once in the worker so the main thread does not walk every shadowed seq again on each summary. */
  readonly parent?: Int32Array
}

export const EMPTY_LAYOUT: ReplaceLayout = {
  count: 0,
  x: new Float64Array(0),
  y: new Float64Array(0),
  leaves: [],
  leavesCollapsed: false,
}

export function replaceNodeId(seq: number): string {
  return `r${seq}`
}
