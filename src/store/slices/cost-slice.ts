/**
 * Money (issue 37): the currency every amount is shown in. The page opens in the URL's or the remembered one
 * (ui/app/currency-preference.ts) and keeps every later choice in both (ui/app/use-remembered-currency.ts).
 */

import type { Currency } from '../../core/index.ts'
import type { LensSliceCreator } from './types.ts'

export interface CostSlice {
  currency: Currency
  setCurrency: (currency: Currency) => void
}

export const createCostSlice: LensSliceCreator<CostSlice> = () => (set, get) => ({
  currency: 'CNY',
  setCurrency: (currency) => {
    if (get().currency !== currency) set({ currency })
  },
})
