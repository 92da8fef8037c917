/** Graph nodes: a replacement (kind, compaction id, shadowed counts) and a leaf of plain shadowed seqs. */

import { memo } from 'react'
import { Handle, Position, type NodeProps, type Node } from '@xyflow/react'
import type { LeafNodeData, ReplaceNodeData } from './to-flow-elements.ts'

const KIND_LABEL = { summary: 'compaction summary', prune: 'pruned tool result', other: 'replace' } as const

/** Memoized: every replacement up to the cursor is mounted, so a re-render must skip the unchanged ones. */
export const ReplaceNode = memo(function ReplaceNode({ data, selected }: NodeProps<Node<ReplaceNodeData, 'replace'>>) {
  const r = data.replacement
  return (
    <div
      data-testid="replace-node"
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
})

export const LeafNode = memo(function LeafNode({ data }: NodeProps<Node<LeafNodeData, 'leaf'>>) {
  return (
    <div className="flex h-full w-full items-center justify-center rounded border border-line bg-raised font-mono text-xs text-muted">
      <Handle type="target" position={Position.Top} />
      {data.label}
    </div>
  )
})
