/**
 * Worker-side layout of the whole replace DAG (replacement nodes, nested replacements as edges, shadowed-seq
 * leaves), computed with dagre once per log so the main thread only slices the prefix up to the cursor.
 */

import * as dagre from '@dagrejs/dagre'
import type { ReplacementInfo } from '../protocol/log-summary.ts'
import { layoutForest, nestingParents } from './replace-forest-layout.ts'
import {
  EMPTY_LAYOUT,
  LEAF_NODE_SIZE,
  LEAVES_COLLAPSE_ABOVE,
  REPLACE_NODE_SIZE,
  replaceNodeId,
  type ReplaceLayout,
} from '../protocol/replace-layout.ts'

/** Up to this many plain shadowed seqs get a node each; more are drawn as one range node. */
export const LEAF_NODES_MAX = 4
/** With more replacements than this, the linear forest layout replaces dagre (whose cost grows superlinearly, and
 * the log is not ready until its layout is). */
export const FOREST_LAYOUT_ABOVE = 600
const NODE_SEP = 16
const RANK_SEP = 40

/** The leaf groups of one replacement: each plain shadowed seq alone, or one range when there are many. */
function leafGroups(r: ReplacementInfo): number[][] {
  const plain = r.shadowedSeqs.filter((_, i) => r.shadowedIsReplacement[i] !== true)
  if (plain.length === 0) return []
  return plain.length <= LEAF_NODES_MAX ? plain.map((s) => [s]) : [plain]
}

function leafLabel(group: readonly number[]): string {
  const first = group[0] as number
  const last = group[group.length - 1] as number
  return group.length === 1 ? `#${first}` : `#${first} … #${last} (${group.length})`
}

/** Full dagre layout of every replacement given. Cost grows superlinearly: run it in the worker only. */
export function layoutReplacements(replacements: readonly ReplacementInfo[]): ReplaceLayout {
  const count = replacements.length
  if (count === 0) return EMPTY_LAYOUT
  if (count > FOREST_LAYOUT_ABOVE) return layoutForest(replacements, REPLACE_NODE_SIZE)
  const collapsed = count > LEAVES_COLLAPSE_ABOVE
  const g = new dagre.graphlib.Graph()
  g.setGraph({ rankdir: 'TB', nodesep: NODE_SEP, ranksep: RANK_SEP, marginx: 8, marginy: 8 })
  g.setDefaultEdgeLabel(() => ({}))
  const pending: { id: string; owner: number; group: number[] }[] = []
  replacements.forEach((r, k) => {
    const id = replaceNodeId(r.seq)
    g.setNode(id, { ...REPLACE_NODE_SIZE })
    r.shadowedSeqs.forEach((s, i) => {
      if (r.shadowedIsReplacement[i] === true) g.setEdge(id, replaceNodeId(s))
    })
    if (collapsed) return
    for (const group of leafGroups(r)) {
      const leafId = `l${r.seq}-${group[0] as number}`
      g.setNode(leafId, { ...LEAF_NODE_SIZE })
      g.setEdge(id, leafId)
      pending.push({ id: leafId, owner: k, group })
    }
  })
  dagre.layout(g)
  const x = new Float64Array(count)
  const y = new Float64Array(count)
  replacements.forEach((r, k) => {
    // dagre gives centres; React Flow wants the top-left corner.
    const p = g.node(replaceNodeId(r.seq))
    x[k] = p.x - REPLACE_NODE_SIZE.width / 2
    y[k] = p.y - REPLACE_NODE_SIZE.height / 2
  })
  const leaves = pending.map(({ id, owner, group }) => {
    const p = g.node(id)
    return {
      id,
      owner,
      label: leafLabel(group),
      seqs: group,
      x: p.x - LEAF_NODE_SIZE.width / 2,
      y: p.y - LEAF_NODE_SIZE.height / 2,
    }
  })
  return { count, x, y, leaves, leavesCollapsed: collapsed, ...(collapsed ? { parent: nestingParents(replacements) } : {}) }
}

/**
 * Cheap placement for replacements appended to a live log since the last full layout: each new one goes on a
 * new rank above everything (a later replacement can only shadow earlier events), its leaves on the rank below
 * it. O(new nodes); the next full layout tidies up.
 */
export function extendLayout(previous: ReplaceLayout, replacements: readonly ReplacementInfo[]): ReplaceLayout {
  const count = replacements.length
  if (count <= previous.count) return previous
  if (previous.count === 0 || previous.leavesCollapsed !== count > LEAVES_COLLAPSE_ABOVE) return layoutReplacements(replacements)
  const x = new Float64Array(count)
  const y = new Float64Array(count)
  x.set(previous.x)
  y.set(previous.y)
  let top = Math.min(...previous.y, ...previous.leaves.map((l) => l.y))
  const left = Math.min(...previous.x)
  const leaves = [...previous.leaves]
  for (let k = previous.count; k < count; k++) {
    const r = replacements[k] as ReplacementInfo
    const groups = previous.leavesCollapsed ? [] : leafGroups(r)
    const leafY = top - RANK_SEP - LEAF_NODE_SIZE.height
    const nodeY = (groups.length > 0 ? leafY : top) - RANK_SEP - REPLACE_NODE_SIZE.height
    x[k] = left
    y[k] = nodeY
    groups.forEach((group, i) =>
      leaves.push({
        id: `l${r.seq}-${group[0] as number}`,
        owner: k,
        label: leafLabel(group),
        seqs: group,
        x: left + i * (LEAF_NODE_SIZE.width + NODE_SEP),
        y: leafY,
      }),
    )
    top = nodeY
  }
  const parent = previous.leavesCollapsed ? { parent: nestingParents(replacements, previous.parent) } : {}
  return { count, x, y, leaves, leavesCollapsed: previous.leavesCollapsed, ...parent }
}
