/**
 * One authenticated `/v1/stream` socket: hello/welcome, list, subscribe/ack/unsubscribe dispatch, heartbeats
 * both ways (app ping carrying each sub's last seq, plus WebSocket pings), and termination of a peer that
 * has gone silent. All per-socket buffering is bounded by the subscriptions' high-water check.
 */

import type { WebSocket } from 'ws'
import {
  MAX_CLIENT_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  type ClientMessage,
  type ErrorCode,
  type ServerMessage,
  type SourceRef,
} from '../../live/protocol.ts'
import { parseClientMessage } from './client-message.ts'
import type { DshWebUpstream } from '../dsh-web/dsh-web-upstream.ts'
import { mergeSessionLists } from '../dsh-web/host-catalog.ts'
import type { PathGuard } from '../path-guard.ts'
import type { CatalogUpdate } from '../catalog/catalog-watchers.ts'
import type { SessionCatalog } from '../catalog/session-catalog.ts'
import type { MergedSessions } from '../dsh-web/merged-sessions.ts'
import type { FollowedLog } from '../tail/followed-log.ts'
import { Subscription, type Paused, type StreamLimits, type SubscriptionHost } from './subscription.ts'
import type { TailRegistry } from '../tail/tail-registry.ts'

export interface StreamContext {
  readonly registry: TailRegistry
  readonly catalog: SessionCatalog
  readonly guard: PathGuard
  /** The dsh web host, when the server is attached to one (`--dsh`), and the list merged with it. */
  readonly upstream: DshWebUpstream | undefined
  readonly merged: MergedSessions | undefined
  readonly limits: StreamLimits
  readonly serverId: string
  readonly heartbeatMs: number
  /** Silence (no message, no pong) after which the peer is considered gone. */
  readonly deadMs: number
  readonly defaultWindow: number
  readonly maxWindow: number
  readonly maxSubscriptions: number
  /** Unread bytes above the high-water mark for this long: the peer is cut off as a slow consumer. */
  readonly stallMs: number
  /** Record a refusal or cut-off (the server's incident log). */
  readonly note: (peer: string, what: string) => void
}

/**
 * What `ws` itself accepts before closing with 1009 (no reason): far above the protocol's 64 KiB, so a message in
 * between is read and refused with a clear `message-too-large`, and memory per message stays bounded.
 */
export const WS_MAX_PAYLOAD_BYTES = 1024 * 1024

/** Logs up to this size are scanned before `list` answers (bigger ones say `turnOpen: null` until scanned). */
const LIST_SCAN_BYTES = 32 * 1024 * 1024
/** Catalog watches one connection may hold (a page needs one). */
const MAX_WATCHES = 4

/** After a fatal close, how long a peer gets to take the close frame before the socket is destroyed. */
const CLOSE_GRACE_MS = 5_000

export interface ConnectionStats {
  readonly bufferedAmount: number
  readonly subs: ReadonlyArray<{ sub: string; sentSeq: number; acked: number; paused: Paused; sentBytes: number }>
}

export class StreamConnection implements SubscriptionHost {
  private readonly subs = new Map<string, { subscription: Subscription; release(): void }>()
  private hello = false
  private lastHeard = Date.now()
  private readonly heartbeat: NodeJS.Timeout
  private retry: NodeJS.Timeout | undefined
  private closed = false
  private stalledSince: number | undefined
  /** Catalog watches by request id: each is an unwatch function. */
  private readonly watches = new Map<string, () => void>()

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: StreamContext,
    readonly peer = 'unknown',
  ) {
    ws.on('message', (data, isBinary) => {
      this.lastHeard = Date.now()
      if (this.closed) return
      if (isBinary) return this.fatal('bad-request', 'binary frames are not part of dsh-viewer.v1')
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength
      if (size > MAX_CLIENT_MESSAGE_BYTES) {
        return this.fatal('message-too-large', `a ${size}-byte message exceeds the ${MAX_CLIENT_MESSAGE_BYTES}-byte limit`, 1009)
      }
      void this.onText(data.toString())
    })
    ws.on('pong', () => {
      this.lastHeard = Date.now()
    })
    ws.on('close', () => this.dispose())
    ws.on('error', (error) => {
      // ws closes by itself here (e.g. 1009 over WS_MAX_PAYLOAD_BYTES); record why.
      if (!this.closed) this.ctx.note(this.peer, `closed by ws: ${error.message}`)
      this.dispose()
    })
    this.heartbeat = setInterval(() => this.beat(), ctx.heartbeatMs)
    this.heartbeat.unref()
  }

  get open(): boolean {
    return !this.closed && this.ws.readyState === this.ws.OPEN
  }

  get bufferedAmount(): number {
    return this.ws.bufferedAmount
  }

  stats(): ConnectionStats {
    return {
      bufferedAmount: this.ws.bufferedAmount,
      subs: [...this.subs.values()].map(({ subscription: s }) => ({
        sub: s.sub,
        sentSeq: s.sentSeq,
        acked: s.acked,
        paused: s.paused,
        sentBytes: s.sentBytes,
      })),
    }
  }

  send(message: ServerMessage): void {
    if (this.open) this.ws.send(JSON.stringify(message))
  }

  retryLater(): void {
    // ws exposes no drain event for bufferedAmount, so re-check on a short timer while anyone is blocked.
    this.retry ??= setTimeout(() => {
      this.retry = undefined
      if (this.closed) return
      if (this.ws.bufferedAmount > this.ctx.limits.highWaterBytes) {
        // Still above the mark: a peer that has not read for stallMs is not slow but stuck; its buffer is freed.
        this.stalledSince ??= Date.now()
        const stalled = Date.now() - this.stalledSince
        if (stalled >= this.ctx.stallMs) {
          return this.fatal(
            'slow-consumer',
            `${this.ws.bufferedAmount} bytes unread for ${stalled} ms (limit ${this.ctx.stallMs} ms above ${this.ctx.limits.highWaterBytes} bytes): cut off; reconnect to resume`,
          )
        }
      } else {
        this.stalledSince = undefined
      }
      for (const { subscription: s } of this.subs.values()) if (s.paused === 'backpressure') s.kick()
    }, 25)
  }

  /** Drop the socket without a close handshake (server shutdown, dead peer). */
  terminate(): void {
    this.ws.terminate()
    this.dispose()
  }

  private beat(): void {
    if (Date.now() - this.lastHeard > this.ctx.deadMs) {
      this.ctx.note(this.peer, `terminated: silent for ${Date.now() - this.lastHeard} ms (limit ${this.ctx.deadMs} ms)`)
      this.terminate()
      return
    }
    const subs: Record<string, number> = {}
    for (const { subscription: s } of this.subs.values()) subs[s.sub] = s.sentSeq
    this.send({ type: 'ping', t: Date.now(), subs })
    if (this.open) this.ws.ping()
  }

  private error(code: ErrorCode, message: string, extra: { sub?: string; req?: string } = {}): void {
    this.send({ type: 'error', code, message, fatal: false, ...extra })
  }

  /** Say why, close with the code as the reason, and destroy the socket if the peer does not take the close. */
  private fatal(code: ErrorCode, message: string, closeCode = 1008): void {
    if (this.closed) return
    this.ctx.note(this.peer, `closed ${closeCode} ${code}: ${message}`)
    this.send({ type: 'error', code, message, fatal: true })
    this.ws.close(closeCode, code)
    this.dispose()
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref()
  }

  private async onText(text: string): Promise<void> {
    const parsed = parseClientMessage(text)
    if (!parsed.ok) return this.fatal('bad-request', parsed.why)
    const message = parsed.message
    if (!this.hello && message.type !== 'hello') return this.fatal('bad-request', 'the first message must be hello')
    try {
      await this.dispatch(message)
    } catch (error) {
      this.error('internal', `internal error: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private async dispatch(message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'hello': {
        if (this.hello) return this.error('bad-request', 'hello was already received')
        if (message.protocol !== PROTOCOL_VERSION) {
          return this.fatal(
            'unsupported-protocol',
            `this server speaks dsh-viewer protocol ${PROTOCOL_VERSION}, not ${message.protocol}`,
          )
        }
        this.hello = true
        const { limits, ctx } = { limits: this.ctx.limits, ctx: this.ctx }
        this.send({
          type: 'welcome',
          protocol: PROTOCOL_VERSION,
          server: 'dsh-lens-serve/0.1',
          serverId: ctx.serverId,
          heartbeatMs: ctx.heartbeatMs,
          defaultWindow: ctx.defaultWindow,
          maxWindow: ctx.maxWindow,
          maxBatchEvents: limits.maxBatchEvents,
          maxBatchBytes: limits.maxBatchBytes,
        })
        for (const r of message.resume ?? []) {
          await this.subscribe(r.sub, r.source, r.lastSeq + 1, r.epoch, r.window)
        }
        return
      }
      case 'list': {
        const catalog = this.ctx.catalog
        await catalog.refresh()
        // A list answers with the turn facts of every log small enough to read now (cached per file).
        await catalog.scanNow(LIST_SCAN_BYTES)
        const host = this.ctx.upstream === undefined ? undefined : await this.ctx.upstream.items()
        this.send({
          type: 'sessions',
          req: message.req,
          items: host === undefined ? catalog.items() : mergeSessionLists(catalog.items(), host),
          scan: catalog.progress(),
          roots: catalog.rootsInfo(),
        })
        return
      }
      case 'watch-sessions':
        return this.watchSessions(message.req)
      case 'unwatch-sessions':
        this.watches.get(message.req)?.()
        this.watches.delete(message.req)
        return
      case 'subscribe':
        return this.subscribe(message.sub, message.source, message.fromSeq ?? 0, message.epoch, message.window)
      case 'ack': {
        const sub = this.subs.get(message.sub)?.subscription
        if (sub === undefined) return this.error('bad-request', `ack for unknown sub "${message.sub}"`, { sub: message.sub })
        sub.ack(message.seq)
        return
      }
      case 'unsubscribe':
        this.drop(message.sub)
        return
      case 'ping':
        this.send({ type: 'pong', t: message.t })
        return
      case 'pong':
        return
    }
  }

  /**
   * The first answer is the catalog as it is after a refresh (headers, and whatever digests are cached); every change
   * after it comes as `sessions-changed`. Changes the catalog announced before that first answer are in it already.
   */
  private async watchSessions(req: string): Promise<void> {
    if (this.watches.has(req)) return this.error('bad-request', `already watching sessions as "${req}"`, { req })
    if (this.watches.size >= MAX_WATCHES)
      return this.error('bad-request', `at most ${MAX_WATCHES} session watches per connection`, { req })
    const catalog = this.ctx.catalog
    const merged = this.ctx.merged
    let answered = false
    const send = (update: CatalogUpdate): void => {
      if (answered) this.send({ type: 'sessions-changed', req, ...update })
    }
    // With a dsh web host, the host's sessions and the files are watched as one list (a session in both, once).
    const watch = merged?.watch(send)
    const unwatch = watch === undefined ? catalog.watch(send) : () => watch.stop()
    this.watches.set(req, unwatch)
    // Listed at once from what the catalog knows (the server refreshed it at start-up); what a refresh finds since
    // comes as changes. Only a catalog never refreshed is waited for.
    const refreshing = catalog.refresh().catch(() => undefined)
    if (!catalog.ready) await refreshing
    if (this.closed || this.watches.get(req) !== unwatch) return
    const items = watch === undefined ? catalog.items() : watch.snapshot()
    this.send({ type: 'sessions', req, items, scan: catalog.progress(), roots: catalog.rootsInfo() })
    answered = true
  }

  private async resolve(source: Extract<SourceRef, { kind: 'file' }>): Promise<string | undefined> {
    if ('path' in source) return this.ctx.guard.resolveFile(source.path)
    let path = this.ctx.catalog.pathOf(source.sessionId)
    if (path === undefined) {
      await this.ctx.catalog.refresh()
      path = this.ctx.catalog.pathOf(source.sessionId)
    }
    // The catalog only lists fenced paths, but re-check: the file may have been swapped for a symlink since.
    return path === undefined ? undefined : this.ctx.guard.resolveFile(path)
  }

  /** The followed log for a source and how to let go of it, or why there is none. */
  private async follow(source: SourceRef): Promise<{ log: FollowedLog; release(): void } | { missing: string; code: ErrorCode }> {
    if (source.kind === 'dsh-web') {
      const upstream = this.ctx.upstream
      if (upstream === undefined)
        return { code: 'not-found', missing: 'this server is not attached to a dsh web host (start it with --dsh)' }
      if (!(await upstream.knows(source.sessionId))) {
        const why = upstream.state === 'connected' ? 'does not list' : `cannot be asked (${upstream.state})`
        return { code: 'upstream-unavailable', missing: `the dsh web host ${why} session "${source.sessionId}"` }
      }
      const session = upstream.acquire(source.sessionId)
      return { log: session, release: () => upstream.release(session) }
    }
    const path = await this.resolve(source)
    if (path === undefined) {
      const what = 'path' in source ? `path "${source.path}"` : `session "${source.sessionId}"`
      return { code: 'not-found', missing: `${what} is not a session log below the served paths` }
    }
    const tail = this.ctx.registry.acquire(path)
    return { log: tail, release: () => this.ctx.registry.release(tail) }
  }

  private async subscribe(
    sub: string,
    source: SourceRef,
    fromSeq: number,
    epoch: string | undefined,
    window: number | undefined,
  ): Promise<void> {
    const found = await this.follow(source)
    if ('missing' in found) {
      if (!this.closed) this.error(found.code, found.missing, { sub })
      return
    }
    if (this.closed) return found.release()
    this.drop(sub)
    if (this.subs.size >= this.ctx.maxSubscriptions) {
      found.release()
      return this.error('too-many-subscriptions', `at most ${this.ctx.maxSubscriptions} subscriptions per connection`, { sub })
    }
    const credit = Math.min(Math.max(1, window ?? this.ctx.defaultWindow), this.ctx.maxWindow)
    const subscription = new Subscription(
      sub,
      found.log,
      this,
      this.ctx.limits,
      credit,
      epoch === undefined ? { fromSeq } : { fromSeq, epoch },
    )
    this.subs.set(sub, { subscription, release: found.release })
    subscription.start()
  }

  private drop(sub: string): void {
    const existing = this.subs.get(sub)
    if (existing === undefined) return
    this.subs.delete(sub)
    existing.subscription.close()
    existing.release()
  }

  private dispose(): void {
    if (this.closed) return
    this.closed = true
    clearInterval(this.heartbeat)
    clearTimeout(this.retry)
    for (const sub of [...this.subs.keys()]) this.drop(sub)
    for (const unwatch of this.watches.values()) unwatch()
    this.watches.clear()
  }
}
