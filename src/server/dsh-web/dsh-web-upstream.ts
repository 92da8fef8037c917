/**
 * The server's one link to a dsh web host (`--dsh URL`): the two downlink sockets (host-link.ts), the host's session
 * catalog, and the followed sessions. The host has no heartbeat and no resume: when the link drops, every followed
 * session goes back to buffering; once it is up again each takes a new snapshot and carries on from its tail. Frames
 * that do not parse, methods we do not know and frames for sessions nobody follows are counted and dropped
 * (mux-handlers.ts); they never reach a page.
 */

import type { SessionListItem, UpstreamState } from '../../live/protocol.ts'
import { HostCatalog } from './host-catalog.ts'
import { HostLink, type HostLinkOptions, type HostStream } from './host-link.ts'
import { HostRpc } from './host-rpc.ts'
import { HostSession } from './host-session.ts'
import { parseHostFrame, parseMuxFrame, parseSessionList, parseSubagentList } from './host-wire.ts'
import { handleMuxFrame, type MuxScope } from './mux-handlers.ts'

export interface DshWebOptions extends HostLinkOptions {
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

export class DshWebUpstream {
  readonly catalog = new HostCatalog()
  readonly rpc: HostRpc
  private stateValue: UpstreamState = 'connecting'
  private detailValue: string | null = null
  private readonly sessions = new Map<string, { session: HostSession; refs: number }>()
  private readonly link: HostLink
  private closed = false
  private listTimer: NodeJS.Timeout | undefined
  private counters = { muxFrames: 0, hostFrames: 0, malformed: 0, ignored: 0, foreign: 0 }
  private listing: Promise<void> | null = null
  private readonly changeListeners = new Set<() => void>()

  constructor(private readonly options: DshWebOptions) {
    this.rpc = new HostRpc({ base: options.base })
    this.link = new HostLink(options, {
      up: () => this.up(),
      frame: (stream, text) => this.frame(stream, text),
      binary: (stream) => {
        this.counters.malformed++
        this.note(`dsh-web: dropped a binary frame on events.${stream}`)
      },
      down: (why) => this.down(why),
    })
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
    return { state: this.stateValue, connects: this.link.connects, ...this.counters }
  }

  start(): void {
    this.link.start()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.listTimer)
    this.link.close()
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

  /** Both sockets are open: buffering starts now (the mux is open), before the list and the snapshots are asked for. */
  private up(): void {
    if (this.closed) return
    this.setState('connected', null)
    for (const { session } of this.sessions.values()) session.connected()
    void this.refreshList()
  }

  /** The link dropped: every followed session goes back to buffering until it is up again. */
  private down(why: string): void {
    for (const { session } of this.sessions.values()) session.disconnected()
    const wasUp = this.stateValue === 'connected'
    if (wasUp) this.note(`dsh-web: lost the host: ${why}`)
    // Just dropped: reconnecting; an attempt that failed (or never succeeded): gone until it answers again.
    this.setState(wasUp ? 'reconnecting' : 'gone', why)
  }

  private frame(stream: HostStream, text: string): void {
    if (stream === 'mux') this.onMux(text)
    else this.onHost(text)
  }

  private onMux(text: string): void {
    this.counters.muxFrames++
    const parsed = parseMuxFrame(text)
    if (!parsed.ok) {
      this.counters.malformed++
      this.note(`dsh-web: dropped a malformed mux frame: ${parsed.why}`)
      return
    }
    handleMuxFrame(this.muxScope, parsed.value)
  }

  /** What a mux frame's handler acts on. */
  private readonly muxScope: MuxScope = {
    session: (id) => this.sessions.get(id)?.session,
    counters: this.counters,
    catalog: this.catalog,
    listChanged: () => this.listChanged(),
    drop: (why) => this.link.drop(why),
  }

  private onHost(text: string): void {
    this.counters.hostFrames++
    const parsed = parseHostFrame(text)
    if (!parsed.ok) {
      this.counters.malformed++
      this.note(`dsh-web: dropped a malformed host frame: ${parsed.why}`)
      return
    }
    const frame = parsed.value
    if (frame.kind === 'stream-error') return this.link.drop(`events.host: stream/error: ${frame.message}`)
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
