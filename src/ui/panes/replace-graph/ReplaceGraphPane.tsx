/** React Flow graph of every replace operation up to the cursor; clicking a node moves the cursor there. */

import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { Background, useReactFlow, useStore, type NodeMouseHandler } from '@xyflow/react'
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectLoadState, selectSelected, selectSnapshot, selectSummary, selectTheme } from '../../../store/selectors.ts'
import type { ReplacementInfo } from '../../../protocol/log-summary.ts'
import { EMPTY_LAYOUT } from '../../../protocol/replace-layout.ts'
import { loadedPart, usesLargeGraph } from './graph-view.ts'
import { LargeReplaceGraph } from './LargeReplaceGraph.tsx'
import { LeafNode, ReplaceNode } from './ReplaceNode.tsx'
import { flowElementsBuilder, graphBounds, type FlowElements, type ReplaceFlowNode } from './to-flow-elements.ts'
import { useGraphCatchUp } from './use-graph-catch-up.ts'
import { ReplaceFlow } from './ReplaceFlow.tsx'
import { shortcutFor } from '../../shared/shortcuts.ts'
import { MIN_LABEL_ZOOM, readableFit } from './readable-fit.ts'
import { MAX_ZOOM } from './ReplaceFlow.tsx'

/** Room left around the graph when it is fitted, as a share of the pane on each side. */
const FIT_PADDING = 0.08

const NODE_TYPES = { replace: ReplaceNode, leaf: LeafNode }
/** Marker buttons mounted per frame while the large graph catches up with the cursor (they are plain buttons). */
const LARGE_MARKERS_PER_FRAME = 256
const NO_ELEMENTS: FlowElements = { nodes: [], edges: [], nodeEnd: new Int32Array(1), edgeEnd: new Int32Array(1) }

export function ReplaceGraphPane() {
  const store = useLensStoreApi()
  const summary = useLensStore(selectSummary)
  const snapshot = useLensStore(selectSnapshot)
  const selected = useLensStore(selectSelected)
  const theme = useLensStore(selectTheme)
  const loadState = useLensStore(selectLoadState)
  const count = snapshot?.replacementCount ?? 0
  // Built once per layout the worker sends; a cursor move only picks a prefix, so node objects keep their
  // identity and React Flow mounts or unmounts just the nodes that crossed the cursor. The builder also keeps each
  // unchanged node of the previous layout, so a new summary re-measures only the nodes it moved or added.
  const [toFlowElements] = useState(flowElementsBuilder)
  // A boolean selector: progress changes ten times a second while loading, the view only once.
  const large = useLensStore((s) => usesLargeGraph(s.loadState, s.summary?.replacements.length ?? 0, loadedPart(s.progress)))
  // The large graph builds React Flow nodes only for the boxes in view (LargeReplaceGraph): building all 5,000 on
  // every interim summary was O(replacements) main-thread work per summary while the log opened.
  const all = useMemo(
    () => (large ? NO_ELEMENTS : toFlowElements(summary?.replacements ?? [], summary?.replaceLayout ?? EMPTY_LAYOUT)),
    [large, summary?.replacements, summary?.replaceLayout, toFlowElements],
  )
  // One node per replacement there (leaves are collapsed above LEAVES_COLLAPSE_ABOVE): the first k own k nodes.
  const laidOut = large ? Math.min(summary?.replacements.length ?? 0, summary?.replaceLayout.count ?? 0) : 0
  const largeNodeEnd = useMemo(() => Int32Array.from({ length: laidOut + 1 }, (_, k) => k), [laidOut])
  const nodeEnd = large ? largeNodeEnd : all.nodeEnd
  // A jump across many replacements is mounted over a few frames (a bounded node budget each), never in one task.
  const target = Math.min(count, nodeEnd.length - 1)
  const drawn = useGraphCatchUp(target, nodeEnd, large ? LARGE_MARKERS_PER_FRAME : undefined)
  const nodes = useMemo(() => (large ? [] : all.nodes.slice(0, all.nodeEnd[drawn])), [all, drawn, large])
  const edges = useMemo(() => (large ? [] : all.edges.slice(0, all.edgeEnd[drawn])), [all, drawn, large])
  const shown = useMemo(
    () => nodes.map((n) => (n.type === 'replace' && n.data.replacement.index === selected ? { ...n, selected: true } : n)),
    [nodes, selected],
  )

  const pick = (node: ReplaceFlowNode | undefined): void => {
    if (node?.type !== 'replace') return
    const index = node.data.replacement.index
    store.getState().setCursor(index)
    store.getState().select(index, 'graph')
  }
  // Stable, so the large graph's memoized marker blocks do not all re-render on every cursor move.
  const pickReplacement = useCallback(
    (r: ReplacementInfo): void => {
      store.getState().setCursor(r.index)
      store.getState().select(r.index, 'graph')
    },
    [store],
  )
  const onNodeClick: NodeMouseHandler<ReplaceFlowNode> = (_event, node) => pick(node)
  // React Flow makes nodes focusable (Tab); Enter on a focused node acts like a click.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (shortcutFor('graph', event) !== 'pick') return
    const id = (document.activeElement as HTMLElement | null)?.closest('.react-flow__node')?.getAttribute('data-id')
    if (id == null) return
    event.preventDefault()
    pick(nodes.find((n) => n.id === id))
  }

  return (
    <PaneFrame
      title="Replace graph"
      testId="replace-graph"
      count={count}
      status={
        summary?.replaceLayout.leavesCollapsed === true ? (
          <span className="text-xs text-muted">shadowed seqs counted on each node</span>
        ) : null
      }
      className="flex-1"
      onKeyDown={onKeyDown}
    >
      <div className="relative min-h-0 flex-1">
        {count === 0 ? (
          // Centred, so it never sits under the zoom controls in the top-left corner.
          <p className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center p-3 text-center text-muted">
            No replace operations up to the cursor.
          </p>
        ) : null}
        {large && summary !== null ? (
          <LargeReplaceGraph
            replacements={summary.replacements}
            layout={summary.replaceLayout}
            drawn={drawn}
            fitTo={target}
            settled={loadState !== 'loading'}
            selected={selected}
            theme={theme}
            onPick={pickReplacement}
          />
        ) : (
          <ReplaceFlow
            nodes={shown}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodeClick={onNodeClick}
            minZoom={MIN_LABEL_ZOOM}
            // At the smallest readable zoom a big graph does not fit: the wheel scrolls it (Ctrl+wheel zooms).
            panOnScroll
            colorMode={theme}
          >
            <Background />
            <FitOnChange nodes={nodes} />
          </ReplaceFlow>
        )}
      </div>
    </PaneFrame>
  )
}

/**
 * Re-fit the view when the nodes change (the cursor crossed a replace) or the pane is resized. `fitView()` is
 * queued through a node update, which never runs for controlled nodes without `onNodesChange`; a viewport computed
 * from the bounds dagre gave us applies directly, and never so far out that labels shrink under 9 px
 * (readable-fit.ts).
 */
function FitOnChange({ nodes }: { nodes: readonly ReplaceFlowNode[] }) {
  const flow = useReactFlow()
  const width = useStore((s) => s.width)
  const height = useStore((s) => s.height)
  useEffect(() => {
    if (nodes.length === 0 || width === 0 || height === 0) return
    const frame = requestAnimationFrame(
      () => void flow.setViewport(readableFit(graphBounds(nodes), width, height, FIT_PADDING, MAX_ZOOM)),
    )
    return () => cancelAnimationFrame(frame)
  }, [flow, nodes, width, height])
  return null
}
