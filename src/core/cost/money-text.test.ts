/**
 * Amounts for people: the decimals an amount needs, and never a rounding that hides money (`<¥0.01`, `<$0.0001`); the
 * JSON's and the data attributes' rounding to 1e-10.
 */

import { describe, expect, it } from 'vitest'
import { formatMoney, moneyText, roundAmount } from './money-text.ts'

describe('money text', () => {
  it('formatMoney: a non-zero amount below the last decimal reads `<` the smallest one, signed', () => {
    expect(formatMoney(0, 'CNY')).toBe('¥0.00')
    expect(formatMoney(0.004, 'CNY')).toBe('<¥0.01')
    expect(formatMoney(-0.004, 'USD')).toBe('-<$0.01')
    expect(formatMoney(0.005, 'CNY')).toBe('¥0.01')
    expect(formatMoney(12.345, 'USD')).toBe('$12.35')
  })

  it('moneyText: four decimals below ¥0.10, two from there; a tiny amount is still not free', () => {
    expect(moneyText(0.0063, 'CNY')).toBe('¥0.0063')
    expect(moneyText(-0.0095, 'CNY')).toBe('-¥0.0095')
    expect(moneyText(0.16, 'CNY')).toBe('¥0.16')
    expect(moneyText(0.00001, 'USD')).toBe('<$0.0001')
    expect(moneyText(0, 'USD')).toBe('$0.00')
  })

  it('roundAmount: to 1e-10, so float noise never reaches the text or the attributes', () => {
    expect(roundAmount(0.1 + 0.2)).toBe(0.3)
    expect(roundAmount(1.23456789012345e-3)).toBe(0.0012345679)
    expect(roundAmount(3e-11)).toBe(0)
  })
})
