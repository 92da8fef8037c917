/**
 * What the Cost mode says in text, pure so the wording is unit-tested without a canvas: amounts (the core's
 * `formatMoney`, never a rounding that hides money), the call under the pointer and what was spent up to it, a
 * compaction's label, the totals, and the plot's data (the running total as a step line from the log's first event
 * to its last).
 */

import type { Currency } from '../../../core/index.ts'
import { formatMoney, moneyText } from '../../../core/cost/money-text.ts'
import type { CostAnswer, CostCompactionMark } from '../../../protocol/cost.ts'
import { formatCount } from '../../shared/format-count.ts'

/** An amount as the core says it: two decimals from 0.10 up, four below. */
export const money = moneyText

/** The last call charged at or before event `index`, or -1. */
export function callAt(answer: Pick<CostAnswer, 'calls'>, index: number): number {
  const at = answer.calls.index
  let lo = 0
  let hi = at.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if ((at[mid] as number) <= index) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/** The hover line for call `k`: what it was, what it cost, what was spent so far, and a break it paid for. */
export function callText(answer: CostAnswer, k: number): string {
  const { calls, currency } = answer
  const label = calls.labels[k] ?? '?'
  const cost = calls.cost[k] as number
  const what = calls.summary[k] === 1 ? `compaction ${label.replace('summary', 'summary call')}` : `step ${label}`
  const price = Number.isNaN(cost) ? 'no price' : money(cost, currency)
  const spent = money(calls.total[k] as number, currency)
  const broke = answer.breaks.find((b) => b.label === label)
  const brokeText =
    broke === undefined
      ? ''
      : ` · cache break ${broke.cost === null ? 'not priced' : money(broke.cost, currency)}: ${broke.cause}`
  const compaction =
    calls.summary[k] === 1 ? answer.compactions.find((c) => c.summaryIndex === (calls.index[k] as number)) : undefined
  return `${what} · ${price} · spent so far ${spent}${brokeText}${compaction === undefined ? '' : ` · ${compaction.sentence}`}`
}

/** A compaction on the plot: its cost, and whether it paid back. */
export function compactionLabel(c: CostCompactionMark, currency: Currency): string {
  if (c.summaryCost === null || c.breakCost === null) return 'compaction · cost unknown'
  const cost = money(c.summaryCost + c.breakCost, currency)
  if (c.paidBackAtStep !== null) return `compaction ${cost} · paid back at ${c.paidBackAtStep}`
  if (c.balance === null) return `compaction ${cost}`
  return `compaction ${cost} · not paid back (${money(c.balance, currency)})`
}

/** The session's total, or "no price" when no call has one (never ¥0.00 for calls the card cannot price). */
export function totalText(answer: CostAnswer): string {
  const t = answer.totals
  if (t.pricedSteps === 0 && t.summariesCost.total === 0 && t.cost.total === 0 && t.unpricedSteps > 0) return 'no price'
  return money(t.cost.total, answer.currency)
}

/** "22 steps + 2 summary calls". */
export function callsText(answer: CostAnswer): string {
  const steps = answer.totals.pricedSteps + answer.totals.unpricedSteps
  const summaries = answer.compactions.filter((c) => c.summarySeq !== null).length
  return `${formatCount(steps)} step${steps === 1 ? '' : 's'}${summaries > 0 ? ` + ${summaries} summary call${summaries === 1 ? '' : 's'}` : ''}`
}

/**
 * Whether the other currency prices steps this one cannot (the card has only USD rates before 2026-09-09 16:00 UTC):
 * then the strip offers the switch, with the reason.
 */
export function otherPricesMore(answer: CostAnswer): boolean {
  return answer.totals.unpricedSteps > 0 && answer.other.unpricedSteps < answer.totals.unpricedSteps
}

/** The plot's x and y: the running total as a step line from event 0 (nothing spent) to the log's last event. */
export function plotData(answer: CostAnswer): [number[], number[]] {
  const last = Math.max(0, answer.events - 1)
  const x = [0]
  const y = [0]
  const { index, total } = answer.calls
  for (let k = 0; k < index.length; k++) {
    x.push(index[k] as number)
    y.push(total[k] as number)
  }
  x.push(Math.max(last, x[x.length - 1] as number))
  y.push(y[y.length - 1] as number)
  return [x, y]
}

/** An axis tick: as many decimals as the scale needs (¥0.002 on a ¥0.01 axis, ¥12 on a ¥100 one). */
export function axisMoney(value: number, currency: Currency, max: number): string {
  if (value === 0) return formatMoney(0, currency, 0)
  const decimals = max >= 10 ? 0 : max >= 1 ? 1 : max >= 0.1 ? 2 : max >= 0.01 ? 3 : 4
  return formatMoney(value, currency, decimals)
}

/** Where a compaction's label goes over the plot (CSS px from the plot box's left), and whether it has room to be said. */
export interface LabelPlace {
  readonly x: number
  /** Drawn left of its line (near the right edge). */
  readonly leftward: boolean
  /** Room for the words; else only a mark (the words stay in its title). */
  readonly roomy: boolean
}

/**
 * Labels left to right, each `labelPx` wide: one that would run into the previous one shows its mark only, one near
 * the right edge goes left of its line.
 */
export function labelPlaces(
  indices: readonly number[],
  events: number,
  plot: { readonly left: number; readonly width: number },
  labelPx: number,
): LabelPlace[] {
  const span = Math.max(1, events - 1)
  const right = plot.left + plot.width
  let taken = -Infinity
  return indices.map((index) => {
    const x = plot.left + (index / span) * plot.width
    const leftward = x + labelPx > right
    const from = leftward ? x - labelPx : x
    const roomy = from > taken + 8
    if (roomy) taken = leftward ? x : x + labelPx
    return { x, leftward, roomy }
  })
}
