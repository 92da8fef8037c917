/**
 * Draws the time lanes on a canvas: the lane labels, every bar (one path per style, so thousands of bars are a few
 * fills), the folds with their real lengths written, and the clock axis. A bar narrower than a pixel is drawn a pixel
 * wide, so a short call stays visible on a long axis.
 */

import { BarKind, FOLD_SHOWN_MS, TOOL_ROWS, type TimeLanesAnswer } from '../../../protocol/time-lanes.ts'
import { withAlpha, type ChartColors } from '../../shared/theme-colors.ts'
import { formatDuration } from '../../shared/format-duration.ts'
import {
  AXIS_HEIGHT,
  LABEL_WIDTH,
  LANE_HEIGHT,
  LANE_NAMES,
  TOP,
  barBox,
  clockText,
  laneTop,
  plotWidth,
  pxOf,
  realAt,
  ticks,
  type Plot,
} from './lanes-geometry.ts'

const FONT = '11px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif'
/** Fold labels closer than this (CSS px) to the previous one are left out; the fold mark stays. */
const FOLD_LABEL_GAP_PX = 44

function styleOf(kind: number, colors: ChartColors): string {
  switch (kind) {
    case BarKind.ttft:
      return withAlpha(colors.output, 0.35)
    case BarKind.generation:
    case BarKind.model:
      return colors.output
    case BarKind.tool:
      return colors.tool
    case BarKind.toolOpen:
      return withAlpha(colors.tool, 0.35)
    case BarKind.retry:
      return colors.compaction
    default:
      return withAlpha(colors.muted, 0.45)
  }
}

/** Draw `answer` on `ctx` (already scaled to CSS px). */
export function drawTimeLanes(
  ctx: CanvasRenderingContext2D,
  answer: TimeLanesAnswer,
  plot: Plot,
  height: number,
  colors: ChartColors,
): void {
  ctx.clearRect(0, 0, plot.width, height)
  ctx.font = FONT
  ctx.textBaseline = 'middle'
  // Lanes: a label each, a rule between them.
  ctx.fillStyle = colors.muted
  ctx.strokeStyle = colors.line
  ctx.lineWidth = 1
  const rules = new Path2D()
  LANE_NAMES.forEach((name, lane) => {
    ctx.fillText(name, 4, laneTop(lane) + LANE_HEIGHT / 2)
    rules.moveTo(LABEL_WIDTH, laneTop(lane) + LANE_HEIGHT + 0.5)
    rules.lineTo(plot.width, laneTop(lane) + LANE_HEIGHT + 0.5)
  })
  ctx.stroke(rules)

  // Folds first: the panel's colour across the lanes, so the waits passing through them stay drawn on top. One path
  // for every fold's background and one for their dashed edges (a stroke each cost hundreds of folds that many
  // dashed strokes).
  const foldBoxes = new Path2D()
  const foldEdges = new Path2D()
  const foldAt: [number, number][] = []
  for (const fold of answer.folds) {
    const a = pxOf(plot, fold.x)
    const b = Math.max(a + 3, pxOf(plot, fold.x + FOLD_SHOWN_MS))
    foldBoxes.rect(a, TOP, b - a, 3 * LANE_HEIGHT)
    for (const edge of [a + 0.5, b - 0.5]) {
      foldEdges.moveTo(edge, TOP)
      foldEdges.lineTo(edge, TOP + 3 * LANE_HEIGHT)
    }
    foldAt.push([a, b])
  }
  ctx.fillStyle = colors.panel
  ctx.fill(foldBoxes)

  // Bars: one path per kind. Bars of a kind on the same row that touch in pixels are one rectangle: on a long axis
  // thousands of bars share a few hundred pixel columns. The loop allocates nothing per bar (a 1.3M-event log has
  // ~15,000): runs and boxes live in small typed arrays indexed by (kind, lane, row).
  const kinds = Object.values(BarKind).length
  const slots = kinds * 3 * TOOL_ROWS
  const runX0 = new Float64Array(slots).fill(Number.NaN)
  const runX1 = new Float64Array(slots)
  const top = new Float64Array(slots).fill(Number.NaN)
  const tall = new Float64Array(slots)
  const paths = Array.from({ length: kinds }, () => new Path2D())
  const flush = (slot: number): void => {
    const path = paths[Math.floor(slot / (3 * TOOL_ROWS))] as Path2D
    path.rect(runX0[slot] as number, top[slot] as number, (runX1[slot] as number) - (runX0[slot] as number), tall[slot] as number)
  }
  const scale = plotWidth(plot) / plot.span
  const { bars } = answer
  for (let i = 0; i < bars.kind.length; i++) {
    const kind = bars.kind[i] as number
    const lane = bars.lane[i] as number
    const row = bars.row[i] as number
    const slot = (kind * 3 + lane) * TOOL_ROWS + row
    if (Number.isNaN(top[slot])) {
      const box = barBox(kind, lane, row)
      top[slot] = box.top
      tall[slot] = box.height
    }
    const x0 = LABEL_WIDTH + (bars.x0[i] as number) * scale
    const x1 = Math.max(x0 + 1, LABEL_WIDTH + (bars.x1[i] as number) * scale)
    const open = runX0[slot] as number
    if (!Number.isNaN(open) && x0 <= (runX1[slot] as number) + 0.5 && x1 >= open - 0.5) {
      runX0[slot] = Math.min(open, x0)
      runX1[slot] = Math.max(runX1[slot] as number, x1)
      continue
    }
    if (!Number.isNaN(open)) flush(slot)
    runX0[slot] = x0
    runX1[slot] = x1
  }
  for (let slot = 0; slot < slots; slot++) if (!Number.isNaN(runX0[slot])) flush(slot)
  paths.forEach((path, kind) => {
    ctx.fillStyle = styleOf(kind, colors)
    ctx.fill(path)
  })

  // The folds' dashed edges, and their real lengths above.
  ctx.setLineDash([2, 2])
  ctx.strokeStyle = colors.muted
  ctx.stroke(foldEdges)
  ctx.setLineDash([])
  ctx.textAlign = 'center'
  ctx.fillStyle = colors.muted
  let lastLabel = -Infinity
  answer.folds.forEach((fold, k) => {
    const [a, b] = foldAt[k] as [number, number]
    if (a - lastLabel < FOLD_LABEL_GAP_PX) return
    ctx.fillText(`⋯ ${formatDuration(fold.ms)}`, (a + b) / 2, TOP / 2)
    lastLabel = a
  })

  // The clock axis: real times at round axis steps.
  const axisY = TOP + 3 * LANE_HEIGHT
  ctx.fillStyle = colors.muted
  ctx.strokeStyle = colors.line
  for (const x of ticks(plot)) {
    const px = pxOf(plot, x)
    ctx.beginPath()
    ctx.moveTo(px + 0.5, axisY)
    ctx.lineTo(px + 0.5, axisY + 3)
    ctx.stroke()
    ctx.textAlign = px < LABEL_WIDTH + 24 ? 'left' : px > plot.width - 30 ? 'right' : 'center'
    ctx.fillText(clockText(realAt(answer, x)), px, axisY + AXIS_HEIGHT / 2 + 1)
  }
}
