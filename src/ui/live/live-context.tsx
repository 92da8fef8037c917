/**
 * The page's live controller, when it has one: the Connect flow (`?ws=`) or a page `dsh-lens` served (the sessions
 * home and `?session=`). One per page, made before the first render and started by an effect; the top bar, the
 * status line and the sessions home read it from here.
 */

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import type { LensStore } from '../../store/create-lens-store.ts'
import { STREAM_PATH } from '../../live/protocol.ts'
import type { PageSource } from '../app/page-source.ts'
import { LiveController, parseLiveParams } from './live-controller.ts'

const LiveContext = createContext<LiveController | null>(null)
const SourceContext = createContext<PageSource>({ kind: 'demo' })

function controllerFor(source: PageSource, store: LensStore): LiveController | null {
  if (source.kind === 'connect') {
    const params = parseLiveParams(window.location.search)
    return params === null ? null : new LiveController(store, params)
  }
  if (source.kind !== 'served') return null
  // The stream of the server that served this page: the sign-in cookie goes with it, no token in the page.
  const ws = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${STREAM_PATH}`
  return new LiveController(store, { ws, token: null, session: source.session, served: true })
}

export function LiveProvider({ source, children }: { source: PageSource; children: ReactNode }) {
  const store = useLensStoreApi()
  // Constructing is inert (no socket yet), so it can happen during render; the effect owns connecting.
  const [controller] = useState(() => controllerFor(source, store))
  useEffect(() => {
    if (controller === null) return
    controller.start()
    // StrictMode mounts twice in development: stop() then start() again must leave one live subscription.
    return () => controller.stop()
  }, [controller])
  return (
    <SourceContext value={source}>
      <LiveContext value={controller}>{children}</LiveContext>
    </SourceContext>
  )
}

export function useLiveController(): LiveController | null {
  return useContext(LiveContext)
}

/** What the page was opened with (its address when it loaded). */
export function usePageSource(): PageSource {
  return useContext(SourceContext)
}
