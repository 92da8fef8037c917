/** On first mount: open `?log=URL`, or the bundled demo session when no source is given (none for a `?ws=` live page). */

import { useEffect, useRef } from 'react'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'

/** Where `npm run demo` writes the demo session (public/demo/, served at the site root). */
export const DEMO_LOG_URL = '/demo/demo-session.jsonl'

export function useInitialSource(): void {
  const store = useLensStoreApi()
  const started = useRef(false)
  useEffect(() => {
    // StrictMode runs effects twice in development; the ref survives that, so the log is fetched once.
    if (started.current) return
    started.current = true
    const search = new URLSearchParams(window.location.search)
    // `?ws=` opens the Connect flow (src/ui/live), which feeds the store itself.
    if (search.get('ws') !== null) return
    const url = search.get('log')
    void store.getState().loadUrl(url ?? DEMO_LOG_URL)
  }, [store])
}
