/** Every currency chosen after the first (the top bar's switch, the Cost mode's hint) is kept: the URL and local storage. */

import { useEffect } from 'react'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import { writePreference } from '../shared/preference-storage.ts'
import { CURRENCY_KEY, withCurrency } from './currency-preference.ts'

export function useRememberedCurrency(): void {
  const store = useLensStoreApi()
  useEffect(
    () =>
      store.subscribe((s, previous) => {
        if (s.currency === previous.currency) return
        writePreference(CURRENCY_KEY, s.currency)
        const next = withCurrency(window.location.href, s.currency)
        if (next !== window.location.href) window.history.replaceState(window.history.state, '', next)
      }),
    [store],
  )
}
