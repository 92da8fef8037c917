// @vitest-environment jsdom
/** The currency a page opens in: the URL's, else the remembered one, else CNY; a switch rewrites only `?currency=`. */

import { afterEach, describe, expect, it } from 'vitest'
import { CURRENCY_KEY, initialCurrency, withCurrency } from './currency-preference.ts'

describe('currency preference', () => {
  afterEach(() => localStorage.clear())

  it('opens in the URL currency, else the remembered one, else CNY; unknown values are ignored', () => {
    expect(initialCurrency('')).toBe('CNY')
    localStorage.setItem(CURRENCY_KEY, 'USD')
    expect(initialCurrency('')).toBe('USD')
    expect(initialCurrency('?currency=cny')).toBe('CNY')
    expect(initialCurrency('?currency=EUR')).toBe('USD')
    localStorage.setItem(CURRENCY_KEY, 'gold')
    expect(initialCurrency('?x=1')).toBe('CNY')
  })

  it('withCurrency: sets or replaces ?currency=, keeps every other parameter as written and the hash', () => {
    expect(withCurrency('http://h/#step=2.1', 'USD')).toBe('http://h/?currency=USD#step=2.1')
    expect(withCurrency('http://h/?log=/a%20b/c.jsonl&currency=CNY#x', 'USD')).toBe('http://h/?log=/a%20b/c.jsonl&currency=USD#x')
    expect(withCurrency('http://h/?currency=USD&live=1', 'CNY')).toBe('http://h/?live=1&currency=CNY')
  })
})
