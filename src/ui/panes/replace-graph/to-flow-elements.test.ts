import { describe, expect, it } from 'vitest'
import type { ReplacementInfo } from '../../../protocol/log-summary.ts'
import { LEAF_NODES_MAX, layoutReplacements } from '../../../view/replace-layout.ts'
import { replaceNodeId } from '../../../protocol/replace-layout.ts'
import { flowElementsBuilder, toFlowElements } from './to-flow-elements.ts'

const replacement = (
  seq: number,
  shadowedSeqs: number[],
  nested: boolean[] = shadowedSeqs.map(() => false),
): ReplacementInfo => ({
  seq,
  index: seq,
  start: shadowedSeqs[0] ?? 0,
  end: shadowedSeqs.at(-1) ?? 0,
  shadowedSeqs,
  sourceEventSeqs: shadowedSeqs,
  kind: 'summary',
  compactionId: `c${seq}`,
  shadowedIsReplacement: nested,
})

describe('toFlowElements', () => {
  it('links a nested replacement to the one it swallowed, groups many leaves, and keeps each prefix a prefix', () => {
    const many = Array.from({ length: LEAF_NODES_MAX + 3 }, (_, i) => i + 1)
    const all = [replacement(20, many), replacement(30, [20, 25], [true, false])]
    const { nodes, edges, nodeEnd, edgeEnd } = toFlowElements(all, layoutReplacements(all))
    expect(nodes.filter((n) => n.type === 'replace').map((n) => n.id)).toEqual([replaceNodeId(20), replaceNodeId(30)])
    expect(edges).toContainEqual(expect.objectContaining({ source: replaceNodeId(30), target: replaceNodeId(20) }))
    expect(nodes.filter((n) => n.type === 'leaf')).toHaveLength(2)
    // The graph up to the first replacement: its node and its one range leaf, nothing of the second.
    expect(nodes.slice(0, nodeEnd[1]).map((n) => n.id)).toEqual([replaceNodeId(20), 'l20-1'])
    expect(edges.slice(0, edgeEnd[1]).every((e) => e.source === replaceNodeId(20))).toBe(true)
    expect(nodeEnd[2]).toBe(nodes.length)
    expect(edgeEnd[2]).toBe(edges.length)
    // The worker's layout put the outer replacement above the one it swallowed.
    const y = (id: string) => nodes.find((n) => n.id === id)?.position.y ?? NaN
    expect(y(replaceNodeId(30))).toBeLessThan(y(replaceNodeId(20)))
  })

  it('keeps every node and edge a new summary leaves in place, so React Flow does not measure them again', () => {
    const first = [replacement(20, [1, 2]), replacement(30, [20, 25], [true, false])]
    const build = flowElementsBuilder()
    const before = build(first, layoutReplacements(first))
    // The next summary: the same replacement objects (summary-delta.ts keeps them) in a new array and a new layout.
    const again = build([...first], layoutReplacements([...first]))
    expect(before.nodes.map((n) => n.id)).toEqual([replaceNodeId(20), 'l20-1', 'l20-2', replaceNodeId(30), 'l30-25'])
    expect(again.nodes).toHaveLength(before.nodes.length)
    again.nodes.forEach((node, i) => expect(node).toBe(before.nodes[i]))
    again.edges.forEach((edge, i) => expect(edge).toBe(before.edges[i]))
    // A replacement the worker sent again as a new object is a new node (its data may differ)...
    const changed = [first[0] as ReplacementInfo, { ...(first[1] as ReplacementInfo) }]
    const after = build(changed, layoutReplacements(changed))
    expect(after.nodes.find((n) => n.id === replaceNodeId(30))).not.toBe(again.nodes.find((n) => n.id === replaceNodeId(30)))
    expect(after.nodes.find((n) => n.id === replaceNodeId(20))).toBe(again.nodes.find((n) => n.id === replaceNodeId(20)))
    // ...and so is one the layout moved, or a leaf whose seqs changed.
    const moved = layoutReplacements(changed)
    const x = Float64Array.from(moved.x, (v, k) => (k === 0 ? v + 1 : v))
    const leaves = moved.leaves.map((l) => (l.id === 'l30-25' ? { ...l, seqs: [25, 26] } : l))
    const shifted = build(changed, { ...moved, x, leaves })
    expect(shifted.nodes.find((n) => n.id === replaceNodeId(20))).not.toBe(after.nodes.find((n) => n.id === replaceNodeId(20)))
    expect(shifted.nodes.find((n) => n.id === replaceNodeId(20))?.position.x).toBe(x[0])
    expect(shifted.nodes.find((n) => n.id === 'l30-25')).not.toBe(after.nodes.find((n) => n.id === 'l30-25'))
    expect(shifted.nodes.find((n) => n.id === 'l20-1')).toBe(after.nodes.find((n) => n.id === 'l20-1'))
  })
})
