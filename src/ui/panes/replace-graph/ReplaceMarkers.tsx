/**
 * The large graph's per-replacement contract: one `[data-testid=replace-node][data-seq]` button per replacement up
 * to the cursor, visually hidden (the canvas and the in-view React Flow nodes draw them). They also give keyboard
 * and screen-reader users the whole list, which a viewport-virtualized graph would otherwise hide. Rendered in
 * memoized blocks, so a cursor move re-renders one block instead of diffing thousands of children.
 */

import { memo } from 'react'
import type { ReplacementInfo } from '../../../worker/protocol.ts'
import { KIND_LABEL } from './ReplaceNode.tsx'

const BLOCK = 256

interface BlockProps {
  readonly replacements: readonly ReplacementInfo[]
  readonly from: number
  readonly to: number
  /** Index in `replacements` of the selected one when it falls in this block, else -1 (keeps other blocks memoized). */
  readonly selected: number
  readonly onPick: (r: ReplacementInfo) => void
}

const MarkerBlock = memo(function MarkerBlock({ replacements, from, to, selected, onPick }: BlockProps) {
  const items = []
  for (let k = from; k < to; k++) {
    const r = replacements[k]
    if (r === undefined) break
    const nested = r.shadowedIsReplacement.filter(Boolean).length
    items.push(
      <li key={r.seq}>
        <button
          type="button"
          data-testid="replace-node"
          data-seq={r.seq}
          aria-current={k === selected ? 'true' : undefined}
          onClick={() => onPick(r)}
        >
          #{r.seq} {KIND_LABEL[r.kind]}, shadows {r.shadowedSeqs.length}
          {nested > 0 ? ` (${nested} nested)` : ''}
        </button>
      </li>,
    )
  }
  return <>{items}</>
})

export function ReplaceMarkers({
  replacements,
  count,
  selected,
  onPick,
}: {
  replacements: readonly ReplacementInfo[]
  count: number
  selected: number
  onPick: (r: ReplacementInfo) => void
}) {
  const blocks = []
  for (let from = 0; from < count; from += BLOCK) {
    const to = Math.min(count, from + BLOCK)
    blocks.push(
      <MarkerBlock
        key={from}
        replacements={replacements}
        from={from}
        to={to}
        selected={selected >= from && selected < to ? selected : -1}
        onPick={onPick}
      />,
    )
  }
  return (
    <ol className="sr-only" aria-label="Replacements up to the cursor">
      {blocks}
    </ol>
  )
}
