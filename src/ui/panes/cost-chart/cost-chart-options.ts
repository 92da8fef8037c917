/**
 * The Cost mode's uPlot set-up: the money spent so far as a filled step line over the log's events, and drawn over it
 * each compaction (a line where it landed, and a bar along the top from there to the step where its savings caught up
 * with its cost, solid and ending in a tick; dashed to the end of the log when they never did), each other cache break
 * (a short mark under the top edge) and each call without a price (a tick on the x axis). The compactions' labels are
 * buttons over the plot (CostChart.tsx), so they can be read, focused and clicked. No React here.
 */

import uPlot from 'uplot'
import type { CostAnswer } from '../../../protocol/cost.ts'
import type { ChartColors } from '../../shared/chart-colors.ts'
import { formatCount } from '../../shared/format-count.ts'
import { withAlpha } from '../../shared/theme-colors.ts'
import { axisMoney, plotData } from './cost-values.ts'

const FONT = '11px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif'
/** The y axis's width (CSS px) and the plot's padding [top, right, bottom, left]; the top leaves room for the labels. */
const Y_AXIS_SIZE = 52
const PADDING: [number, number, number, number] = [22, 8, 0, 4]
/** Where the pay-back bars run (CSS px below the plot's top). */
const BAR_Y = 6

export function toData(answer: CostAnswer): uPlot.AlignedData {
  return plotData(answer)
}

function drawMarks(u: uPlot, answer: CostAnswer, colors: ChartColors): void {
  const { ctx } = u
  const ratio = uPlot.pxRatio
  const { top, height, left, width } = u.bbox
  const x = (index: number): number => Math.round(u.valToPos(index, 'x', true)) + 0.5
  const end = left + width
  ctx.save()
  ctx.lineWidth = ratio
  // Calls without a price: a tick each on the axis line, so a gap in the money is never read as free.
  const unpriced = new Path2D()
  answer.calls.cost.forEach((cost, k) => {
    if (!Number.isNaN(cost)) return
    const px = x(answer.calls.index[k] as number)
    unpriced.moveTo(px, top + height)
    unpriced.lineTo(px, top + height - 5 * ratio)
  })
  ctx.strokeStyle = colors.muted
  ctx.stroke(unpriced)
  // Other cache breaks: a short mark under the top edge, in the prune colour.
  const breaks = new Path2D()
  for (const b of answer.breaks) {
    const px = x(b.index)
    breaks.moveTo(px, top)
    breaks.lineTo(px, top + 10 * ratio)
  }
  ctx.strokeStyle = colors.prune
  ctx.lineWidth = 2 * ratio
  ctx.stroke(breaks)
  ctx.lineWidth = ratio
  for (const c of answer.compactions) {
    if (c.index < 0) continue
    const from = x(c.index)
    ctx.strokeStyle = colors.compaction
    ctx.setLineDash([3 * ratio, 2 * ratio])
    ctx.beginPath()
    ctx.moveTo(from, top)
    ctx.lineTo(from, top + height)
    ctx.stroke()
    // The pay-back bar: to the step that paid it back (solid, a tick there), or on to the end (dashed: never did).
    const paid = c.paidBackIndex >= 0
    const to = paid ? x(c.paidBackIndex) : end
    const y = top + BAR_Y * ratio
    ctx.strokeStyle = paid ? colors.input : colors.compaction
    ctx.lineWidth = 2 * ratio
    ctx.setLineDash(paid ? [] : [4 * ratio, 3 * ratio])
    ctx.beginPath()
    ctx.moveTo(from, y)
    ctx.lineTo(Math.max(from + 2 * ratio, to), y)
    if (paid) {
      ctx.moveTo(to, y - 4 * ratio)
      ctx.lineTo(to, y + 4 * ratio)
    }
    ctx.stroke()
    ctx.lineWidth = ratio
  }
  ctx.restore()
}

export function costChartOptions(
  width: number,
  height: number,
  colors: ChartColors,
  current: () => CostAnswer | null,
  onHover: (left: number | undefined) => void,
): uPlot.Options {
  const axisBase = {
    stroke: colors.muted,
    font: FONT,
    gap: 3,
    ticks: { show: true, stroke: colors.line, width: 1, size: 3 },
  }
  return {
    width,
    height,
    legend: { show: false },
    padding: PADDING,
    cursor: { x: true, y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: {
        time: false,
        range: () => {
          const answer = current()
          return [0, Math.max(1, (answer?.events ?? 2) - 1)]
        },
      },
      money: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 0.01] },
    },
    axes: [
      {
        ...axisBase,
        scale: 'x',
        side: 2,
        size: 22,
        grid: { show: false },
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? formatCount(v) : '')),
      },
      {
        ...axisBase,
        scale: 'money',
        side: 3,
        size: Y_AXIS_SIZE,
        grid: { show: true, stroke: colors.line, width: 1 },
        values: (u, splits) => {
          const max = u.scales['money']?.max ?? 0
          const currency = current()?.currency ?? 'CNY'
          return splits.map((v) => axisMoney(v, currency, max))
        },
      },
    ],
    series: [
      {},
      {
        label: 'spent so far',
        scale: 'money',
        stroke: colors.tokens,
        width: 1.75,
        fill: withAlpha(colors.tokens, 0.14),
        paths: uPlot.paths.stepped?.({ align: 1 }),
      },
    ],
    hooks: {
      draw: [
        (u) => {
          const answer = current()
          if (answer !== null) drawMarks(u, answer, colors)
        },
      ],
      setCursor: [(u) => onHover(u.cursor.left === undefined || u.cursor.left < 0 ? undefined : u.cursor.left)],
    },
  }
}
