/**
 * Browser-side client of `dsh-viewer.v1` (no React, no DOM beyond the standard WebSocket, so it runs in a
 * Web Worker or the main thread): hello/subscribe/ack, heartbeats, reconnect with backoff, and resume from
 * the last applied seq. Every append is checked for seq continuity; on any mismatch it re-subscribes from
 * lastSeq+1 instead of guessing, so handlers see each seq exactly once, in order.
 */

import { sourceRefProblem } from './source-limits.ts'
import { Backoff, type BackoffOptions } from './backoff.ts'
import {
  type IndexProgressView,
  PROTOCOL,
  PROTOCOL_VERSION,
  TOKEN_SUBPROTOCOL_PREFIX,
  type ClientMessage,
  type ErrorCode,
  type CatalogRoot,
  type ResetReason,
  type ScanProgress,
  type ServerMessage,
  type SessionListItem,
  type SourceRef,
} from './protocol.ts'

/** The part of the standard WebSocket this client uses (the `ws` package's class fits too, for tests). */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
}

export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike

export type LiveStatus = 'connecting' | 'connected' | 'reconnecting' | 'reset' | 'live' | 'closed'

/** What a `snapshot` message says about a (re)sync, without the envelope. */
export type SnapshotInfo = Omit<Extract<ServerMessage, { type: 'snapshot' }>, 'type' | 'sub'>

/**
 * An `error` as handlers see it. For `corrupt` with `fatal: false` the stream goes on: `line`/`offset`/`diagnostic`
 * say where the defect is (the defective lines themselves arrive in the appends, for the log's own decoder to mark).
 */
export interface StreamError {
  readonly code: ErrorCode
  readonly message: string
  readonly fatal?: boolean
  readonly line?: number
  readonly offset?: number
  readonly diagnostic?: string
}

export interface AppendBatch {
  readonly fromSeq: number
  readonly toSeq: number
  readonly lines: readonly string[]
}

export interface SubscriptionHandlers {
  /** A (re)sync starts; for mode "full" drop everything held for this subscription first. */
  onSnapshot(info: SnapshotInfo): void
  /** Contiguous records, `fromSeq === previous toSeq + 1`; feed `lines` to the same LensLog. */
  onAppend(batch: AppendBatch): void
  /** The file was truncated or replaced: everything held is void; a full snapshot follows. */
  onReset(reason: ResetReason): void
  onLive?(lastSeq: number): void
  onWriterStatus?(status: Extract<ServerMessage, { type: 'status' }>): void
  onError?(error: StreamError): void
}

/** Who hears a connection's status and its errors (the options' handlers, or `listen`'s). */
/** A content search's answer (the server's `content-hits`). */
export type ContentHits = Extract<ServerMessage, { type: 'content-hits' }>

export interface ConnectionListener {
  onStatus?(status: LiveStatus, detail?: string): void
  onError?(error: StreamError & { sub?: string }): void
}

export interface TailClientOptions extends ConnectionListener {
  /** `ws://host:port/v1/stream` (from the page's `?ws=`). */
  readonly url: string
  readonly token?: string
  /** How the token travels: an offered subprotocol (default, stays out of URLs and logs) or `?token=`. */
  readonly tokenVia?: 'subprotocol' | 'query'
  readonly webSocket?: WebSocketFactory
  readonly client?: string
  readonly backoff?: BackoffOptions
  /** Credit window per subscription, in events. */
  readonly window?: number
}

/** The sessions list as a watcher keeps it: the whole list on every (re)connect, then what changed. */
export interface SessionsWatchHandlers {
  /** The whole list (after each connect): replace whatever is held. */
  onList(items: readonly SessionListItem[], scan: ScanProgress | null, roots: readonly CatalogRoot[]): void
  /** Rows to upsert (by path) and paths that are gone. */
  onChange(items: readonly SessionListItem[], removed: readonly string[], scan: ScanProgress, roots: readonly CatalogRoot[]): void
}

export interface LiveSubscription {
  readonly sub: string
  readonly lastSeq: number
  readonly epoch: string | null
  unsubscribe(): void
}

interface SubState {
  readonly sub: string
  readonly source: SourceRef
  readonly handlers: SubscriptionHandlers
  epoch: string | null
  lastSeq: number
  /** Waiting for a snapshot: appends are ignored until one arrives. */
  syncing: boolean
  /** Caught up once (a `live` came): appends after it are the log growing, what events/s counts. */
  caughtUp: boolean
}

const OPEN = 1

export class TailClient {
  private ws: WebSocketLike | undefined
  private readonly subs = new Map<string, SubState>()
  private readonly backoff: Backoff
  private statusValue: LiveStatus = 'closed'
  private heartbeatMs = 10_000
  private lastHeard = 0
  private pingTimer: ReturnType<typeof setInterval> | undefined
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined
  private stopped = true
  private welcomed = false
  private reqCounter = 0
  private readonly lists = new Map<string, { resolve(items: readonly SessionListItem[]): void; reject(e: Error): void }>()
  private readonly watches = new Map<string, SessionsWatchHandlers>()
  private readonly contentSearches = new Map<
    string,
    { readonly query: string; readonly limit: number; resolve(answer: ContentHits): void; reject(e: Error): void }
  >()
  private readonly indexWatches = new Map<string, (index: IndexProgressView) => void>()
  // Events/s over a sliding window of one-second buckets.
  private readonly rate: Array<{ t: number; n: number }> = []

  private listener: ConnectionListener

  constructor(private readonly options: TailClientOptions) {
    this.backoff = new Backoff(options.backoff)
    this.listener = options
  }

  /** Hear the connection's status and errors from now on (a client made before its owner: the page's entry). */
  listen(listener: ConnectionListener): void {
    this.listener = listener
  }

  get status(): LiveStatus {
    return this.statusValue
  }

  /** Events the log grew by per second over the last 5 s: a (re)sync's catch-up is reading, not growth, and not counted. */
  get eventsPerSecond(): number {
    const now = Date.now()
    while (this.rate.length > 0 && (this.rate[0] as { t: number }).t < now - 5000) this.rate.shift()
    const n = this.rate.reduce((sum, b) => sum + b.n, 0)
    return n / 5
  }

  connect(): void {
    if (!this.stopped) return
    this.stopped = false
    this.open()
  }

  close(): void {
    this.stopped = true
    clearTimeout(this.reconnectTimer)
    clearInterval(this.pingTimer)
    this.ws?.close(1000, 'client closed')
    this.ws = undefined
    this.setStatus('closed')
    for (const l of this.lists.values()) l.reject(new Error('client closed'))
    this.lists.clear()
    for (const c of this.contentSearches.values()) c.reject(new Error('client closed'))
    this.contentSearches.clear()
  }

  list(): Promise<readonly SessionListItem[]> {
    const req = `l${++this.reqCounter}`
    return new Promise((resolve, reject) => {
      this.lists.set(req, { resolve, reject })
      if (this.welcomed) this.send({ type: 'list', req })
    })
  }

  /** Search every served session's text (`content-search`); asked again after a reconnect until answered. */
  searchContent(query: string, limit = 20): Promise<ContentHits> {
    const req = `c${++this.reqCounter}`
    return new Promise((resolve, reject) => {
      this.contentSearches.set(req, { query, limit, resolve, reject })
      if (this.welcomed) this.send({ type: 'content-search', req, query, limit })
    })
  }

  /** The content index's progress (`watch-index`: it starts the background build), across reconnects. */
  watchIndex(onProgress: (index: IndexProgressView) => void): () => void {
    const req = `i${++this.reqCounter}`
    this.indexWatches.set(req, onProgress)
    if (this.welcomed) this.send({ type: 'watch-index', req })
    return () => {
      if (this.indexWatches.delete(req) && this.welcomed) this.send({ type: 'unwatch-index', req })
    }
  }

  /** Keep the sessions list current (`watch-sessions`), across reconnects. Returns the stop function. */
  watchSessions(handlers: SessionsWatchHandlers): () => void {
    const req = `w${++this.reqCounter}`
    this.watches.set(req, handlers)
    if (this.welcomed) this.send({ type: 'watch-sessions', req })
    return () => {
      if (this.watches.delete(req) && this.welcomed) this.send({ type: 'unwatch-sessions', req })
    }
  }

  subscribe(sub: string, source: SourceRef, handlers: SubscriptionHandlers): LiveSubscription {
    if (this.subs.has(sub)) this.unsubscribeNow(sub)
    const problem = sourceRefProblem(source)
    if (problem !== null) return this.refuse(sub, problem, handlers)
    const state: SubState = { sub, source, handlers, epoch: null, lastSeq: -1, syncing: true, caughtUp: false }
    this.subs.set(sub, state)
    if (this.welcomed) this.sendSubscribe(state)
    return {
      sub,
      get lastSeq() {
        return state.lastSeq
      },
      get epoch() {
        return state.epoch
      },
      unsubscribe: () => this.unsubscribeNow(sub),
    }
  }

  /**
   * A source the server would answer with a fatal bad-request (and a closed connection) is never sent: the
   * reconnect would send it again, forever. The subscription fails at once, with the reason, and nothing else stops.
   */
  private refuse(sub: string, problem: string, handlers: SubscriptionHandlers): LiveSubscription {
    const error: StreamError = { code: 'bad-request', message: `not subscribed: ${problem}`, fatal: true }
    queueMicrotask(() => {
      handlers.onError?.(error)
      this.listener.onError?.({ ...error, sub })
    })
    return { sub, lastSeq: -1, epoch: null, unsubscribe: () => undefined }
  }

  private unsubscribeNow(sub: string): void {
    if (!this.subs.delete(sub)) return
    if (this.welcomed) this.send({ type: 'unsubscribe', sub })
  }

  private setStatus(status: LiveStatus, detail?: string): void {
    if (this.statusValue === status) return
    this.statusValue = status
    this.listener.onStatus?.(status, detail)
  }

  private open(): void {
    const token = this.options.token
    const via = this.options.tokenVia ?? 'subprotocol'
    let url = this.options.url
    const protocols = [PROTOCOL]
    if (token !== undefined && via === 'query') url += `${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`
    if (token !== undefined && via === 'subprotocol') protocols.push(TOKEN_SUBPROTOCOL_PREFIX + token)
    const factory: WebSocketFactory = this.options.webSocket ?? ((u, p) => new WebSocket(u, p) as unknown as WebSocketLike)
    this.setStatus(this.statusValue === 'closed' ? 'connecting' : 'reconnecting')
    this.welcomed = false
    let ws: WebSocketLike
    try {
      ws = factory(url, protocols)
    } catch (error) {
      this.scheduleReconnect(error instanceof Error ? error.message : String(error))
      return
    }
    this.ws = ws
    ws.onopen = () => {
      this.lastHeard = Date.now()
      const resume = [...this.subs.values()]
        .filter((s) => s.epoch !== null)
        .map((s) => ({ sub: s.sub, source: s.source, epoch: s.epoch as string, lastSeq: s.lastSeq, ...this.windowField() }))
      for (const s of this.subs.values()) s.syncing = true
      this.send({ type: 'hello', protocol: PROTOCOL_VERSION, client: this.options.client ?? 'dsh-lens/0.1', resume })
    }
    ws.onmessage = (event) => {
      if (this.ws !== ws) return
      this.lastHeard = Date.now()
      if (typeof event.data !== 'string') return
      let message: ServerMessage
      try {
        message = JSON.parse(event.data) as ServerMessage
      } catch {
        return
      }
      this.onMessage(message)
    }
    ws.onclose = () => {
      if (this.ws !== ws) return
      this.ws = undefined
      this.welcomed = false
      clearInterval(this.pingTimer)
      if (!this.stopped) this.scheduleReconnect('connection closed')
    }
    ws.onerror = () => undefined
  }

  private windowField(): { window?: number } {
    return this.options.window === undefined ? {} : { window: this.options.window }
  }

  private scheduleReconnect(detail: string): void {
    for (const l of this.lists.values()) l.reject(new Error(detail))
    this.lists.clear()
    this.setStatus('reconnecting', detail)
    clearTimeout(this.reconnectTimer)
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.open()
    }, this.backoff.next())
  }

  private send(message: ClientMessage): void {
    if (this.ws !== undefined && this.ws.readyState === OPEN) this.ws.send(JSON.stringify(message))
  }

  private sendSubscribe(state: SubState, fromSeq = 0): void {
    state.syncing = true
    const epoch = state.epoch
    this.send({
      type: 'subscribe',
      sub: state.sub,
      source: state.source,
      fromSeq,
      ...(epoch === null ? {} : { epoch }),
      ...this.windowField(),
    })
  }

  /** Something does not line up: ask again from the last applied seq rather than guess. */
  private resync(state: SubState): void {
    this.sendSubscribe(state, state.lastSeq + 1)
  }

  /**
   * What the client does with each server message: one handler per type, typed by the `ServerMessage` union (like
   * the worker's query table), so a message added to dsh-viewer.v1 without a handler fails to compile.
   */
  private readonly handlers: { readonly [T in ServerMessage['type']]: (message: Extract<ServerMessage, { type: T }>) => void } = {
    welcome: (message) => this.onWelcome(message),
    sessions: (message) => {
      const watch = this.watches.get(message.req)
      if (watch !== undefined) return watch.onList(message.items, message.scan ?? null, message.roots ?? [])
      const pending = this.lists.get(message.req)
      this.lists.delete(message.req)
      pending?.resolve(message.items)
    },
    'sessions-changed': (message) =>
      this.watches.get(message.req)?.onChange(message.items, message.removed, message.scan, message.roots),
    'content-hits': (message) => {
      const pending = this.contentSearches.get(message.req)
      this.contentSearches.delete(message.req)
      pending?.resolve(message)
    },
    'index-progress': (message) => this.indexWatches.get(message.req)?.(message.index),
    snapshot: (message) => this.onSnapshot(message),
    append: (message) => this.onAppend(message),
    live: (message) => {
      const s = this.subs.get(message.sub)
      if (s === undefined || s.syncing) return
      s.caughtUp = true
      this.setStatus('live')
      s.handlers.onLive?.(message.lastSeq)
    },
    reset: (message) => {
      const s = this.subs.get(message.sub)
      if (s === undefined) return
      s.epoch = null
      s.lastSeq = -1
      s.syncing = true
      this.setStatus('reset', message.reason)
      s.handlers.onReset(message.reason)
    },
    status: (message) => this.subs.get(message.sub)?.handlers.onWriterStatus?.(message),
    ping: (message) => {
      this.send({ type: 'pong', t: message.t })
      // Messages arrive in order, so by now every append the server counted must have been applied.
      for (const [sub, seq] of Object.entries(message.subs)) {
        const s = this.subs.get(sub)
        if (s !== undefined && !s.syncing && seq > s.lastSeq) this.resync(s)
      }
    },
    pong: () => undefined,
    error: (message) => this.onError(message),
  }

  private onMessage(message: ServerMessage): void {
    // The table is keyed by the message's own type, so this handler takes exactly this message.
    const handler = this.handlers[message.type] as (message: ServerMessage) => void
    handler(message)
  }

  private onWelcome(message: Extract<ServerMessage, { type: 'welcome' }>): void {
    this.welcomed = true
    this.backoff.reset()
    this.heartbeatMs = message.heartbeatMs
    clearInterval(this.pingTimer)
    this.pingTimer = setInterval(() => this.beat(), this.heartbeatMs)
    this.setStatus('connected')
    for (const s of this.subs.values()) if (s.epoch === null) this.sendSubscribe(s)
    for (const req of this.lists.keys()) this.send({ type: 'list', req })
    for (const req of this.watches.keys()) this.send({ type: 'watch-sessions', req })
    for (const [req, c] of this.contentSearches) this.send({ type: 'content-search', req, query: c.query, limit: c.limit })
    for (const req of this.indexWatches.keys()) this.send({ type: 'watch-index', req })
  }

  private onError(message: Extract<ServerMessage, { type: 'error' }>): void {
    const s = message.sub === undefined ? undefined : this.subs.get(message.sub)
    const error: StreamError = {
      code: message.code,
      message: message.message,
      fatal: message.fatal,
      ...(message.line === undefined ? {} : { line: message.line }),
      ...(message.offset === undefined ? {} : { offset: message.offset }),
      ...(message.diagnostic === undefined ? {} : { diagnostic: message.diagnostic }),
    }
    if (s !== undefined) s.handlers.onError?.(error)
    this.listener.onError?.({ ...error, ...(message.sub === undefined ? {} : { sub: message.sub }) })
    if (message.req !== undefined) {
      this.lists.get(message.req)?.reject(new Error(message.message))
      this.lists.delete(message.req)
      this.contentSearches.get(message.req)?.reject(new Error(message.message))
      this.contentSearches.delete(message.req)
    }
  }

  private onSnapshot(message: Extract<ServerMessage, { type: 'snapshot' }>): void {
    const s = this.subs.get(message.sub)
    if (s === undefined) return
    if (message.mode === 'resume') {
      if (message.epoch !== s.epoch || message.fromSeq !== s.lastSeq + 1) {
        // A resume that does not start where we are cannot be applied; ask for exactly what we need.
        if (message.epoch === s.epoch) return this.resync(s)
        s.epoch = null
        s.lastSeq = -1
        s.handlers.onReset('epoch-mismatch')
        this.sendSubscribe(s)
        return
      }
    } else if (s.lastSeq >= 0 || (s.epoch !== null && s.epoch !== message.epoch)) {
      s.lastSeq = -1
      s.handlers.onReset('epoch-mismatch')
    }
    s.epoch = message.epoch
    s.lastSeq = message.fromSeq - 1
    s.syncing = false
    // A full snapshot is read from the start again: not growth until the next `live`.
    if (message.mode === 'full') s.caughtUp = false
    s.handlers.onSnapshot({
      epoch: message.epoch,
      sessionId: message.sessionId,
      headerLine: message.headerLine,
      encoding: message.encoding,
      fromSeq: message.fromSeq,
      headSeq: message.headSeq,
      mode: message.mode,
    })
    if (this.statusValue === 'reset') this.setStatus('connected')
  }

  private onAppend(message: Extract<ServerMessage, { type: 'append' }>): void {
    const s = this.subs.get(message.sub)
    if (s === undefined || s.syncing || message.epoch !== s.epoch) return
    if (message.toSeq <= s.lastSeq) {
      this.send({ type: 'ack', sub: s.sub, seq: s.lastSeq })
      return
    }
    if (message.fromSeq !== s.lastSeq + 1 || message.toSeq < message.fromSeq) return this.resync(s)
    s.lastSeq = message.toSeq
    s.handlers.onAppend({ fromSeq: message.fromSeq, toSeq: message.toSeq, lines: message.lines })
    // Ack after the handler ran: credit means "applied", which is what bounds the client's own memory. Not when the
    // handler unsubscribed (the server would answer an ack for an unknown sub with an error).
    if (this.subs.get(s.sub) === s) this.send({ type: 'ack', sub: s.sub, seq: message.toSeq })
    if (!s.caughtUp) return
    const now = Date.now()
    const bucket = this.rate[this.rate.length - 1]
    const n = message.toSeq - message.fromSeq + 1
    if (bucket !== undefined && now - bucket.t < 1000) bucket.n += n
    else this.rate.push({ t: now, n })
  }

  private beat(): void {
    // 2.5 heartbeats of silence: the connection is dead even if the socket has not noticed.
    if (Date.now() - this.lastHeard > this.heartbeatMs * 2.5) {
      const ws = this.ws
      this.ws = undefined
      ws?.close(4000, 'heartbeat timeout')
      clearInterval(this.pingTimer)
      if (!this.stopped) this.scheduleReconnect('heartbeat timeout')
      return
    }
    this.send({ type: 'ping', t: Date.now() })
  }
}
