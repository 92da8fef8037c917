/**
 * The page's own source, opened before React's first render (main.tsx): `?log=URL`, an offline bundle's inline logs,
 * or the bundled demo session when no source is given, and nothing for a `?ws=` live page or a served page (their
 * controller feeds the store) or a `?file=` link (the page asks for the file). Starting here instead of in an effect
 * lets the worker download and fold while the page boots.
 */

import type { LensStore } from '../../store/create-lens-store.ts'
import { openBundleLogs } from './bundle-logs.ts'
import type { PageSource } from './page-source.ts'

/** Where `npm run demo` writes the demo session (public/demo/, served at the site root). */
export const DEMO_LOG_URL = '/demo/demo-session.jsonl'

export function openInitialSource(store: LensStore, source: PageSource): void {
  if (source.kind === 'log') store.getState().loadUrl(source.url)
  else if (source.kind === 'demo') store.getState().loadUrl(DEMO_LOG_URL)
  else if (source.kind === 'bundle') void openBundleLogs(store, source.data)
}
