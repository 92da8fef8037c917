/**
 * The page's own source, opened before React's first render (main.tsx): `?log=URL`, or the bundled demo session
 * when no source is given, and nothing for a `?ws=` live page (its Connect flow feeds the store). Starting here
 * instead of in an effect lets the worker download and fold while the page boots.
 */

import type { LensStore } from '../../store/create-lens-store.ts'

/** Where `npm run demo` writes the demo session (public/demo/, served at the site root). */
export const DEMO_LOG_URL = '/demo/demo-session.jsonl'

export function openInitialSource(store: LensStore, search: string): void {
  const params = new URLSearchParams(search)
  if (params.get('ws') !== null) return
  store.getState().loadUrl(params.get('log') ?? DEMO_LOG_URL)
}
