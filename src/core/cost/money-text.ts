/**
 * Amounts for people: the currency's sign and a fixed number of decimals, and never a rounding that hides money: a
 * non-zero amount below the last decimal reads `<¥0.01` (or `-<¥0.01`), so a step that cost something never shows as
 * free. The inspector's pay-back sentence is here too, so the viewer and the CLI say it alike.
 */

import type { Currency } from './rate-card.ts'
import type { CompactionCost } from './session-cost.ts'

const SIGN: Record<Currency, string> = { CNY: '¥', USD: '$' }

export function formatMoney(amount: number, currency: Currency, decimals = 2): string {
  const sign = SIGN[currency]
  const unit = 10 ** -decimals
  if (amount === 0) return `${sign}${(0).toFixed(decimals)}`
  const minus = amount < 0 ? '-' : ''
  const abs = Math.abs(amount)
  if (abs < unit / 2) return `${minus}<${sign}${unit.toFixed(decimals)}`
  return `${minus}${sign}${abs.toFixed(decimals)}`
}

/**
 * An amount with the decimals it needs to be read: two from ¥0.10 up, four below (a step's ¥0.0063 is not `<¥0.01`,
 * a cache break's ¥0.0056 is not ¥0.01).
 */
export function moneyText(amount: number, currency: Currency): string {
  return formatMoney(amount, currency, amount !== 0 && Math.abs(amount) < 0.1 ? 4 : 2)
}

/** Amounts as the JSON contracts and the viewer's data attributes carry them: to 1e-10, far below a cent, far above float noise. */
export const roundAmount = (value: number): number => Math.round(value * 1e10) / 1e10

/**
 * `cost ¥a (summary ¥b + cache break ¥c); paid back at step N`, or `…; not paid back: -¥d at the end`, or why it
 * cannot be said. Each amount as `moneyText` says it.
 */
export function payBackSentence(c: CompactionCost, currency: Currency): string {
  if (c.summaryCost === null || c.breakCost === null) return `cost unknown: ${c.note ?? 'no price for its calls'}`
  const money = (n: number) => moneyText(n, currency)
  const head = `cost ${money(c.summaryCost + c.breakCost)} (summary ${money(c.summaryCost)} + cache break ${money(c.breakCost)})`
  if (c.paidBackAtStep !== null) return `${head}; paid back at step ${c.paidBackAtStep}`
  if (c.balance === null) return `${head}; ${c.note ?? 'its savings are unknown'}`
  return `${head}; not paid back: ${money(c.balance)} at the end`
}
