/**
 * Canvas drawing of a large replace graph when the view is too far out for DOM nodes: one box per replacement up
 * to the cursor (summaries and prunes in their colours, the selected one outlined) and a line per nesting edge.
 * Thousands of rects and lines cost a small part of a frame, where as many React Flow nodes make long tasks.
 */

import type { ReplacementInfo } from '../../../protocol/log-summary.ts'
import type { ReplaceLayout } from '../../../protocol/replace-layout.ts'
import type { ViewBox } from './visible-nodes.ts'

export interface OverviewColors {
  readonly summary: string
  readonly prune: string
  readonly other: string
  readonly edge: string
  readonly selected: string
}

export interface OverviewScene {
  readonly replacements: readonly ReplacementInfo[]
  readonly layout: ReplaceLayout
  /** Replacements drawn: the first `count`. */
  readonly count: number
  /** Index in `replacements` of the selected one, or -1. */
  readonly selected: number
  readonly size: { readonly width: number; readonly height: number }
  /** Child index -> parent index (the replacement that swallowed it), -1 for none. */
  readonly parent: Int32Array
}

/** For each replacement, the index of the one that nested it (or -1); computed once per summary. */
export function parentIndices(replacements: readonly ReplacementInfo[]): Int32Array {
  const bySeq = new Map<number, number>()
  replacements.forEach((r, k) => bySeq.set(r.seq, k))
  const parent = new Int32Array(replacements.length).fill(-1)
  replacements.forEach((r, k) =>
    r.shadowedSeqs.forEach((s, i) => {
      const child = r.shadowedIsReplacement[i] === true ? bySeq.get(s) : undefined
      if (child !== undefined && parent[child] === -1) parent[child] = k
    }),
  )
  return parent
}

export function drawOverview(
  ctx: CanvasRenderingContext2D,
  scene: OverviewScene,
  view: ViewBox,
  colors: OverviewColors,
  dpr: number,
): void {
  const { layout, size } = scene
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
  ctx.clearRect(0, 0, view.width, view.height)
  const n = Math.min(scene.count, layout.count)
  if (n === 0) return
  const z = view.zoom
  const x0 = -view.x / z
  const y0 = -view.y / z
  const x1 = x0 + view.width / z
  const y1 = y0 + view.height / z
  const w = Math.max(1, size.width * z)
  const h = Math.max(1, size.height * z)
  // Edges first, under the boxes: from a parent's bottom centre to its child's top centre, both drawn only up to the cursor.
  ctx.beginPath()
  for (let k = 0; k < n; k++) {
    const p = scene.parent[k] as number
    if (p < 0 || p >= n) continue
    const cx = (layout.x[k] as number) + size.width / 2
    const px = (layout.x[p] as number) + size.width / 2
    const cy = layout.y[k] as number
    const py = (layout.y[p] as number) + size.height
    if (Math.max(cx, px) < x0 || Math.min(cx, px) > x1 || Math.max(cy, py) < y0 || Math.min(cy, py) > y1) continue
    ctx.moveTo(px * z + view.x, py * z + view.y)
    ctx.lineTo(cx * z + view.x, cy * z + view.y)
  }
  ctx.strokeStyle = colors.edge
  ctx.lineWidth = 1
  ctx.stroke()
  // One path and one fill per colour: a fillRect per box (5,000 calls) showed up in the graph-5k traces.
  const boxes = { summary: new Path2D(), prune: new Path2D(), other: new Path2D() }
  for (let k = 0; k < n; k++) {
    const x = layout.x[k] as number
    const y = layout.y[k] as number
    if (x + size.width < x0 || x > x1 || y + size.height < y0 || y > y1) continue
    const kind = scene.replacements[k]?.kind
    boxes[kind === 'summary' || kind === 'prune' ? kind : 'other'].rect(x * z + view.x, y * z + view.y, w, h)
  }
  for (const kind of ['summary', 'prune', 'other'] as const) {
    ctx.fillStyle = colors[kind]
    ctx.fill(boxes[kind])
  }
  const s = scene.selected
  if (s >= 0 && s < n) {
    ctx.strokeStyle = colors.selected
    ctx.lineWidth = 2
    ctx.strokeRect((layout.x[s] as number) * z + view.x - 2, (layout.y[s] as number) * z + view.y - 2, w + 4, h + 4)
  }
}
