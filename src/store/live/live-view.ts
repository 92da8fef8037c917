/**
 * What the page knows of the companion server it follows (`?ws=`, or a page `dsh-lens` served), kept in the store's
 * `liveView`: the connection, the sessions list (one map by path, for the picker, the status line's links and the
 * sessions home alike) and the followed session.
 */

import type { StoreApi } from 'zustand/vanilla'
import type { CatalogRoot, ScanProgress, SessionListItem, UpstreamState } from '../../live/protocol.ts'
import type { LiveStatus, StreamError, TailClient } from '../../live/tail-client.ts'
import type { LensState } from '../slices/types.ts'

/** The page's store as the live jobs see it. */
export type LiveStoreApi = StoreApi<LensState>

/** Change part of `liveView` (`change` may read the view as it is now). */
export function patchLive(store: LiveStoreApi, change: Partial<LiveView> | ((view: LiveView) => Partial<LiveView>)): void {
  store.setState((s) => ({ liveView: { ...s.liveView, ...(typeof change === 'function' ? change(s.liveView) : change) } }))
}

/** What the page URL says: `?ws=<stream url>&token=<token>[&session=<id>]`, or a served page's `?session=<id>`. */
export interface LiveParams {
  readonly ws: string
  readonly token: string | null
  readonly session: string | null
  /** The page `dsh-lens` serves: a sessions home instead of the picker, signed in by cookie (no token). */
  readonly served?: true
}

/** The companion server as the page's store is given it: the client (not connected yet) and what the URL said. */
export interface LiveConnection {
  readonly client: TailClient
  readonly params: LiveParams
}

/** The server's sessions, as `watch-sessions` keeps them (and `list` refreshes them). */
export interface SessionsView {
  /** Every session, by path, in the server's order; null until the server's first answer. */
  readonly items: ReadonlyMap<string, SessionListItem> | null
  readonly scan: ScanProgress | null
  readonly roots: readonly CatalogRoot[]
}

export interface LiveView {
  /** `connect`: the Connect flow (`?ws=`); `served`: a page `dsh-lens` served; null: this page follows no server. */
  readonly mode: 'connect' | 'served' | null
  readonly status: LiveStatus
  readonly detail: string | null
  readonly list: SessionsView
  readonly listError: string | null
  readonly sessionId: string | null
  readonly pickerOpen: boolean
  readonly lastSeq: number
  readonly eventsPerSecond: number
  readonly turnOpen: boolean | null
  readonly writer: 'active' | 'missing' | null
  /** Where the followed session comes from: its log file, or the dsh web host the server is attached to. */
  readonly source: 'file' | 'dsh-web' | null
  /** dsh-web: the server's link to the host (`gone`: the session stays open read-only until the host answers). */
  readonly upstream: UpstreamState | null
  /** dsh-web: the host's title for the session. */
  readonly title: string | null
  readonly error: string | null
  readonly resets: number
  /**
   * Defects the server stepped over in the followed log (error `corrupt`, not fatal), newest last. The defective
   * lines themselves reach the worker in the appends, so the diagnostics pane marks them as for a dropped file;
   * a lost zstd frame shows there as a seq gap, and here with its byte offset.
   */
  readonly defects: readonly StreamError[]
}

/** What a followed session resets to when another is opened, or none is. */
export const NOT_FOLLOWING = {
  lastSeq: -1,
  turnOpen: null,
  writer: null,
  source: null,
  upstream: null,
  title: null,
  error: null,
  defects: [],
} as const satisfies Partial<LiveView>

export function initialLiveView(params: LiveParams | null): LiveView {
  return {
    mode: params === null ? null : params.served === true ? 'served' : 'connect',
    status: params === null ? 'closed' : 'connecting',
    detail: null,
    list: { items: null, scan: null, roots: [] },
    listError: null,
    sessionId: null,
    pickerOpen: params !== null && params.served !== true && params.session === null,
    eventsPerSecond: 0,
    resets: 0,
    ...NOT_FOLLOWING,
  }
}

export function parseLiveParams(search: string): LiveParams | null {
  const params = new URLSearchParams(search)
  const ws = params.get('ws')
  if (ws === null || !/^wss?:\/\//.test(ws)) return null
  return { ws, token: params.get('token'), session: params.get('session') }
}

/** The list's rows in the server's order (the picker's and the status line's view of it). */
export function sessionItems(list: SessionsView): SessionListItem[] | null {
  return list.items === null ? null : [...list.items.values()]
}

/** The row of a session id (a session both on disk and in a dsh web host is listed once, from the host). */
export function sessionItem(list: SessionsView, sessionId: string): SessionListItem | undefined {
  let item: SessionListItem | undefined
  for (const candidate of list.items?.values() ?? [])
    if (candidate.sessionId === sessionId && (item === undefined || candidate.source === 'dsh-web')) item = candidate
  return item
}
