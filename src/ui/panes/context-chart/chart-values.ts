/**
 * What the context chart says in text: token counts in short units, the values of one bucket (the hovered one, or
 * the one holding the timeline cursor), and the x position <-> event index mapping the click uses. Pure, so the
 * wording and the mapping are unit-tested without a canvas.
 */

import type { ContextMarkerRow, ContextSeriesAnswer } from '../../../protocol/context-series.ts'
import { formatCount } from '../../shared/format-count.ts'

/** 1234 -> "1.2k", 1_500_000 -> "1.5M"; small counts stay exact. */
export function shortCount(value: number): string {
  if (!Number.isFinite(value)) return '—'
  const abs = Math.abs(value)
  const sign = value < 0 ? '−' : ''
  if (abs < 1000) return `${sign}${Math.round(abs)}`
  if (abs < 1_000_000) return `${sign}${(abs / 1000).toFixed(abs < 10_000 ? 1 : 0)}k`
  return `${sign}${(abs / 1_000_000).toFixed(abs < 10_000_000 ? 2 : 1)}M`
}

/** "a" or "a–b" when a bucket spans different values. */
function span(min: number, max: number, format: (v: number) => string): string {
  return min === max ? format(min) : `${format(min)}–${format(max)}`
}

export interface BucketValues {
  /** Event indices the bucket covers (inclusive). */
  readonly first: number
  readonly last: number
  readonly messages: string
  readonly tokens: string
  /**
   * Usage of the latest step logged at or before the bucket (the request in force there), null where no step
   * logged that field; `usageFirst..usageLast` are the events of the bucket it came from (null: no step yet).
   */
  readonly input: string | null
  readonly output: string | null
  readonly cacheRead: string | null
  readonly usageFirst: number | null
  readonly usageLast: number | null
  /** Each compaction / prune in the bucket: "compaction −6.1k tok (logged)". */
  readonly removed: readonly string[]
}

const KIND_LABEL: Record<ContextMarkerRow['kind'], string> = { summary: 'compaction', prune: 'prune', other: 'replace' }

export function markerText(marker: ContextMarkerRow): string {
  return `${KIND_LABEL[marker.kind]} −${shortCount(marker.removed)} tok (${marker.removedSource})`
}

function logged(values: Float64Array, b: number): string | null {
  const v = values[b]
  return v === undefined || Number.isNaN(v) ? null : shortCount(v)
}

/** Last event of bucket `b`. */
function lastOf(answer: ContextSeriesAnswer, b: number): number {
  return Math.min(answer.from + answer.points, (answer.x[b] as number) + answer.bucketSize) - 1
}

/** "seq 12" or "seq 12–15". */
export function rangeText(label: string, first: number, last: number): string {
  const f = formatCount(first)
  return first === last ? `${label} ${f}` : `${label} ${f}–${formatCount(last)}`
}

/** Bucket `b` of an answer in words, or null when out of range. */
export function bucketValues(answer: ContextSeriesAnswer, b: number): BucketValues | null {
  if (!Number.isInteger(b) || b < 0 || b >= answer.x.length) return null
  const first = answer.x[b] as number
  const last = lastOf(answer, b)
  let u = b
  while (u >= 0 && Number.isNaN(answer.input[u]) && Number.isNaN(answer.output[u]) && Number.isNaN(answer.cacheRead[u])) u--
  return {
    first,
    last,
    messages: span(answer.messagesMin[b] as number, answer.messagesMax[b] as number, (v) => formatCount(v)),
    tokens: span(answer.tokensMin[b] as number, answer.tokensMax[b] as number, shortCount),
    input: u < 0 ? null : logged(answer.input, u),
    output: u < 0 ? null : logged(answer.output, u),
    cacheRead: u < 0 ? null : logged(answer.cacheRead, u),
    usageFirst: u < 0 ? null : (answer.x[u] as number),
    usageLast: u < 0 ? null : lastOf(answer, u),
    removed: answer.markers.filter((m) => m.index >= first && m.index <= last).map(markerText),
  }
}

/** The bucket holding event `index`, or -1. */
export function bucketOf(answer: ContextSeriesAnswer, index: number): number {
  if (index < answer.from || index >= answer.from + answer.points) return -1
  return Math.floor((index - answer.from) / answer.bucketSize)
}

/** The x scale the chart draws: the first to the last event of the view (never an empty range). */
export function xRange(answer: ContextSeriesAnswer): [number, number] {
  const lo = answer.from
  const hi = answer.from + answer.points - 1
  return hi > lo ? [lo, hi] : [lo - 0.5, lo + 0.5]
}

/** The event under a pointer `offset` CSS pixels into a plot `width` wide, on the chart's x scale. */
export function indexAtOffset(range: readonly [number, number], offset: number, width: number, events: number): number {
  if (events <= 0 || width <= 0) return -1
  const value = range[0] + (offset / width) * (range[1] - range[0])
  return Math.max(0, Math.min(events - 1, Math.round(value)))
}

/** NaN (not logged) as a gap for uPlot, which draws `null` as a gap and NaN as garbage. */
export function withGaps(values: Float64Array): (number | null)[] {
  return Array.from(values, (v) => (Number.isNaN(v) ? null : v))
}

/** Logged values closer than this on average (CSS px) are drawn as the line alone, without a dot each. */
export const MIN_POINT_SPACING_PX = 8

/**
 * Whether the logged values `i0..i1` of a series get a dot each: only where the dots stand apart. On a long log every
 * pixel column holds one, and thousands of overlapping arcs made each redraw a 50-90 ms task while saying nothing the
 * line does not. Gaps (null, NaN: a step that logged no usage) are not values.
 */
export function dotsStandApart(values: ArrayLike<number | null | undefined>, i0: number, i1: number, widthPx: number): boolean {
  let logged = 0
  for (let i = i0; i <= i1; i++) if (Number.isFinite(values[i])) logged++
  return logged * MIN_POINT_SPACING_PX <= widthPx
}

/** Least room (CSS px) per dashed line or step for its dashes to be kept. */
export const MIN_DASH_SPACING_PX = 6

/**
 * Whether `lines` lines (marker columns, or a stepped series' steps) across `widthPx` are drawn dashed. A dashed
 * stroke costs several times a solid one on a software canvas (graph-5k: a redraw's canvas flush took 31-46 ms with
 * dashes, 9-13 ms without), and packed closer than this the dashes read as a solid band anyway.
 */
export function dashesStandApart(lines: number, widthPx: number): boolean {
  return lines * MIN_DASH_SPACING_PX <= widthPx
}

/** How many times a series' value changes from one point to the next (the steps a stepped line draws). */
export function valueChanges(values: ArrayLike<number>): number {
  let changes = 0
  for (let i = 1; i < values.length; i++) if (values[i] !== values[i - 1]) changes++
  return changes
}
