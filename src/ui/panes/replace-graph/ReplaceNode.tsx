/** Graph nodes: a replacement (kind, compaction id, shadowed counts) and a leaf of plain shadowed seqs. */

import { memo } from 'react'
import { Handle, Position, type NodeProps, type Node } from '@xyflow/react'
import type { LeafNodeData, ReplaceNodeData } from './to-flow-elements.ts'

export const KIND_LABEL = { summary: 'compaction summary', prune: 'pruned tool result', other: 'replace' } as const

type ReplaceNodeProps = NodeProps<Node<ReplaceNodeData, 'replace'>>

/** Memoized: every replacement up to the cursor is mounted, so a re-render must skip the unchanged ones. */
export const ReplaceNode = memo(function ReplaceNode(props: ReplaceNodeProps) {
  return <ReplaceNodeBody {...props} testId="replace-node" />
})

/** The same box in the large graph, where only the nodes in view are mounted: the per-replacement contract
 * (`replace-node`) is carried by the marker list there (ReplaceMarkers), so this one is named apart. */
export const ReplaceNodeView = memo(function ReplaceNodeView(props: ReplaceNodeProps) {
  return <ReplaceNodeBody {...props} testId="replace-node-view" />
})

function ReplaceNodeBody({ data, selected, testId }: ReplaceNodeProps & { testId: string }) {
  const r = data.replacement
  return (
    <div
      data-testid={testId}
      data-seq={r.seq}
      className={`h-full w-full rounded border bg-panel px-2 py-1 text-xs text-ink ${selected ? 'border-accent ring-2 ring-accent' : 'border-warn'}`}
    >
      <Handle type="target" position={Position.Top} />
      <div className="flex items-center gap-1">
        <span className="font-mono font-semibold">#{r.seq}</span>
        <span className="text-warn">{KIND_LABEL[r.kind]}</span>
      </div>
      <div className="truncate text-muted" title={r.compactionId ?? undefined}>
        {r.compactionId !== null ? r.compactionId : `declared #${r.start}–#${r.end}`}
      </div>
      <div className="text-muted">
        shadows {r.shadowedSeqs.length}
        {data.nestedCount > 0 ? ` (${data.nestedCount} nested)` : ''}
      </div>
      <Handle type="source" position={Position.Bottom} />
    </div>
  )
}

export const LeafNode = memo(function LeafNode({ data }: NodeProps<Node<LeafNodeData, 'leaf'>>) {
  return (
    <div className="flex h-full w-full items-center justify-center rounded border border-line bg-raised font-mono text-xs text-muted">
      <Handle type="target" position={Position.Top} />
      {data.label}
    </div>
  )
})
