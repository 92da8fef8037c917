/**
 * The replace graph for logs with thousands of replacements. React Flow is kept for the near view but is given only
 * the nodes in view (at most NEAR_NODES_MAX, and only from NEAR_ZOOM in); further out a canvas draws every box and
 * edge up to the cursor. The per-replacement DOM contract is kept by ReplaceMarkers. Why: with thousands of replacements
 * mounted, React Flow itself made long tasks (issue 10); the bench's graph lane (src/bench/browser-lanes.ts)
 * measures this view on the 5,000-replacement preset.
 */

import { useReactFlow, useStore, type NodeMouseHandler, type Edge } from '@xyflow/react'
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react'
import type { ReplacementInfo } from '../../../protocol/log-summary.ts'
import { REPLACE_NODE_SIZE, replaceNodeId, type ReplaceLayout } from '../../../protocol/replace-layout.ts'
import { useChartColors } from '../../shared/chart-colors.ts'
import { drawOverview, parentIndices, type OverviewColors } from './draw-overview.ts'
import { ReplaceMarkers } from './ReplaceMarkers.tsx'
import { ReplaceNodeView } from './ReplaceNode.tsx'
import { replaceFlowNode, type ReplaceFlowNode } from './to-flow-elements.ts'
import { MAX_ZOOM, ReplaceFlow } from './ReplaceFlow.tsx'
import { mountBudget, sameIndices, visibleReplacements, type ViewBox } from './visible-nodes.ts'
import { MIN_LABEL_ZOOM, readableFit } from './readable-fit.ts'

/** Below the zoom where labels are 9 px (readable-fit.ts) the canvas draws the boxes, without text: no label is ever
 * drawn too small to read. */
export const NEAR_ZOOM = MIN_LABEL_ZOOM
/** At most this many React Flow nodes mounted; more in view means the canvas draws. */
export const NEAR_NODES_MAX = 200
/** React Flow nodes mounted per frame at most (the rest on the following frames). */
export const NEAR_NODES_PER_FRAME = 12

const NODE_TYPES = { replace: ReplaceNodeView }

interface Props {
  readonly replacements: readonly ReplacementInfo[]
  readonly layout: ReplaceLayout
  /** Replacements drawn (a prefix, following the cursor). */
  readonly drawn: number
  /** Replacements up to the cursor: `drawn` catches up with it over a few frames; the view fits it at once. */
  readonly fitTo: number
  /**
   * False while the log loads: the canvas draws every box then. Each interim summary refits the view, so React Flow
   * nodes mounted for one summary's near view were unmounted at the next (graph-5k: nodes mounted over the first
   * second, each frame of it a long task, all gone when the second summary zoomed the view out).
   */
  readonly settled: boolean
  /** Event index of the selected entry (or null). */
  readonly selected: number | null
  readonly theme: 'light' | 'dark'
  readonly onPick: (r: ReplacementInfo) => void
}

export function LargeReplaceGraph({ replacements, layout, drawn, fitTo, settled, selected, theme, onPick }: Props) {
  const [visible, setVisible] = useState<number[] | null>([])
  const visibleRef = useRef<number[] | null>([])
  const viewRef = useRef<ViewBox | null>(null)
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const frameRef = useRef(0)
  // The worker's forest layout carries the nesting; walked here only for a layout without it.
  const parent = useMemo(() => layout.parent ?? parentIndices(replacements), [layout, replacements])
  const selectedK = useMemo(
    () => (selected === null ? -1 : replacements.findIndex((r) => r.index === selected)),
    [replacements, selected],
  )
  // The theme's tokens (a canvas cannot read CSS variables), read again when the theme changes.
  const chart = useChartColors()
  const colors = useMemo<OverviewColors>(
    () => ({ summary: chart.compaction, prune: chart.prune, other: chart.muted, edge: chart.line, selected: chart.cursor }),
    [chart],
  )

  // Everything a frame needs, read through a ref so the scheduled frame always sees the latest props.
  // The view fits the cursor's count at once while `drawn` catches up (either way): what it shows never goes past the
  // cursor, so nothing beyond it is drawn while the drawn prefix shrinks.
  const shown = Math.min(drawn, fitTo)
  const latest = useRef({ replacements, layout, shown, settled, selectedK, parent, colors })

  /** The frame callback itself, for a frame that schedules the next (a callback cannot name itself in its body). */
  const nextFrame = useRef<() => void>(() => undefined)
  const frame = useCallback(() => {
    frameRef.current = 0
    const view = viewRef.current
    if (view === null) return
    const s = latest.current
    let inView =
      s.settled && view.zoom >= NEAR_ZOOM ? visibleReplacements(s.layout, s.shown, view, REPLACE_NODE_SIZE, NEAR_NODES_MAX) : null
    if (inView !== null) {
      // A few React Flow nodes per frame: a fit that brings 80 boxes into view mounted them (and React Flow measured
      // them) in one long task while the log opened; the rest follow on the next frames.
      const { indices, done } = mountBudget(visibleRef.current, inView, NEAR_NODES_PER_FRAME)
      inView = indices
      if (!done) frameRef.current = requestAnimationFrame(() => nextFrame.current())
    }
    if (!sameIndices(inView, visibleRef.current)) {
      visibleRef.current = inView
      setVisible(inView)
    }
    const canvas = canvasRef.current
    const ctx = canvas?.getContext('2d')
    if (canvas == null || ctx == null) return
    const dpr = window.devicePixelRatio || 1
    const w = Math.round(view.width * dpr)
    const h = Math.round(view.height * dpr)
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w
      canvas.height = h
    }
    if (inView !== null) {
      ctx.clearRect(0, 0, w, h)
      return
    }
    drawOverview(
      ctx,
      {
        replacements: s.replacements,
        layout: s.layout,
        count: s.shown,
        selected: s.selectedK,
        size: REPLACE_NODE_SIZE,
        parent: s.parent,
      },
      view,
      s.colors,
      dpr,
    )
  }, [])
  useEffect(() => {
    nextFrame.current = frame
  }, [frame])
  const schedule = useCallback(() => {
    if (frameRef.current === 0) frameRef.current = requestAnimationFrame(frame)
  }, [frame])
  useEffect(() => () => cancelAnimationFrame(frameRef.current), [])
  useEffect(() => {
    latest.current = { replacements, layout, shown, settled, selectedK, parent, colors }
    schedule()
  }, [schedule, replacements, layout, shown, settled, selectedK, parent, colors])
  const onView = useCallback(
    (view: ViewBox) => {
      viewRef.current = view
      schedule()
    },
    [schedule],
  )

  // Nodes are built only for the boxes in view, once per summary each: a pan keeps their identity.
  const nodeFor = useMemo(() => memoizedNodes(replacements, layout), [replacements, layout])
  const nodes = useMemo(() => {
    if (visible === null) return []
    return visible.map((k) => {
      const node = nodeFor(k)
      return k === selectedK ? { ...node, selected: true } : node
    })
  }, [visible, nodeFor, selectedK])
  const edges = useMemo(() => {
    if (visible === null) return []
    const shown = new Set(visible)
    const out: Edge[] = []
    for (const k of visible) {
      const p = parent[k] as number
      if (!shown.has(p)) continue
      const source = replaceNodeId((replacements[p] as ReplacementInfo).seq)
      const target = replaceNodeId((replacements[k] as ReplacementInfo).seq)
      out.push({ id: `${source}-${target}`, source, target })
    }
    return out
  }, [visible, parent, replacements])

  const onNodeClick: NodeMouseHandler<ReplaceFlowNode> = (_event, node) => {
    if (node.type === 'replace') onPick(node.data.replacement)
  }
  // In the far view the boxes are pixels on a canvas: a click on the pane picks the box under the pointer.
  const onPaneClick = (event: ReactMouseEvent): void => {
    const view = viewRef.current
    const box = (event.currentTarget as HTMLElement).closest('.react-flow')?.getBoundingClientRect()
    if (view === null || box === undefined) return
    const fx = (event.clientX - box.left - view.x) / view.zoom
    const fy = (event.clientY - box.top - view.y) / view.zoom
    const n = Math.min(shown, layout.count)
    for (let k = n - 1; k >= 0; k--) {
      const x = layout.x[k] as number
      const y = layout.y[k] as number
      if (fx >= x && fx <= x + REPLACE_NODE_SIZE.width && fy >= y && fy <= y + REPLACE_NODE_SIZE.height) {
        onPick(replacements[k] as ReplacementInfo)
        return
      }
    }
  }

  return (
    <>
      <ReplaceFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodeClick={onNodeClick}
        onPaneClick={onPaneClick}
        minZoom={0.002}
        colorMode={theme}
      >
        <ViewTracker onView={onView} />
        <FitLarge layout={layout} count={fitTo} />
      </ReplaceFlow>
      <canvas
        ref={canvasRef}
        data-testid="replace-graph-overview"
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 h-full w-full"
      />
      <ReplaceMarkers replacements={replacements} count={drawn} selected={selectedK} onPick={onPick} />
    </>
  )
}

/** The React Flow node of replacement k, built on first use and then reused (same object for the same summary). */
function memoizedNodes(replacements: readonly ReplacementInfo[], layout: ReplaceLayout): (k: number) => ReplaceFlowNode {
  const built = new Map<number, ReplaceFlowNode>()
  return (k) => {
    let node = built.get(k)
    if (node === undefined) {
      node = replaceFlowNode(replacements[k] as ReplacementInfo, k, layout)
      built.set(k, node)
    }
    return node
  }
}

/** Reports React Flow's transform and pane size (pans, zooms, fits and resizes alike). */
function ViewTracker({ onView }: { onView: (view: ViewBox) => void }) {
  const [x, y, zoom] = useStore((s) => s.transform)
  const width = useStore((s) => s.width)
  const height = useStore((s) => s.height)
  useEffect(() => onView({ x, y, zoom, width, height }), [onView, x, y, zoom, width, height])
  return null
}

/**
 * Fit the boxes up to the cursor, as the small graph does, straight from the layout arrays (no node objects). Not the
 * boxes drawn so far: those grow frame by frame while the graph catches up, and a fit on each of those frames moved
 * the view and mounted and unmounted near-view nodes every frame (long tasks while graph-5k opened). Few boxes
 * that would fit only under the readable zoom (their labels under 9 px) are shown at that zoom from their top
 * instead (readable-fit.ts), so React Flow draws them with their text; many are the far view the canvas draws,
 * with no text at all.
 */
function FitLarge({ layout, count }: { layout: ReplaceLayout; count: number }) {
  const flow = useReactFlow()
  const width = useStore((s) => s.width)
  const height = useStore((s) => s.height)
  // Bounds of every prefix, once per layout: the cursor's count changes on every step of a drag.
  const prefix = useMemo(() => prefixBounds(layout), [layout])
  useEffect(() => {
    const n = Math.min(count, layout.count)
    if (n === 0 || width === 0 || height === 0) return
    const k = 4 * (n - 1)
    const [x0, y0, x1, y1] = [prefix[k] as number, prefix[k + 1] as number, prefix[k + 2] as number, prefix[k + 3] as number]
    const bounds = { x: x0, y: y0, width: x1 - x0 + REPLACE_NODE_SIZE.width, height: y1 - y0 + REPLACE_NODE_SIZE.height }
    const fit = Math.min((width * 0.7) / bounds.width, (height * 0.7) / bounds.height)
    const frame = requestAnimationFrame(() => {
      if (n <= NEAR_NODES_MAX && fit < MIN_LABEL_ZOOM) void flow.setViewport(readableFit(bounds, width, height, 0.08, MAX_ZOOM))
      else void flow.fitBounds(bounds, { padding: 0.15 })
    })
    return () => cancelAnimationFrame(frame)
  }, [flow, layout, prefix, count, width, height])
  return null
}

/** For each k, the min x, min y, max x, max y of the first k + 1 boxes' top-left corners (4 numbers per k). */
function prefixBounds(layout: ReplaceLayout): Float64Array {
  const out = new Float64Array(4 * layout.count)
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  for (let k = 0; k < layout.count; k++) {
    const x = layout.x[k] as number
    const y = layout.y[k] as number
    if (x < x0) x0 = x
    if (y < y0) y0 = y
    if (x > x1) x1 = x
    if (y > y1) y1 = y
    out.set([x0, y0, x1, y1], 4 * k)
  }
  return out
}
