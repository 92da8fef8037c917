/**
 * Pure: the worker's replace-graph layout -> React Flow nodes and edges for the whole log, ordered so that the
 * graph up to any cursor is a prefix of each array (no layout on the main thread, no relayout on cursor moves).
 * Each replacement links to what it shadowed: nested replacements as nodes (a DAG), plain seqs as leaves.
 */

import type { Edge, Node } from '@xyflow/react'
import type { ReplacementInfo } from '../../../protocol/log-summary.ts'
import {
  LEAF_NODE_SIZE,
  REPLACE_NODE_SIZE,
  replaceNodeId,
  type GraphLeaf,
  type ReplaceLayout,
} from '../../../protocol/replace-layout.ts'

export interface ReplaceNodeData extends Record<string, unknown> {
  readonly replacement: ReplacementInfo
  readonly nestedCount: number
}

export interface LeafNodeData extends Record<string, unknown> {
  readonly label: string
  readonly seqs: readonly number[]
}

export type ReplaceFlowNode = Node<ReplaceNodeData, 'replace'> | Node<LeafNodeData, 'leaf'>

/** Every element of the log's graph; the first k replacements own `nodes[0, nodeEnd[k])` and `edges[0, edgeEnd[k])`. */
export interface FlowElements {
  readonly nodes: readonly ReplaceFlowNode[]
  readonly edges: readonly Edge[]
  readonly nodeEnd: Int32Array
  readonly edgeEnd: Int32Array
}

/** The React Flow node of the replacement numbered `k` (the large graph builds these only for the ones in view). */
export function replaceFlowNode(r: ReplacementInfo, k: number, layout: ReplaceLayout): ReplaceFlowNode {
  let nestedCount = 0
  for (const nested of r.shadowedIsReplacement) if (nested) nestedCount++
  return {
    id: replaceNodeId(r.seq),
    type: 'replace',
    position: { x: layout.x[k] as number, y: layout.y[k] as number },
    data: { replacement: r, nestedCount },
    ...REPLACE_NODE_SIZE,
  }
}

/**
 * @param replacements every replacement of the log, in event order
 * @param layout the worker's positions for (at least a prefix of) them; replacements beyond it are left out
 * @param previous the elements built from the previous summary: every node and edge that has not changed is that
 *   very object. React Flow keeps a node's measured size only while the object it was given stays the same; a new
 *   object is a new node to it, measured again by its ResizeObserver and rendered twice more. Every summary brings a
 *   new layout, so without this each one (and `ready`) re-measured the whole graph, a good part of the ready
 *   frame's CPU in a trace of the 280k `?log=` load, for a graph that had not changed.
 */
export function toFlowElements(
  replacements: readonly ReplacementInfo[],
  layout: ReplaceLayout,
  previous?: FlowElements,
): FlowElements {
  const count = Math.min(replacements.length, layout.count)
  const oldNodes = new Map(previous?.nodes.map((n) => [n.id, n]))
  const oldEdges = new Map(previous?.edges.map((e) => [e.id, e]))
  // An edge's id names both ends, so an edge with the same id is the same edge.
  const edge = (source: string, target: string): Edge => {
    const id = `${source}-${target}`
    return oldEdges.get(id) ?? { id, source, target }
  }
  const nodes: ReplaceFlowNode[] = []
  const edges: Edge[] = []
  const nodeEnd = new Int32Array(count + 1)
  const edgeEnd = new Int32Array(count + 1)
  let leaf = 0
  for (let k = 0; k < count; k++) {
    const r = replacements[k] as ReplacementInfo
    const id = replaceNodeId(r.seq)
    r.shadowedSeqs.forEach((s, i) => {
      if (r.shadowedIsReplacement[i] !== true) return
      edges.push(edge(id, replaceNodeId(s)))
    })
    nodes.push(sameReplaceNode(oldNodes.get(id), r, k, layout) ?? replaceFlowNode(r, k, layout))
    for (; leaf < layout.leaves.length && layout.leaves[leaf]?.owner === k; leaf++) {
      const l = layout.leaves[leaf]
      if (l === undefined) break
      nodes.push(
        sameLeafNode(oldNodes.get(l.id), l) ?? {
          id: l.id,
          type: 'leaf',
          position: { x: l.x, y: l.y },
          data: { label: l.label, seqs: l.seqs },
          ...LEAF_NODE_SIZE,
        },
      )
      edges.push(edge(id, l.id))
    }
    nodeEnd[k + 1] = nodes.length
    edgeEnd[k + 1] = edges.length
  }
  return { nodes, edges, nodeEnd, edgeEnd }
}

/** A `toFlowElements` that hands each call the elements of the one before (one per graph pane). */
export function flowElementsBuilder(): (replacements: readonly ReplacementInfo[], layout: ReplaceLayout) => FlowElements {
  let previous: FlowElements | undefined
  return (replacements, layout) => (previous = toFlowElements(replacements, layout, previous))
}

/** The previous node of replacement `k` when nothing it shows has changed (the replacement keeps its identity from
 * one summary to the next: summary-delta.ts). */
function sameReplaceNode(
  old: ReplaceFlowNode | undefined,
  r: ReplacementInfo,
  k: number,
  layout: ReplaceLayout,
): ReplaceFlowNode | undefined {
  if (old?.type !== 'replace' || old.data.replacement !== r) return undefined
  return old.position.x === layout.x[k] && old.position.y === layout.y[k] ? old : undefined
}

/** The previous node of a leaf when it sits at the same place with the same label and seqs (leaves are new objects
 * in every layout the worker sends, so they are compared by value). */
function sameLeafNode(old: ReplaceFlowNode | undefined, leaf: GraphLeaf): ReplaceFlowNode | undefined {
  if (old?.type !== 'leaf' || old.position.x !== leaf.x || old.position.y !== leaf.y) return undefined
  const { label, seqs } = old.data
  if (label !== leaf.label || seqs.length !== leaf.seqs.length) return undefined
  return seqs.every((seq, i) => seq === leaf.seqs[i]) ? old : undefined
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
