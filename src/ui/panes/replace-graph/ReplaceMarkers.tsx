/**
 * The large graph's per-replacement contract: one `[data-testid=replace-node][data-seq]` button per replacement up
 * to the cursor, visually hidden (the canvas and the in-view React Flow nodes draw them). They also give keyboard
 * and screen-reader users the whole list, which a viewport-virtualized graph would otherwise hide.
 *
 * Why blocks, and why `content-visibility: auto` on each: with thousands of replacements these are twice as many
 * elements, and a trace of the graph-5k bench lane showed the page's style, layout and paint over them (not React
 * Flow) making the long tasks while the log opened and the cursor was dragged. A block off screen (all of them: the list is
 * clipped to a 1 px box) is skipped by style, layout and paint, yet stays in the accessibility tree, in the tab
 * order and in the DOM for queries; a focused button renders its block again. Each block is memoized on what it
 * shows (the seqs of its range, the selection), so a summary or a cursor move re-renders only the block it changes.
 */

import { memo } from 'react'
import type { ReplacementInfo } from '../../../protocol/log-summary.ts'
import { KIND_LABEL } from './ReplaceNode.tsx'

const BLOCK = 256
/** Skipped by rendering while off screen (see above); the intrinsic size keeps a skipped block from collapsing. */
const BLOCK_STYLE = { contentVisibility: 'auto', containIntrinsicSize: 'auto 1px' } as const

interface BlockProps {
  readonly replacements: readonly ReplacementInfo[]
  readonly from: number
  readonly to: number
  /** Index in `replacements` of the selected one when it falls in this block, else -1 (keeps other blocks memoized). */
  readonly selected: number
  readonly onPick: (r: ReplacementInfo) => void
}

function MarkerBlockView({ replacements, from, to, selected, onPick }: BlockProps) {
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
  return (
    <li style={BLOCK_STYLE}>
      <ol>{items}</ol>
    </li>
  )
}

/** Every summary brings new replacement objects for the same replacements: compare what a block shows. */
export function sameBlock(a: BlockProps, b: BlockProps): boolean {
  if (a.from !== b.from || a.to !== b.to || a.selected !== b.selected || a.onPick !== b.onPick) return false
  if (a.replacements === b.replacements) return true
  for (let k = a.from; k < a.to; k++) {
    const x = a.replacements[k]
    const y = b.replacements[k]
    if (x === y) continue
    if (x === undefined || y === undefined) return false
    // A replacement is one event: what it shadowed was fixed when it was folded, so these tell it apart.
    if (x.seq !== y.seq || x.index !== y.index || x.kind !== y.kind || x.shadowedSeqs.length !== y.shadowedSeqs.length)
      return false
  }
  return true
}

const MarkerBlock = memo(MarkerBlockView, sameBlock)

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
