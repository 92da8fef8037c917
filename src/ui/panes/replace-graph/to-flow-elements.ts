/**
 * Pure: replace operations up to the cursor -> React Flow nodes and edges, laid out by dagre. Each replacement
 * links to what it shadowed; a shadowed replacement (a compaction that swallowed an earlier summary) is linked
 * as a node, so nesting reads as a DAG. Plain shadowed seqs are leaves, grouped when there are many.
 */

import * as dagre from '@dagrejs/dagre'
import type { Edge, Node } from '@xyflow/react'
import type { ReplacementInfo } from '../../../worker/protocol.ts'

export const REPLACE_NODE_SIZE = { width: 190, height: 66 } as const
export const LEAF_NODE_SIZE = { width: 110, height: 30 } as const
/** Up to this many plain shadowed seqs get a node each; more are drawn as one range node. */
export const LEAF_NODES_MAX = 4

export interface ReplaceNodeData extends Record<string, unknown> {
  readonly replacement: ReplacementInfo
  readonly nestedCount: number
}

export interface LeafNodeData extends Record<string, unknown> {
  readonly label: string
  readonly seqs: readonly number[]
}

export type ReplaceFlowNode = Node<ReplaceNodeData, 'replace'> | Node<LeafNodeData, 'leaf'>

export function replaceNodeId(seq: number): string {
  return `r${seq}`
}

/**
 * @param replacements the prefix of the log's replacements folded at or before the cursor, in event order.
 */
export function toFlowElements(replacements: readonly ReplacementInfo[]): { nodes: ReplaceFlowNode[]; edges: Edge[] } {
  const nodes: ReplaceFlowNode[] = []
  const edges: Edge[] = []
  const known = new Set(replacements.map((r) => r.seq))
  for (const r of replacements) {
    const id = replaceNodeId(r.seq)
    const nested = r.shadowedSeqs.filter((s) => known.has(s))
    const plain = r.shadowedSeqs.filter((s) => !known.has(s))
    nodes.push({
      id,
      type: 'replace',
      position: { x: 0, y: 0 },
      data: { replacement: r, nestedCount: nested.length },
      ...REPLACE_NODE_SIZE,
    })
    for (const s of nested) edges.push({ id: `${id}-${replaceNodeId(s)}`, source: id, target: replaceNodeId(s) })
    if (plain.length === 0) continue
    const groups = plain.length <= LEAF_NODES_MAX ? plain.map((s) => [s]) : [plain]
    for (const group of groups) {
      const first = group[0] as number
      const last = group[group.length - 1] as number
      const leafId = `l${r.seq}-${first}`
      const label = group.length === 1 ? `#${first}` : `#${first} … #${last} (${group.length})`
      nodes.push({ id: leafId, type: 'leaf', position: { x: 0, y: 0 }, data: { label, seqs: group }, ...LEAF_NODE_SIZE })
      edges.push({ id: `${id}-${leafId}`, source: id, target: leafId })
    }
  }
  return { nodes: layout(nodes, edges), edges }
}

function layout(nodes: ReplaceFlowNode[], edges: Edge[]): ReplaceFlowNode[] {
  const g = new dagre.graphlib.Graph()
  g.setGraph({ rankdir: 'TB', nodesep: 16, ranksep: 40, marginx: 8, marginy: 8 })
  g.setDefaultEdgeLabel(() => ({}))
  for (const n of nodes) g.setNode(n.id, { width: n.width ?? 0, height: n.height ?? 0 })
  for (const e of edges) g.setEdge(e.source, e.target)
  dagre.layout(g)
  return nodes.map((n) => {
    const p = g.node(n.id)
    // dagre gives centres; React Flow wants the top-left corner.
    return { ...n, position: { x: p.x - (n.width ?? 0) / 2, y: p.y - (n.height ?? 0) / 2 } }
  })
}

/** The box around laid-out nodes, in flow coordinates (for fitting the view). */
export function graphBounds(nodes: readonly ReplaceFlowNode[]): { x: number; y: number; width: number; height: number } {
  let x0 = Infinity
  let y0 = Infinity
  let x1 = -Infinity
  let y1 = -Infinity
  for (const n of nodes) {
    x0 = Math.min(x0, n.position.x)
    y0 = Math.min(y0, n.position.y)
    x1 = Math.max(x1, n.position.x + (n.width ?? 0))
    y1 = Math.max(y1, n.position.y + (n.height ?? 0))
  }
  return nodes.length === 0 ? { x: 0, y: 0, width: 0, height: 0 } : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}
