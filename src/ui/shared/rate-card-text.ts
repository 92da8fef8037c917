/**
 * The rate card an amount was priced with, in the words every cost pane's estimate caveat uses: its version and read
 * date, and, when it is the companion server's (`--rates`, `DSH_LENS_RATES`) rather than the page's built-in one, that
 * it is (its version names the rates file), so a page never shows another card's amounts without saying so.
 */

import type { RateCardInfo } from '../../protocol/cost.ts'

export function rateCardText(card: RateCardInfo): string {
  return `rate card ${card.version}, prices read ${card.checked}${card.custom ? ' (the server’s --rates card)' : ''}`
}
