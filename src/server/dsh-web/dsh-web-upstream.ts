/**
 * The server's one link to a dsh web host (`--dsh URL`): both downlink sockets (`/api/events.mux`, `/api/events.host`),
 * the session catalog, and the followed sessions. The host has no heartbeat and no resume: when either socket ends, both
 * are dropped (as the harness's own client does), every followed session goes back to buffering, and the link is rebuilt
 * after a jittered backoff (500 ms doubling to 10 s); once both are open again each followed session takes a new
 * snapshot and carries on from its tail. The sockets are downlink-only: nothing is ever sent on them (the host closes a
 * socket that receives anything). Frames that do not parse, methods we do not know and frames for sessions nobody
 * follows are counted and dropped; they never reach a page.
 */

import { WebSocket, type RawData } from 'ws'
import { Backoff, type BackoffOptions } from '../../live/backoff.ts'
import type { SessionListItem, UpstreamState } from '../../live/protocol.ts'
import { HostCatalog } from './host-catalog.ts'
import { HostRpc } from './host-rpc.ts'
import { HostSession } from './host-session.ts'
import { parseHostFrame, parseMuxFrame, parseSessionList, parseSubagentList } from './host-wire.ts'

export interface DshWebOptions {
  /** The host's base URL, `http://127.0.0.1:3080/`. */
  readonly base: URL
  readonly backoff?: BackoffOptions
  /** How long both sockets may take to open before the attempt counts as failed (the harness client: 3 s). */
  readonly openTimeoutMs?: number
  /** `maxMessages` per `session.history` page. */
  readonly pageMessages?: number
  /** The session's own header line when the server also serves its log, else undefined. */
  readonly diskHeader?: (sessionId: string) => Promise<string | undefined>
  /** One line per dropped frame, lost link or divergence (the server's incident log). */
  readonly note?: (what: string) => void
}

/** Counters for diagnostics and tests. */
export interface UpstreamStats {
  readonly state: UpstreamState
  readonly connects: number
  readonly muxFrames: number
  readonly hostFrames: number
  readonly malformed: number
  /** Well-formed frames of a kind dsh-lens does not use (queue, jobs, approvals, or a method added later). */
  readonly ignored: number
  /** session/event frames of sessions nobody follows. */
  readonly foreign: number
}

const LIST_DEBOUNCE_MS = 50
/** Largest frame accepted from the host: a single event can hold a big tool result. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024

export class DshWebUpstream {
  readonly catalog = new HostCatalog()
  readonly rpc: HostRpc
  private stateValue: UpstreamState = 'connecting'
  private detailValue: string | null = null
  private readonly sessions = new Map<string, { session: HostSession; refs: number }>()
  private readonly backoff: Backoff
  private sockets: WebSocket[] = []
  /** Bumped whenever the link is dropped: callbacks of older sockets are ignored. */
  private generation = 0
  private everConnected = false
  private closed = false
  private reconnectTimer: NodeJS.Timeout | undefined
  private listTimer: NodeJS.Timeout | undefined
  private counters = { connects: 0, muxFrames: 0, hostFrames: 0, malformed: 0, ignored: 0, foreign: 0 }
  private listing: Promise<void> | null = null
  private readonly changeListeners = new Set<() => void>()

  constructor(private readonly options: DshWebOptions) {
    this.rpc = new HostRpc({ base: options.base })
    this.backoff = new Backoff(options.backoff)
  }

  get state(): UpstreamState {
    return this.stateValue
  }

  /** Why the link is down, when it is. */
  get detail(): string | null {
    return this.detailValue
  }

  get base(): string {
    return this.options.base.href
  }

  stats(): UpstreamStats {
    return { state: this.stateValue, ...this.counters }
  }

  start(): void {
    void this.connect()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.reconnectTimer)
    clearTimeout(this.listTimer)
    this.dropSockets()
    for (const { session } of this.sessions.values()) session.close()
    this.sessions.clear()
    await this.listing
  }

  /** The host's sessions as list items (a fresh `session.list` first when the link is up). */
  async items(): Promise<SessionListItem[]> {
    if (this.stateValue === 'connected') await this.refreshList()
    return this.currentItems()
  }

  /** The host's sessions as the server knows them now (the host stream keeps them current). */
  currentItems(): SessionListItem[] {
    return this.catalog.items(this.stateValue, (id) => {
      const s = this.sessions.get(id)?.session
      return s === undefined || s.headSeq < 0 ? undefined : { lastSeq: s.headSeq }
    })
  }

  /** Call `listener` (debounced) whenever the host's list changes: a session added, started, stopped, titled. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener)
    return () => this.changeListeners.delete(listener)
  }

  /** Whether the host lists this session (after one fresh look when it does not yet). */
  async knows(sessionId: string): Promise<boolean> {
    if (this.catalog.has(sessionId) || this.sessions.has(sessionId)) return true
    if (this.stateValue === 'connected') await this.refreshList()
    return this.catalog.has(sessionId)
  }

  /** Follow a session (shared by every subscription to it). */
  acquire(sessionId: string): HostSession {
    let entry = this.sessions.get(sessionId)
    if (entry === undefined) {
      const session = new HostSession(sessionId, {
        rpc: this.rpc,
        pageMessages: this.options.pageMessages ?? 100_000,
        base: this.options.base.href,
        headerLine: async (id, firstTime) =>
          (await this.options.diskHeader?.(id).catch(() => undefined)) ?? this.catalog.headerLine(id, firstTime),
        upstream: () => this.stateValue,
        running: (id) => this.catalog.running(id),
        title: (id) => this.catalog.titleOf(id),
        note: (what) => this.note(what),
        retryMs: (attempt) => Math.min(10_000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2),
      })
      entry = { session, refs: 0 }
      this.sessions.set(sessionId, entry)
      if (this.stateValue === 'connected') session.connected()
    }
    entry.refs++
    return entry.session
  }

  release(session: HostSession): void {
    const entry = this.sessions.get(session.sessionId)
    if (entry === undefined || entry.session !== session) return
    if (--entry.refs > 0) return
    this.sessions.delete(session.sessionId)
    session.close()
  }

  /** The followed sessions (tests, diagnostics). */
  followed(): HostSession[] {
    return [...this.sessions.values()].map((e) => e.session)
  }

  private note(what: string): void {
    this.options.note?.(what)
  }

  private setState(state: UpstreamState, detail: string | null): void {
    const changed = state !== this.stateValue
    this.stateValue = state
    this.detailValue = detail
    if (!changed) return
    for (const { session } of this.sessions.values()) session.statusChanged()
    this.listChanged()
  }

  private listChanged(): void {
    if (this.changeListeners.size === 0 || this.listTimer !== undefined) return
    this.listTimer = setTimeout(() => {
      this.listTimer = undefined
      if (!this.closed) for (const listener of [...this.changeListeners]) listener()
    }, LIST_DEBOUNCE_MS)
    this.listTimer.unref()
  }

  private socketUrl(stream: 'mux' | 'host'): string {
    const url = new URL(`api/events.${stream}`, this.options.base)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    return url.href
  }

  private async connect(): Promise<void> {
    if (this.closed) return
    const generation = ++this.generation
    const open = (stream: 'mux' | 'host'): Promise<WebSocket> =>
      new Promise((resolve, reject) => {
        // No Origin header and a Host naming the host itself: what the harness's trust fence accepts from a local process.
        const ws = new WebSocket(this.socketUrl(stream), {
          handshakeTimeout: this.options.openTimeoutMs ?? 3000,
          perMessageDeflate: false,
          maxPayload: MAX_FRAME_BYTES,
          followRedirects: false,
        })
        this.sockets.push(ws)
        ws.on('message', (data: RawData, isBinary: boolean) => {
          if (generation !== this.generation) return
          if (isBinary) {
            this.counters.malformed++
            this.note(`dsh-web: dropped a binary frame on events.${stream}`)
            return
          }
          const text = Array.isArray(data)
            ? Buffer.concat(data).toString('utf8')
            : Buffer.from(data as ArrayBuffer).toString('utf8')
          if (stream === 'mux') this.onMux(text, generation)
          else this.onHost(text, generation)
        })
        ws.once('open', () => resolve(ws))
        // Kept for the socket's life: an 'error' without a listener would throw.
        ws.on('error', (error) => reject(error))
        ws.once('close', (code, reason) => {
          reject(new Error(`closed ${code}`))
          this.lost(generation, `events.${stream} closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`)
        })
      })
    try {
      await Promise.all([open('mux'), open('host')])
    } catch (error) {
      const why = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error))
      this.lost(generation, `cannot reach ${this.options.base.origin}: ${why}`)
      return
    }
    if (generation !== this.generation || this.closed) return
    this.counters.connects++
    this.everConnected = true
    this.backoff.reset()
    this.setState('connected', null)
    // Buffering starts now (the mux is open), before the list and the snapshots are asked for.
    for (const { session } of this.sessions.values()) session.connected()
    await this.refreshList()
  }

  /** Either socket ended or an attempt failed: drop both and try again later. */
  private lost(generation: number, why: string): void {
    if (generation !== this.generation || this.closed) return
    this.generation++
    this.dropSockets()
    for (const { session } of this.sessions.values()) session.disconnected()
    const wasUp = this.stateValue === 'connected'
    if (wasUp) this.note(`dsh-web: lost the host: ${why}`)
    // Just dropped: reconnecting; an attempt that failed (or never succeeded): gone until it answers again.
    this.setState(wasUp ? 'reconnecting' : 'gone', why)
    clearTimeout(this.reconnectTimer)
    this.reconnectTimer = setTimeout(() => void this.connect(), this.backoff.next())
    this.reconnectTimer.unref()
  }

  private dropSockets(): void {
    const sockets = this.sockets
    this.sockets = []
    for (const ws of sockets) {
      ws.removeAllListeners('open')
      ws.on('error', () => undefined)
      ws.terminate()
    }
  }

  private onMux(text: string, generation: number): void {
    this.counters.muxFrames++
    const parsed = parseMuxFrame(text)
    if (!parsed.ok) {
      this.counters.malformed++
      this.note(`dsh-web: dropped a malformed mux frame: ${parsed.why}`)
      return
    }
    const frame = parsed.value
    switch (frame.kind) {
      case 'event': {
        const session = this.sessions.get(frame.sessionId)?.session
        if (session === undefined) this.counters.foreign++
        else session.event(frame.event)
        return
      }
      case 'subscribed': {
        this.sessions.get(frame.sessionId)?.session.subscribed(frame.lastSeq)
        return
      }
      case 'projection':
        if (frame.key === 'title' && this.catalog.title(frame.sessionId, frame.value, frame.seq)) {
          this.sessions.get(frame.sessionId)?.session.statusChanged()
          this.listChanged()
        }
        return
      case 'stream-error':
        this.lost(generation, `events.mux: stream/error: ${frame.message}`)
        return
      case 'other':
        this.counters.ignored++
        return
    }
  }

  private onHost(text: string, generation: number): void {
    this.counters.hostFrames++
    const parsed = parseHostFrame(text)
    if (!parsed.ok) {
      this.counters.malformed++
      this.note(`dsh-web: dropped a malformed host frame: ${parsed.why}`)
      return
    }
    const frame = parsed.value
    if (frame.kind === 'stream-error') return this.lost(generation, `events.host: stream/error: ${frame.message}`)
    if (frame.kind === 'other') {
      this.counters.ignored++
      return
    }
    if (this.catalog.apply(frame, Date.now())) {
      this.listChanged()
      const session = this.sessions.get(frame.sessionId)?.session
      session?.statusChanged()
      // A session the host did not know a moment ago: a follower waiting for it takes its snapshot now.
      if (frame.kind === 'session-added' && session?.missing === true) session.connected()
    }
    if (frame.kind === 'session-added' && frame.parentSessionId !== undefined) void this.childLabels(frame.parentSessionId)
  }

  /** `session.list` (one at a time), then the labels of subagent children. */
  private refreshList(): Promise<void> {
    this.listing ??= (async () => {
      try {
        const result = await this.rpc.call('session.list', {})
        if (!result.ok) return this.note(`dsh-web: ${result.why}`)
        const list = parseSessionList(result.value)
        if (!list.ok) return this.note(`dsh-web: ${list.why}`)
        this.catalog.baseline(list.value)
        this.listChanged()
        for (const { session } of this.sessions.values()) session.statusChanged()
        await Promise.all(this.catalog.parents().map((p) => this.childLabels(p)))
      } finally {
        this.listing = null
      }
    })()
    return this.listing
  }

  private async childLabels(parentSessionId: string): Promise<void> {
    const result = await this.rpc.call('subagent.list', { parentSessionId })
    if (!result.ok) return
    const entries = parseSubagentList(result.value)
    if (entries.ok && this.catalog.children(parentSessionId, entries.value, Date.now())) this.listChanged()
  }
}
