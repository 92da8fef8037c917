import { describe, expect, it } from 'vitest'
import type { ReplacementInfo } from '../../../worker/protocol.ts'
import { LEAF_NODES_MAX, layoutReplacements } from '../../../worker/replace-layout.ts'
import { replaceNodeId, toFlowElements } from './to-flow-elements.ts'

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
})
