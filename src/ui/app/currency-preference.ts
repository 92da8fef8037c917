/**
 * The currency amounts are shown in (issue 37): the URL's `?currency=CNY|USD` (a shared link shows what its sender
 * saw), else the remembered choice, else CNY. Chosen again, it is written to both (use-remembered-currency.ts). Read
 * by the page's entry before React loads: nothing here imports React.
 */

import type { Currency } from '../../core/index.ts'
import { readPreference } from '../shared/preference-storage.ts'

export const CURRENCY_KEY = 'dsh-lens.currency'
export const CURRENCY_PARAM = 'currency'

const currencyOf = (text: string | null): Currency | null => {
  const upper = text?.toUpperCase()
  return upper === 'CNY' || upper === 'USD' ? upper : null
}

export function initialCurrency(search: string): Currency {
  return currencyOf(new URLSearchParams(search).get(CURRENCY_PARAM)) ?? currencyOf(readPreference(CURRENCY_KEY)) ?? 'CNY'
}

/**
 * The address with `?currency=` set to `currency`, the hash and every other parameter kept as written (re-serializing
 * the whole query would percent-encode a `?log=` path).
 */
export function withCurrency(href: string, currency: Currency): string {
  const url = new URL(href)
  const kept = url.search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part !== '' && !part.startsWith(`${CURRENCY_PARAM}=`))
  url.search = [...kept, `${CURRENCY_PARAM}=${currency}`].join('&')
  return url.toString()
}
