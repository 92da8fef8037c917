/**
 * Draws the time lanes on a canvas: the lane labels, every bar (one path per style, so thousands of bars are a few
 * fills), the folds with their real lengths written, and the clock axis. A bar narrower than a pixel is drawn a pixel
 * wide, so a short call stays visible on a long axis.
 */

import { BarKind, FOLD_SHOWN_MS, type TimeLanesAnswer } from '../../../protocol/time-lanes.ts'
import { withAlpha, type ChartColors } from '../context-chart/theme-colors.ts'
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

  // Folds first: the panel's colour across the lanes, so the waits passing through them stay drawn on top.
  ctx.fillStyle = colors.panel
  for (const fold of answer.folds) {
    const a = pxOf(plot, fold.x)
    ctx.fillRect(a, TOP, Math.max(a + 3, pxOf(plot, fold.x + FOLD_SHOWN_MS)) - a, 3 * LANE_HEIGHT)
  }

  const paths = new Map<string, Path2D>()
  const { bars } = answer
  for (let i = 0; i < bars.kind.length; i++) {
    const kind = bars.kind[i] as number
    const style = styleOf(kind, colors)
    let path = paths.get(style)
    if (path === undefined) paths.set(style, (path = new Path2D()))
    const x0 = pxOf(plot, bars.x0[i] as number)
    const box = barBox(kind, bars.lane[i] as number, bars.row[i] as number)
    path.rect(x0, box.top, Math.max(1, pxOf(plot, bars.x1[i] as number) - x0), box.height)
  }
  for (const [style, path] of paths) {
    ctx.fillStyle = style
    ctx.fill(path)
  }

  // Each fold's dashed edges, and its real length above.
  let lastLabel = -Infinity
  ctx.setLineDash([2, 2])
  ctx.textAlign = 'center'
  for (const fold of answer.folds) {
    const a = pxOf(plot, fold.x)
    const b = Math.max(a + 3, pxOf(plot, fold.x + FOLD_SHOWN_MS))
    ctx.strokeStyle = colors.muted
    ctx.beginPath()
    ctx.moveTo(a + 0.5, TOP)
    ctx.lineTo(a + 0.5, TOP + 3 * LANE_HEIGHT)
    ctx.moveTo(b - 0.5, TOP)
    ctx.lineTo(b - 0.5, TOP + 3 * LANE_HEIGHT)
    ctx.stroke()
    if (a - lastLabel >= FOLD_LABEL_GAP_PX) {
      ctx.fillStyle = colors.muted
      ctx.fillText(`⋯ ${formatDuration(fold.ms)}`, (a + b) / 2, TOP / 2)
      lastLabel = a
    }
  }
  ctx.setLineDash([])

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
