/**
 * The page's link to the companion server, made by the store from the client the entry gave it: the connection's
 * status, and the three jobs it runs, each in a file of its own: the sessions list (session-list.ts), the followed
 * session fed into the store (live-follow.ts) and the page's address (page-history.ts). Components never hold it:
 * they call the store's live actions (`openLiveSession`, `goHome`, `followNewest`, `setPickerOpen`,
 * `refreshSessions`) and read `liveView`.
 *
 * Served mode (the page `dsh-lens` serves, signed in by its cookie): the sessions home's list, a history entry per
 * session (Back returns to the home), and the open session's title and project handed to the store.
 */

import type { SourceRef } from '../../live/protocol.ts'
import { LiveFollow } from './live-follow.ts'
import { NOT_FOLLOWING, patchLive, sessionItem, type LiveConnection, type LiveStoreApi, type LiveView } from './live-view.ts'
import { PageHistory } from './page-history.ts'
import { SessionList } from './session-list.ts'

// Status is pushed to React at most this often; appends themselves go straight to the worker.
const VIEW_UPDATE_MS = 250

export class LiveController {
  private readonly sessions: SessionList
  private readonly follower: LiveFollow
  private readonly history: PageHistory
  private ticker: ReturnType<typeof setInterval> | undefined
  private unfollowStore: (() => void) | undefined
  /** A session asked for before the list arrived (a reload on `?session=`): opened once its source is known. */
  private pending: { sessionId: string; push: boolean } | null = null

  constructor(
    private readonly store: LiveStoreApi,
    private readonly connection: LiveConnection,
  ) {
    this.sessions = new SessionList(store, connection.client, () => {
      this.syncMeta()
      this.openPending()
    })
    this.follower = new LiveFollow(store, connection.client, () => this.syncMeta())
    this.history = new PageHistory({
      open: (sessionId) => {
        if (sessionId !== this.view().sessionId) this.open(sessionId, false)
      },
      home: () => this.home(false),
    })
    connection.client.listen({
      onStatus: (status, detail) => {
        this.patch({ status, detail: detail ?? null })
        if (status === 'connected' && this.view().list.items === null && !this.served) void this.sessions.refresh()
      },
      // Defects the server stepped over are the subscription's (see `defects`), not a failure of the connection.
      onError: (error) => {
        if (!(error.code === 'corrupt' && error.fatal === false)) this.patch({ error: `${error.code}: ${error.message}` })
      },
    })
  }

  private get served(): boolean {
    return this.connection.params.served === true
  }

  start(): void {
    this.connection.client.connect()
    this.ticker = setInterval(() => {
      this.patch({ lastSeq: this.follower.lastSeq, eventsPerSecond: this.connection.client.eventsPerSecond })
    }, VIEW_UPDATE_MS)
    // The picker, the status line's subagent links and the sessions home: the list as the server sees it, kept current
    // (a log that appears, a session or subagent the dsh web host starts), across reconnects.
    this.sessions.watch()
    if (this.served) {
      this.history.listen()
      // Another load (a dropped or picked file) replaces the session: stop following it, quietly.
      let generation = this.store.getState().loadGeneration
      this.unfollowStore = this.store.subscribe((s) => {
        if (s.loadGeneration === generation) return
        generation = s.loadGeneration
        if (this.follower.ownGeneration !== generation && this.view().sessionId !== null) this.detach()
      })
    }
    const session = this.view().sessionId ?? this.connection.params.session
    if (session !== null) this.open(session, false)
  }

  stop(): void {
    clearInterval(this.ticker)
    this.sessions.stop()
    this.unfollowStore?.()
    this.unfollowStore = undefined
    this.history.stop()
    this.follower.end()
    this.connection.client.close()
  }

  refreshSessions(): Promise<void> {
    return this.sessions.refresh()
  }

  setPickerOpen(open: boolean): void {
    this.patch({ pickerOpen: open })
    if (open) void this.sessions.refresh()
  }

  /**
   * Follow one session: the panes switch to it, and the page URL remembers it for a reload. Served pages push a
   * history entry (`push`, when the user opened it) so Back returns to the home; the Connect flow replaces its URL.
   * A session the list names as a dsh web session is followed through the host; before the list is known (a reload
   * on `?session=`) it waits for it (`listed`: the list was asked for and may have failed: follow the file).
   */
  open(sessionId: string, push = true, listed = false): void {
    const list = this.view().list
    if (list.items === null && !listed) {
      this.pending = { sessionId, push }
      this.patch({ sessionId, pickerOpen: false })
      if (!this.served) void this.sessions.refresh()
      return
    }
    this.pending = null
    const item = sessionItem(list, sessionId)
    const source: SourceRef = item?.source === 'dsh-web' ? { kind: 'dsh-web', sessionId } : { kind: 'file', sessionId }
    this.patch({
      ...NOT_FOLLOWING,
      sessionId,
      pickerOpen: false,
      source: source.kind,
      upstream: item?.upstream ?? null,
      title: item?.title ?? null,
    })
    this.history.showSession(sessionId, this.served && push)
    this.follower.start(sessionId, source)
  }

  /** Served pages: close the session and show the sessions home (`push`: a history entry, when the user asked). */
  home(push = true): void {
    this.detach()
    this.store.getState().clearSource()
    this.history.showHome(push)
  }

  /** Stop following the open session, leaving the store as it is. */
  private detach(): void {
    this.follower.stop()
    this.pending = null
    this.patch({ ...NOT_FOLLOWING, sessionId: null })
  }

  private openPending(): void {
    const pending = this.pending
    if (pending === null) return
    this.pending = null
    this.open(pending.sessionId, pending.push, true)
  }

  /** The open session's title and project from the list, for the top bar and the browser tab (served pages). */
  private syncMeta(): void {
    const { sessionId, list } = this.view()
    if (!this.served || sessionId === null || !this.follower.feeding) return
    const item = sessionItem(list, sessionId)
    const meta = { title: item?.title ?? null, project: item?.cwd ?? null }
    const now = this.store.getState().sourceMeta
    if (now?.title !== meta.title || now?.project !== meta.project) this.store.getState().setSourceMeta(meta)
  }

  private view(): LiveView {
    return this.store.getState().liveView
  }

  private patch(change: Partial<LiveView>): void {
    patchLive(this.store, change)
  }
}
