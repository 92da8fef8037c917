/**
 * The Connect flow without React: a TailClient to the companion server, one subscription at a time fed into
 * the lens store's live feed (the same worker, incrementally), and a small status store for the UI. A full
 * snapshot (first open, reset, epoch change) starts a fresh feed; a resume continues the current one.
 */

import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SessionListItem, SourceRef, UpstreamState } from '../../live/protocol.ts'
import { TailClient, type LiveStatus, type StreamError, type WebSocketFactory } from '../../live/tail-client.ts'
import type { LensStore } from '../../store/create-lens-store.ts'
import type { LiveFeed } from '../../store/slices/source-slice.ts'

/** What the page URL says: `?ws=<stream url>&token=<token>[&session=<id>]`. */
export interface LiveParams {
  readonly ws: string
  readonly token: string | null
  readonly session: string | null
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
// New subagent children appear as new logs: re-list now and then so the status line can offer them.
const LIST_REFRESH_MS = 10_000
// Several `sessions-changed` in a burst (a subagent starting: added, running, titled) cost one list.
const SESSIONS_CHANGED_DELAY_MS = 100

export class LiveController {
  readonly view: StoreApi<LiveView>
  private readonly client: TailClient
  private feed: LiveFeed | null = null
  private subscription: { unsubscribe(): void } | null = null
  private lastSeq = -1
  /** A session asked for before the list arrived: opened once it has. */
  private opening: string | null = null
  private ticker: ReturnType<typeof setInterval> | undefined
  private lister: ReturnType<typeof setInterval> | undefined

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
    }))
    this.client = new TailClient({
      url: params.ws,
      ...(params.token === null ? {} : { token: params.token }),
      client: 'dsh-lens-viewer/0.1',
      ...(webSocket === undefined ? {} : { webSocket }),
      onStatus: (status, detail) => {
        this.view.setState({ status, detail: detail ?? null })
        if (status === 'connected' && this.view.getState().sessions === null) void this.refreshSessions()
      },
      // Defects the server stepped over are the subscription's (see `defects`), not a failure of the connection.
      onError: (error) => {
        if (!(error.code === 'corrupt' && error.fatal === false)) this.view.setState({ error: `${error.code}: ${error.message}` })
      },
      // A dsh web session appeared, started or stopped: the list is worth asking for again at once.
      onSessionsChanged: () => this.sessionsChanged(),
    })
  }

  private relist: ReturnType<typeof setTimeout> | undefined

  private sessionsChanged(): void {
    this.relist ??= setTimeout(() => {
      this.relist = undefined
      void this.refreshSessions()
    }, SESSIONS_CHANGED_DELAY_MS)
  }

  start(): void {
    this.client.connect()
    this.ticker = setInterval(() => {
      this.view.setState({ lastSeq: this.lastSeq, eventsPerSecond: this.client.eventsPerSecond })
    }, VIEW_UPDATE_MS)
    this.lister = setInterval(() => {
      if (this.client.status === 'live' || this.client.status === 'connected') void this.refreshSessions()
    }, LIST_REFRESH_MS)
    const session = this.view.getState().sessionId ?? this.params.session
    if (session !== null) this.open(session)
  }

  stop(): void {
    clearInterval(this.ticker)
    clearInterval(this.lister)
    clearTimeout(this.relist)
    this.relist = undefined
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
  }

  setPickerOpen(open: boolean): void {
    this.view.setState({ pickerOpen: open })
    if (open) void this.refreshSessions()
  }

  /**
   * Follow one session: the panes switch to it, and the page URL remembers it for a reload. A session the list names
   * as a dsh web session is followed through the host; before the list is known (a reload on `?session=`), it is
   * asked for first.
   */
  open(sessionId: string, listed = false): void {
    const sessions = this.view.getState().sessions
    if (sessions === null && !listed) {
      this.view.setState({ sessionId, pickerOpen: false })
      this.opening = sessionId
      void this.refreshSessions().then(() => {
        if (this.opening === sessionId) this.open(sessionId, true)
      })
      return
    }
    this.opening = null
    const item = sessions?.find((s) => s.sessionId === sessionId)
    const source: SourceRef = item?.source === 'dsh-web' ? { kind: 'dsh-web', sessionId } : { kind: 'file', sessionId }
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
      url.searchParams.set('session', sessionId)
      window.history.replaceState(window.history.state, '', url)
    }
    this.subscription = this.client.subscribe('view', source, {
      onSnapshot: (info) => {
        if (info.mode === 'full' || this.feed === null) {
          this.view.setState({ defects: [] })
          this.feed?.cancel()
          this.feed = this.store.getState().startLiveFeed(info.sessionId ?? sessionId)
          this.feed.append(info.headerLine + '\n')
        }
        this.lastSeq = info.fromSeq - 1
      },
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

  /** Back to following: the cursor jumps to the newest event and the store keeps it there while it grows. */
  follow(): void {
    const length = this.store.getState().summary?.length ?? 0
    if (length > 0) this.store.getState().setCursor(length - 1)
  }
}
