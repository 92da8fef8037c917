/**
 * The context chart's uPlot set-up: the series (estimated surface tokens as a min/max band, messages, the usage each
 * step logged), the axes, and the compaction and prune markers drawn over the plot with the tokens they removed. No
 * React: ContextChart and its plot hook feed it the worker's answer.
 */

import uPlot from 'uplot'
import type { ContextSeriesAnswer } from '../../../protocol/context-series.ts'
import type { ChartColors } from '../../shared/chart-colors.ts'
import { dashesStandApart, dotsStandApart, shortCount, withGaps, xRange } from './chart-values.ts'
import { formatCount } from '../../shared/format-count.ts'

/** Chart heights (px) from which the y axes carry their rotated titles. */
const AXIS_TITLES_FROM = 96
/** Marker labels closer than this (CSS px) to the previous label are left out; the line and the hover stay. */
const LABEL_GAP_PX = 44
/** The y axes' width and their labels' (CSS px), and the plot's padding [top, right, bottom, left]. */
const Y_AXIS_SIZE = 44
const AXIS_LABEL_SIZE = 14
const PADDING: [number, number, number, number] = [6, 4, 0, 4]
/**
 * The plot area's width in a box this wide (two labelled y axes and the side padding, as `chartOptions` lays them
 * out): the buckets the first query asks for, before uPlot exists to say. Asking for the box's width instead drew
 * the first answer with more buckets than the plot has pixels until a second query replaced it.
 */
export function plotWidthIn(boxWidth: number): number {
  return Math.max(1, boxWidth - 2 * (Y_AXIS_SIZE + AXIS_LABEL_SIZE) - PADDING[1] - PADDING[3])
}
const FONT = '11px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif'

/** uPlot's `points.show` (see `dotsStandApart`). */
function sparseEnough(u: uPlot, seriesIdx: number, i0: number, i1: number): boolean {
  const values = u.data[seriesIdx]
  return values !== undefined && dotsStandApart(values, i0, i1, u.bbox.width / uPlot.pxRatio)
}

/** Opacity of replacement markers packed too close for dashes (see dashesStandApart). */
const DENSE_MARKER_ALPHA = 0.35

/** The surface-messages line's dash (while its steps stand apart). */
export const MESSAGES_DASH = [4, 3]

/** uPlot series order (index 0 is x). */
export const S = { tokensMax: 1, tokensMin: 2, messages: 3, input: 4, output: 5, cacheRead: 6 } as const

export function toData(answer: ContextSeriesAnswer): uPlot.AlignedData {
  return [
    answer.x,
    answer.tokensMax,
    answer.tokensMin,
    answer.messagesMax,
    withGaps(answer.input),
    withGaps(answer.output),
    withGaps(answer.cacheRead),
  ]
}

function drawMarkers(u: uPlot, answer: ContextSeriesAnswer, colors: ChartColors): void {
  const { ctx } = u
  const ratio = uPlot.pxRatio
  const { top, height, left, width } = u.bbox
  ctx.save()
  ctx.beginPath()
  ctx.rect(left, top, width, height)
  ctx.clip()
  ctx.font = FONT.replace('11px', `${Math.round(10 * ratio)}px`)
  ctx.textBaseline = 'top'
  let lastLabel = -Infinity
  // One dashed path per colour, one line per pixel column: a log with 5,000 replacements has several markers per
  // column, and a stroke() each (dashed, on a software canvas) cost the graph-5k bench lane ~100 ms per redraw.
  const lines = { prune: new Path2D(), compaction: new Path2D() }
  const lastX = { prune: -Infinity, compaction: -Infinity }
  let columns = 0
  for (const marker of answer.markers) {
    const x = Math.round(u.valToPos(marker.index, 'x', true)) + 0.5
    const kind = marker.kind === 'prune' ? 'prune' : 'compaction'
    const color = colors[kind]
    if (x !== lastX[kind]) {
      lines[kind].moveTo(x, top)
      lines[kind].lineTo(x, top + height)
      lastX[kind] = x
      columns++
    }
    if (x - lastLabel >= LABEL_GAP_PX * ratio) {
      const label = `−${shortCount(marker.removed)}`
      const room = left + width - x
      const labelWidth = ctx.measureText(label).width
      ctx.fillStyle = color
      // Near the right edge the label goes left of its line rather than off the plot.
      ctx.textAlign = room < labelWidth + 6 * ratio ? 'right' : 'left'
      ctx.fillText(label, ctx.textAlign === 'right' ? x - 3 * ratio : x + 3 * ratio, top + 2 * ratio)
      lastLabel = x
    }
  }
  ctx.lineWidth = ratio
  // Packed close, solid lines at low alpha: as light as the dashes were, and the series stays visible through them.
  if (dashesStandApart(columns, width / ratio)) ctx.setLineDash([3 * ratio, 2 * ratio])
  else ctx.globalAlpha = DENSE_MARKER_ALPHA
  for (const kind of ['prune', 'compaction'] as const) {
    ctx.strokeStyle = colors[kind]
    ctx.stroke(lines[kind])
  }
  ctx.restore()
}

export function chartOptions(
  width: number,
  height: number,
  colors: ChartColors,
  current: () => ContextSeriesAnswer | null,
  onHover: (left: number | undefined) => void,
  onDraw: () => void,
): uPlot.Options {
  const axis = (scale: string, side: 1 | 3 | 2, label: string | undefined, values: (v: number) => string): uPlot.Axis => ({
    scale,
    side,
    stroke: colors.muted,
    font: FONT,
    labelFont: FONT,
    ...(label !== undefined ? { label, labelSize: AXIS_LABEL_SIZE, labelGap: 0 } : {}),
    size: side === 2 ? 22 : Y_AXIS_SIZE,
    gap: 3,
    grid: { show: scale !== 'msg', stroke: colors.line, width: 1 },
    ticks: { show: true, stroke: colors.line, width: 1, size: 3 },
    values: (_u, splits) => splits.map(values),
  })
  const points = (color: string): Partial<uPlot.Series> => ({
    scale: 'tok',
    stroke: color,
    width: 1,
    spanGaps: true,
    points: { show: sparseEnough, size: 4, stroke: color, fill: color },
  })
  return {
    width,
    height,
    legend: { show: false },
    padding: PADDING,
    cursor: {
      x: true,
      y: false,
      points: { show: false },
      drag: { x: false, y: false, setScale: false },
    },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: {
        time: false,
        range: () => {
          const answer = current()
          return answer === null ? [0, 1] : xRange(answer)
        },
      },
      tok: { range: (_u, _min, max) => [0, max > 0 ? max * 1.12 : 1] },
      msg: { range: (_u, _min, max) => [0, max > 0 ? Math.ceil(max * 1.12) : 1] },
    },
    axes: [
      axis('x', 2, undefined, (v) => (Number.isInteger(v) ? formatCount(v) : '')),
      // A short chart (a short window) has no room for the rotated axis titles: the key above names the lines.
      axis('tok', 3, height >= AXIS_TITLES_FROM ? 'tokens' : undefined, shortCount),
      axis('msg', 1, height >= AXIS_TITLES_FROM ? 'messages' : undefined, (v) => (Number.isInteger(v) ? String(v) : '')),
    ],
    series: [
      {},
      {
        label: 'surface tokens (est.)',
        scale: 'tok',
        stroke: colors.tokens,
        width: 1.5,
        fill: colors.tokensFill,
        paths: uPlot.paths.stepped?.({ align: 1 }),
      },
      {
        label: 'surface tokens min',
        scale: 'tok',
        stroke: colors.tokens,
        width: 0.5,
        paths: uPlot.paths.stepped?.({ align: 1 }),
      },
      {
        label: 'surface messages',
        scale: 'msg',
        stroke: colors.messages,
        width: 1.25,
        dash: MESSAGES_DASH,
        paths: uPlot.paths.stepped?.({ align: 1 }),
      },
      { label: 'logged input', ...points(colors.input) },
      { label: 'logged output', ...points(colors.output) },
      { label: 'logged cache read', ...points(colors.cacheRead) },
    ],
    bands: [{ series: [S.tokensMax, S.tokensMin], fill: colors.tokensFill }],
    hooks: {
      draw: [
        (u) => {
          const answer = current()
          if (answer !== null) drawMarkers(u, answer, colors)
          onDraw()
        },
      ],
      setCursor: [(u) => onHover(u.cursor.left === undefined || u.cursor.left < 0 ? undefined : u.cursor.left)],
    },
  }
}
