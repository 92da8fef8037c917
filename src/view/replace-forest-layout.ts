/**
 * Linear-time layout of a large replace graph, used instead of dagre above `FOREST_LAYOUT_ABOVE` replacements (dagre's
 * cost grows superlinearly, and the log is not ready until its layout is). A replacement is shadowed at most once (once
 * shadowed it is off the surface), so nesting is a forest: each tree is drawn top-down (the outermost replacement on
 * top, as dagre's TB ranks do), its leaves side by side, a parent centred over its children; trees follow each other in
 * event order and wrap into rows, so a big log gives a page-shaped graph instead of a strip hundreds of thousands of
 * pixels wide.
 */

import type { ReplacementInfo } from '../protocol/log-summary.ts'
import type { ReplaceLayout } from '../protocol/replace-layout.ts'

const NODE_SEP = 16
const RANK_SEP = 40
/** Vertical gap between two rows of trees. */
const ROW_SEP = 120

/**
 * For each replacement, the index of the one that nested it, or -1 (first parent wins, as in the layout below).
 * Incremental: a replacement only nests earlier ones, so given the parents of the first `previous.length` (from an
 * earlier summary of the same load) only the new replacements' shadowed seqs are walked.
 */
export function nestingParents(replacements: readonly ReplacementInfo[], previous?: Int32Array): Int32Array {
  const count = replacements.length
  const from = previous !== undefined && previous.length <= count ? previous.length : 0
  const parent = new Int32Array(count).fill(-1)
  if (from > 0 && previous !== undefined) parent.set(previous)
  const indexBySeq = new Map<number, number>()
  replacements.forEach((r, k) => indexBySeq.set(r.seq, k))
  for (let k = from; k < count; k++) {
    const r = replacements[k] as ReplacementInfo
    r.shadowedSeqs.forEach((s, i) => {
      if (r.shadowedIsReplacement[i] !== true) return
      const child = indexBySeq.get(s)
      if (child !== undefined && child < k && parent[child] === -1) parent[child] = k
    })
  }
  return parent
}

/**
 * @param replacements every replacement, in event order (a nested replacement always comes before its parent)
 * @param size the box of one replacement node
 */
export function layoutForest(replacements: readonly ReplacementInfo[], size: { width: number; height: number }): ReplaceLayout {
  const count = replacements.length
  const indexBySeq = new Map<number, number>()
  replacements.forEach((r, k) => indexBySeq.set(r.seq, k))
  // First parent wins: a valid fold never shadows a node twice, a damaged log still gets one placement per node.
  const parent = new Int32Array(count).fill(-1)
  const children: number[][] = Array.from({ length: count }, () => [])
  replacements.forEach((r, k) => {
    r.shadowedSeqs.forEach((s, i) => {
      if (r.shadowedIsReplacement[i] !== true) return
      const child = indexBySeq.get(s)
      if (child === undefined || child >= k || parent[child] !== -1) return
      parent[child] = k
      ;(children[k] as number[]).push(child)
    })
  })
  // Bottom-up in index order (children come first): leaf slots and levels below each node.
  const slots = new Float64Array(count)
  const below = new Int32Array(count)
  for (let k = 0; k < count; k++) {
    let s = 0
    let d = 0
    for (const c of children[k] as number[]) {
      s += slots[c] as number
      d = Math.max(d, (below[c] as number) + 1)
    }
    slots[k] = Math.max(1, s)
    below[k] = d
  }
  const slotWidth = size.width + NODE_SEP
  const rankHeight = size.height + RANK_SEP
  const roots: number[] = []
  let totalWidth = 0
  let tallest = 0
  for (let k = 0; k < count; k++) {
    if (parent[k] !== -1) continue
    roots.push(k)
    totalWidth += (slots[k] as number) * slotWidth
    tallest = Math.max(tallest, ((below[k] as number) + 1) * rankHeight)
  }
  // Rows about twice as wide as the whole graph is tall, so it fits a landscape pane.
  const rowWidth = Math.max(8 * slotWidth, Math.sqrt(totalWidth * (tallest + ROW_SEP) * 2))
  const left = new Float64Array(count)
  const top = new Float64Array(count)
  let rowX = 0
  let rowY = 8
  let rowHeight = 0
  for (const root of roots) {
    const width = (slots[root] as number) * slotWidth
    if (rowX > 0 && rowX + width > rowWidth) {
      rowX = 0
      rowY += rowHeight + ROW_SEP
      rowHeight = 0
    }
    left[root] = rowX + 8
    top[root] = rowY
    rowX += width
    rowHeight = Math.max(rowHeight, ((below[root] as number) + 1) * rankHeight)
  }
  // Top-down in reverse index order (parents come first): children side by side under their parent's span.
  const x = new Float64Array(count)
  const y = new Float64Array(count)
  for (let k = count - 1; k >= 0; k--) {
    const x0 = left[k] as number
    x[k] = x0 + ((slots[k] as number) * slotWidth - NODE_SEP) / 2 - size.width / 2
    y[k] = top[k] as number
    let cx = x0
    for (const c of children[k] as number[]) {
      left[c] = cx
      top[c] = (top[k] as number) + rankHeight
      cx += (slots[c] as number) * slotWidth
    }
  }
  return { count, x, y, leaves: [], leavesCollapsed: true, parent }
}
