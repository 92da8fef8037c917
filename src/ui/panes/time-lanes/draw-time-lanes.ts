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

  // Bars: one path per style. Bars of a style on the same row that touch in pixels are one rectangle: on a long axis
  // thousands of bars share a few hundred pixel columns.
  const paths = new Map<string, Path2D>()
  const runs = new Map<string, { style: string; x0: number; x1: number; top: number; height: number }>()
  const flush = (run: { style: string; x0: number; x1: number; top: number; height: number }): void => {
    let path = paths.get(run.style)
    if (path === undefined) paths.set(run.style, (path = new Path2D()))
    path.rect(run.x0, run.top, run.x1 - run.x0, run.height)
  }
  const styles = Object.values(BarKind).map((kind) => styleOf(kind, colors))
  const { bars } = answer
  for (let i = 0; i < bars.kind.length; i++) {
    const kind = bars.kind[i] as number
    const style = styles[kind] as string
    const box = barBox(kind, bars.lane[i] as number, bars.row[i] as number)
    const x0 = pxOf(plot, bars.x0[i] as number)
    const x1 = Math.max(x0 + 1, pxOf(plot, bars.x1[i] as number))
    const key = `${style}|${box.top}`
    const run = runs.get(key)
    if (run !== undefined && x0 <= run.x1 + 0.5 && x1 >= run.x0 - 0.5) {
      run.x0 = Math.min(run.x0, x0)
      run.x1 = Math.max(run.x1, x1)
      continue
    }
    if (run !== undefined) flush(run)
    runs.set(key, { style, x0, x1, top: box.top, height: box.height })
  }
  for (const run of runs.values()) flush(run)
  for (const [style, path] of paths) {
    ctx.fillStyle = style
    ctx.fill(path)
  }

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
