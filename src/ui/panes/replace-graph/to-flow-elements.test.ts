import { describe, expect, it } from 'vitest'
import type { ReplacementInfo } from '../../../worker/protocol.ts'
import { LEAF_NODES_MAX, replaceNodeId, toFlowElements } from './to-flow-elements.ts'

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
  it('links a nested replacement to the one it swallowed, and groups many leaves', () => {
    const many = Array.from({ length: LEAF_NODES_MAX + 3 }, (_, i) => i + 1)
    const { nodes, edges } = toFlowElements([replacement(20, many), replacement(30, [20, 25], [true, false])])
    expect(nodes.filter((n) => n.type === 'replace').map((n) => n.id)).toEqual([replaceNodeId(20), replaceNodeId(30)])
    expect(edges).toContainEqual(expect.objectContaining({ source: replaceNodeId(30), target: replaceNodeId(20) }))
    const leaves = nodes.filter((n) => n.type === 'leaf')
    expect(leaves).toHaveLength(2)
    // dagre put the outer replacement above the one it swallowed.
    const y = (id: string) => nodes.find((n) => n.id === id)?.position.y ?? NaN
    expect(y(replaceNodeId(30))).toBeLessThan(y(replaceNodeId(20)))
  })
})
