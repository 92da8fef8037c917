/**
 * Pure: where the Time mode draws things. Three lanes (model, tools, waiting) under a strip for the folds' labels and
 * above the clock axis; the plot maps the answer's axis milliseconds onto its width. Also what is under the pointer,
 * the clock ticks (real times, read back through the folds) and what the hover line says.
 */

import { BarKind, FOLD_SHOWN_MS, Lane, TOOL_ROWS, type TimeLanesAnswer, type TimeStepInfo } from '../../../protocol/time-lanes.ts'
import { formatDuration, formatRate } from '../../shared/format-duration.ts'

/** CSS px: the lane labels' column, the fold labels' strip, one lane, the axis, the right margin. */
export const LABEL_WIDTH = 58
export const TOP = 14
export const LANE_HEIGHT = 28
export const AXIS_HEIGHT = 18
export const RIGHT = 8
export const LANES_HEIGHT = TOP + 3 * LANE_HEIGHT + AXIS_HEIGHT
export const LANE_NAMES = ['model', 'tools', 'waiting'] as const

/** Pointer tolerance around a bar (CSS px). */
const HIT_PX = 3
/** Clock ticks are at least this far apart (CSS px). */
const TICK_GAP_PX = 90
const TICK_STEPS_MS = [
  1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000,
  21_600_000, 43_200_000, 86_400_000,
]

export interface Plot {
  /** Width of the whole drawing (CSS px). */
  readonly width: number
  /** Axis milliseconds drawn (at least 1). */
  readonly span: number
}

export const plotWidth = (plot: Plot): number => Math.max(1, plot.width - LABEL_WIDTH - RIGHT)
export const pxOf = (plot: Plot, x: number): number => LABEL_WIDTH + (x / plot.span) * plotWidth(plot)
export const axisAt = (plot: Plot, px: number): number => ((px - LABEL_WIDTH) / plotWidth(plot)) * plot.span
export const laneTop = (lane: number): number => TOP + lane * LANE_HEIGHT

export function plotOf(answer: TimeLanesAnswer, width: number): Plot {
  return { width, span: Math.max(1, answer.span) }
}

/** The bar's vertical extent (CSS px): tools split their lane in rows, waits are thinner, model bars fill it. */
export function barBox(kind: number, lane: number, row: number): { top: number; height: number } {
  const top = laneTop(lane)
  if (lane === Lane.tools) {
    const rowHeight = (LANE_HEIGHT - 6) / TOOL_ROWS
    return { top: top + 3 + row * rowHeight, height: rowHeight - 1 }
  }
  if (kind === BarKind.idle) return { top: top + LANE_HEIGHT / 2 - 3, height: 6 }
  return { top: top + 4, height: LANE_HEIGHT - 8 }
}

/** The bar under the pointer (index into the answer's bars), or -1: the nearest one within a few pixels, on its row. */
export function barAt(answer: TimeLanesAnswer, plot: Plot, px: number, py: number): number {
  const lane = Math.floor((py - TOP) / LANE_HEIGHT)
  if (lane < 0 || lane > 2 || px < LABEL_WIDTH - HIT_PX) return -1
  const x = axisAt(plot, px)
  const tolerance = (HIT_PX / plotWidth(plot)) * plot.span
  const { bars } = answer
  let best = -1
  let bestDistance = Infinity
  for (let i = 0; i < bars.kind.length; i++) {
    if (bars.lane[i] !== lane) continue
    const box = barBox(bars.kind[i] as number, lane, bars.row[i] as number)
    if (lane === Lane.tools && (py < box.top - 1 || py > box.top + box.height + 1)) continue
    const x0 = bars.x0[i] as number
    const x1 = bars.x1[i] as number
    const distance = x < x0 ? x0 - x : x > x1 ? x - x1 : 0
    if (distance <= tolerance && distance < bestDistance) {
      best = i
      bestDistance = distance
      if (distance === 0) break
    }
  }
  return best
}

/** Real time (epoch ms) at axis position `x`, reading back through the folds. */
export function realAt(answer: Pick<TimeLanesAnswer, 'start' | 'folds'>, x: number): number {
  const start = answer.start ?? 0
  let removed = 0
  for (const fold of answer.folds) {
    if (x <= fold.x) break
    if (x < fold.x + FOLD_SHOWN_MS) return start + fold.x + removed + ((x - fold.x) / FOLD_SHOWN_MS) * fold.ms
    removed += fold.ms - FOLD_SHOWN_MS
  }
  return start + x + removed
}

/** Clock ticks: axis positions a round number of seconds/minutes/hours apart, at least TICK_GAP_PX wide. */
export function ticks(plot: Plot): number[] {
  const minimum = (TICK_GAP_PX / plotWidth(plot)) * plot.span
  const step = TICK_STEPS_MS.find((s) => s >= minimum) ?? Math.ceil(minimum / 86_400_000) * 86_400_000
  const out: number[] = []
  for (let x = 0; x <= plot.span; x += step) out.push(x)
  return out
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** HH:MM:SS of a real time, in the viewer's time zone. */
export function clockText(time: number): string {
  const d = new Date(time)
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

const ms = (value: number | null): string => (value === null ? '—' : formatDuration(value))

/** `T.S` of bar `i`'s step. */
export function stepLabel(answer: TimeLanesAnswer, i: number): string {
  const p = answer.bars.step[i] as number
  return `${answer.stepTurn[p]}.${answer.stepNumber[p]}`
}

/** What the hover line says about bar `i`, with its step's figures (`info`; null while they are asked for). */
export function barText(answer: TimeLanesAnswer, i: number, info: TimeStepInfo | null): string {
  const { bars } = answer
  const step = `step ${stepLabel(answer, i)}`
  const kind = bars.kind[i]
  const width = (bars.x1[i] as number) - (bars.x0[i] as number)
  if (kind === BarKind.idle) return `${step} · waiting ${formatDuration(width)} before its request`
  if (kind === BarKind.retry) return `${step} · retry wait ${formatDuration(width)}`
  if (info === null) return `${step} · …`
  if (kind === BarKind.tool || kind === BarKind.toolOpen) {
    const k = bars.tool[i] as number
    const tool = info.tools[k]
    const which = info.tools.length > 1 ? ` (call ${k + 1} of ${info.tools.length})` : ''
    return `${step} · tool ${tool?.name ?? '?'} ${tool?.ms === null || tool === undefined ? 'no result yet' : ms(tool.ms)}${which}`
  }
  const tools = info.tools.length === 0 ? '' : ` · tools ${info.tools.map((t) => `${t.name ?? '?'} ${ms(t.ms)}`).join(', ')}`
  return `${step} · TTFT ${ms(info.ttftMs)} · generation ${ms(info.generationMs)} · ${formatRate(info.tokensPerSecond)}${tools}`
}
