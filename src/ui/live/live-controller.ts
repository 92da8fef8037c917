/**
 * The Connect flow without React: a TailClient to the companion server, one subscription at a time fed into
 * the lens store's live feed (the same worker, incrementally), and a small status store for the UI. A full
 * snapshot (first open, reset, epoch change) starts a fresh feed; a resume continues the current one. The session
 * list (the picker, the status line's subagent links) is kept current by `watch-sessions`.
 *
 * Served mode (the page `dsh-lens` serves, signed in by its cookie): the same, plus the sessions home's list kept
 * current by `watch-sessions`, the page address as the open session (`?session=<id>`, a history entry per session so
 * Back returns to the home), and the open session's title and project handed to the store.
 */

import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CatalogRoot, ScanProgress, SessionListItem, SourceRef, UpstreamState } from '../../live/protocol.ts'
import { TailClient, type LiveStatus, type StreamError, type WebSocketFactory } from '../../live/tail-client.ts'
import type { LensStore } from '../../store/create-lens-store.ts'
import type { LiveFeed } from '../../store/slices/source-slice.ts'

/** What the page URL says: `?ws=<stream url>&token=<token>[&session=<id>]`, or a served page's `?session=<id>`. */
export interface LiveParams {
  readonly ws: string
  readonly token: string | null
  readonly session: string | null
  /** The page `dsh-lens` serves: a sessions home instead of the picker, signed in by cookie (no token). */
  readonly served?: true
}

/** The sessions home's list, as `watch-sessions` keeps it. */
export interface CatalogView {
  /** Every session, by path; null until the server's first answer. */
  readonly items: ReadonlyMap<string, SessionListItem> | null
  readonly scan: ScanProgress | null
  readonly roots: readonly CatalogRoot[]
}

export interface LiveView {
  readonly status: LiveStatus
  readonly detail: string | null
  readonly sessions: readonly SessionListItem[] | null
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
  readonly catalog: CatalogView
}

/** Stream defects kept for the status line (the server itself tells at most 100 per file). */
const MAX_DEFECTS = 100

export function parseLiveParams(search: string): LiveParams | null {
  const params = new URLSearchParams(search)
  const ws = params.get('ws')
  if (ws === null || !/^wss?:\/\//.test(ws)) return null
  return { ws, token: params.get('token'), session: params.get('session') }
}

// Status is pushed to React at most this often; appends themselves go straight to the worker.
const VIEW_UPDATE_MS = 250

export class LiveController {
  readonly view: StoreApi<LiveView>
  private readonly client: TailClient
  private feed: LiveFeed | null = null
  private subscription: { unsubscribe(): void } | null = null
  private lastSeq = -1
  private ticker: ReturnType<typeof setInterval> | undefined
  private unwatch: (() => void) | undefined
  private unfollowStore: (() => void) | undefined
  private readonly onPopState = (): void => {
    const session = new URLSearchParams(window.location.search).get('session')
    if (session === null) this.home(false)
    else if (session !== this.view.getState().sessionId) this.open(session, false)
  }

  constructor(
    private readonly store: LensStore,
    private readonly params: LiveParams,
    /** Tests inject the `ws` package here; the page uses the standard WebSocket. */
    webSocket?: WebSocketFactory,
  ) {
    this.view = createStore<LiveView>(() => ({
      status: 'connecting',
      detail: null,
      sessions: null,
      listError: null,
      sessionId: null,
      pickerOpen: params.session === null,
      lastSeq: -1,
      eventsPerSecond: 0,
      turnOpen: null,
      writer: null,
      source: null,
      upstream: null,
      title: null,
      error: null,
      resets: 0,
      defects: [],
      catalog: { items: null, scan: null, roots: [] },
    }))
    if (params.served === true) this.view.setState({ pickerOpen: false })
    this.client = new TailClient({
      url: params.ws,
      ...(params.token === null ? {} : { token: params.token }),
      client: 'dsh-lens-viewer/0.1',
      ...(webSocket === undefined ? {} : { webSocket }),
      onStatus: (status, detail) => {
        this.view.setState({ status, detail: detail ?? null })
        if (status === 'connected' && this.view.getState().sessions === null && params.served !== true)
          void this.refreshSessions()
      },
      // Defects the server stepped over are the subscription's (see `defects`), not a failure of the connection.
      onError: (error) => {
        if (!(error.code === 'corrupt' && error.fatal === false)) this.view.setState({ error: `${error.code}: ${error.message}` })
      },
    })
  }

  get served(): boolean {
    return this.params.served === true
  }

  start(): void {
    this.client.connect()
    this.ticker = setInterval(() => {
      this.view.setState({ lastSeq: this.lastSeq, eventsPerSecond: this.client.eventsPerSecond })
    }, VIEW_UPDATE_MS)
    if (this.served) {
      this.unwatch = this.client.watchSessions({
        onList: (items, scan, roots) => {
          // For the bench: when the list arrived, apart from when it was drawn.
          if (this.view.getState().catalog.items === null) performance.mark('dsh-lens:sessions-listed')
          this.setCatalog(new Map(items.map((i) => [i.path, i])), scan, roots)
        },
        onChange: (items, removed, scan, roots) => {
          const next = new Map(this.view.getState().catalog.items ?? [])
          for (const path of removed) next.delete(path)
          for (const item of items) next.set(item.path, item)
          this.setCatalog(next, scan, roots)
        },
      })
      if (typeof window !== 'undefined') window.addEventListener('popstate', this.onPopState)
      // Another load (a dropped or picked file) replaces the session: stop following it, quietly.
      let generation = this.store.getState().loadGeneration
      this.unfollowStore = this.store.subscribe((s) => {
        if (s.loadGeneration === generation) return
        generation = s.loadGeneration
        if (this.ownGeneration !== generation && this.view.getState().sessionId !== null) this.detach()
      })
    } else {
      // The picker and the status line's subagent links: the list as the server sees it, kept current (a log that
      // appears, a session or subagent the dsh web host starts), across reconnects.
      this.unwatch = this.client.watchSessions({
        onList: (items) => this.setSessions(items),
        onChange: (items, removed) => {
          const next = new Map((this.view.getState().sessions ?? []).map((i) => [i.path, i]))
          for (const path of removed) next.delete(path)
          for (const item of items) next.set(item.path, item)
          this.setSessions([...next.values()])
        },
      })
    }
    const session = this.view.getState().sessionId ?? this.params.session
    if (session !== null) this.open(session, false)
  }

  stop(): void {
    clearInterval(this.ticker)
    this.unwatch?.()
    this.unwatch = undefined
    this.unfollowStore?.()
    this.unfollowStore = undefined
    if (typeof window !== 'undefined') window.removeEventListener('popstate', this.onPopState)
    this.subscription?.unsubscribe()
    this.subscription = null
    this.feed?.end()
    this.feed = null
    this.client.close()
  }

  async refreshSessions(): Promise<void> {
    try {
      const sessions = await this.client.list()
      this.view.setState({ sessions, listError: null })
    } catch (error) {
      this.view.setState({ listError: error instanceof Error ? error.message : String(error) })
    }
    this.openPending()
  }

  private setSessions(sessions: readonly SessionListItem[]): void {
    this.view.setState({ sessions, listError: null })
    this.openPending()
  }

  setPickerOpen(open: boolean): void {
    this.view.setState({ pickerOpen: open })
    if (open) void this.refreshSessions()
  }

  /** The load generation of this controller's own feed (a different one is another source taking over). */
  private ownGeneration = -1

  private setCatalog(
    items: ReadonlyMap<string, SessionListItem>,
    scan: ScanProgress | null,
    roots: readonly CatalogRoot[],
  ): void {
    this.view.setState({ catalog: { items, scan, roots }, sessions: [...items.values()], listError: null })
    this.syncMeta()
    this.openPending()
  }

  /** A session asked for before the list arrived (a reload on `?session=`): its source is known now. */
  private pending: { sessionId: string; push: boolean } | null = null

  private openPending(): void {
    const pending = this.pending
    if (pending === null) return
    this.pending = null
    this.open(pending.sessionId, pending.push, true)
  }

  /**
   * Where to follow a session from: the dsh web host when the list names it as one of the host's (a session both on
   * disk and in the host is listed once, from the host), else its file. Null while the list is not known yet.
   */
  private sourceFor(sessionId: string, listed: boolean): { source: SourceRef; item: SessionListItem | undefined } | null {
    const { catalog, sessions } = this.view.getState()
    const items = this.served ? catalog.items?.values() : sessions
    if (items === undefined || items === null) {
      if (!listed) return null
      return { source: { kind: 'file', sessionId }, item: undefined }
    }
    let item: SessionListItem | undefined
    for (const candidate of items)
      if (candidate.sessionId === sessionId && (item === undefined || candidate.source === 'dsh-web')) item = candidate
    const source: SourceRef = item?.source === 'dsh-web' ? { kind: 'dsh-web', sessionId } : { kind: 'file', sessionId }
    return { source, item }
  }

  /** The open session's title and project from the catalog, for the top bar and the browser tab. */
  private syncMeta(): void {
    const { sessionId, catalog } = this.view.getState()
    if (sessionId === null || this.feed === null) return
    let item: SessionListItem | undefined
    for (const candidate of catalog.items?.values() ?? []) if (candidate.sessionId === sessionId) item = candidate
    const meta = { title: item?.title ?? null, project: item?.cwd ?? null }
    const now = this.store.getState().sourceMeta
    if (now?.title !== meta.title || now?.project !== meta.project) this.store.getState().setSourceMeta(meta)
  }

  /**
   * Follow one session: the panes switch to it, and the page URL remembers it for a reload. Served pages push a
   * history entry (`push`, when the user opened it) so Back returns to the home; the Connect flow replaces its URL.
   * A session the list names as a dsh web session is followed through the host; before the list is known (a reload
   * on `?session=`) it waits for it (`listed`: the list was asked for and may have failed: follow the file).
   */
  open(sessionId: string, push = true, listed = false): void {
    const found = this.sourceFor(sessionId, listed)
    if (found === null) {
      this.pending = { sessionId, push }
      this.view.setState({ sessionId, pickerOpen: false })
      if (!this.served) void this.refreshSessions()
      return
    }
    this.pending = null
    const { source, item } = found
    this.subscription?.unsubscribe()
    this.feed?.cancel()
    this.feed = null
    this.lastSeq = -1
    this.view.setState({
      sessionId,
      pickerOpen: false,
      lastSeq: -1,
      turnOpen: null,
      writer: null,
      source: source.kind,
      upstream: item?.upstream ?? null,
      title: item?.title ?? null,
      error: null,
      defects: [],
    })
    if (typeof window !== 'undefined') {
      const url = new URL(window.location.href)
      const already = url.searchParams.get('session') === sessionId
      url.searchParams.set('session', sessionId)
      if (this.served && push && !already) {
        url.hash = ''
        url.searchParams.delete('file')
        window.history.pushState(null, '', url)
      } else window.history.replaceState(window.history.state, '', url)
    }
    this.subscription = this.client.subscribe('view', source, {
      onSnapshot: (info) => {
        if (info.mode === 'full' || this.feed === null) {
          this.view.setState({ defects: [] })
          this.feed?.cancel()
          // Before the call: the store's listeners hear the new generation while it runs.
          this.ownGeneration = this.store.getState().loadGeneration + 1
          this.feed = this.store.getState().startLiveFeed(info.sessionId ?? sessionId)
          this.feed.append(info.headerLine + '\n')
          this.syncMeta()
        }
        this.lastSeq = info.fromSeq - 1
      },
      // Caught up with the file as it was: a deep link's `#seq=` can be applied once the worker has folded this far.
      onLive: (lastSeq) => this.feed?.settle(lastSeq),
      onAppend: (batch) => {
        // The worker's decoded-bytes budget closed the feed (LogSummary.sizeBudget): stop following instead of
        // receiving appends it drops; the size-budget banner and this error say so.
        const cut = this.store.getState().summary?.sizeBudget ?? null
        if (cut !== null && this.feed !== null) {
          this.subscription?.unsubscribe()
          this.subscription = null
          this.feed = null
          this.view.setState({
            error: `stopped following: the log passed the viewer's budget of ${cut.budgetBytes} decoded bytes after ${cut.events} events`,
          })
          return
        }
        this.feed?.append(batch.lines.join('\n') + '\n')
        this.lastSeq = batch.toSeq
      },
      onReset: () => {
        // The old feed's events are void; the full snapshot that follows starts a new one.
        this.feed?.cancel()
        this.feed = null
        this.lastSeq = -1
        this.view.setState((s) => ({ resets: s.resets + 1 }))
      },
      onWriterStatus: (status) =>
        this.view.setState({
          turnOpen: status.turnOpen,
          writer: status.writer,
          ...(status.source === 'dsh-web'
            ? { upstream: status.upstream ?? null, title: status.title ?? null, turnOpen: status.running ?? status.turnOpen }
            : {}),
        }),
      onError: (error) => {
        if (error.code === 'corrupt' && error.fatal === false) {
          this.view.setState((s) => ({ defects: [...s.defects, error].slice(-MAX_DEFECTS) }))
        } else this.view.setState({ error: `${error.code}: ${error.message}` })
      },
    })
  }

  /** Served pages: close the session and show the sessions home (`push`: a history entry, when the user asked). */
  home(push = true): void {
    this.detach()
    this.store.getState().clearSource()
    if (typeof window !== 'undefined') {
      const url = new URL(window.location.href)
      url.searchParams.delete('session')
      url.searchParams.delete('file')
      url.hash = ''
      if (push) window.history.pushState(null, '', url)
      else window.history.replaceState(null, '', url)
    }
  }

  /** Stop following the open session, leaving the store as it is. */
  private detach(): void {
    this.subscription?.unsubscribe()
    this.subscription = null
    this.feed?.cancel()
    this.feed = null
    this.lastSeq = -1
    this.pending = null
    this.view.setState({
      sessionId: null,
      lastSeq: -1,
      turnOpen: null,
      writer: null,
      source: null,
      upstream: null,
      title: null,
      error: null,
      defects: [],
    })
  }

  /** Back to following: the cursor jumps to the newest event and the store keeps it there while it grows. */
  follow(): void {
    const length = this.store.getState().summary?.length ?? 0
    if (length > 0) this.store.getState().setCursor(length - 1)
  }
}
