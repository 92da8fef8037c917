/**
 * Money (issue 37): the currency every amount is shown in, and the rate card the worker prices with. The page opens in
 * the URL's or the remembered currency (ui/app/currency-preference.ts) and keeps every later choice in both
 * (ui/app/use-remembered-currency.ts). A page the companion server gave another card (`--rates`, `DSH_LENS_RATES`: the
 * `dsh-lens-rates` meta) hands it to the worker before any pane asks, so the Request view, the Cost mode and the
 * inspector price with the card the sessions list priced with.
 */

import type { Currency } from '../../core/index.ts'
import type { RateCardInfo } from '../../protocol/cost.ts'
import type { LensSliceCreator } from './types.ts'

export interface CostSlice {
  currency: Currency
  setCurrency: (currency: Currency) => void
  /** The card the worker prices with once `applyRateCard` was answered (null: the built-in one, never changed). */
  rateCard: RateCardInfo | null
  /** Why the worker refused the server's card (it then prices with the built-in one), or null. */
  rateCardProblem: string | null
  /** Price with the card whose JSON is `card` from now on (null: the built-in one). */
  applyRateCard: (card: string | null) => Promise<void>
}

export const createCostSlice: LensSliceCreator<CostSlice> =
  ({ lens: client }) =>
  (set, get) => ({
    currency: 'CNY',
    setCurrency: (currency) => {
      if (get().currency !== currency) set({ currency })
    },
    rateCard: null,
    rateCardProblem: null,
    applyRateCard: (card) =>
      client.query('rate-card', { card }).then(
        (rateCard) => set({ rateCard, rateCardProblem: null }),
        (error: unknown) => set({ rateCardProblem: error instanceof Error ? error.message : String(error) }),
      ),
  })
