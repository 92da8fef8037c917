/**
 * One authenticated `/v1/stream` socket: its messages checked and handed to their handlers (client-handlers.ts), its
 * subscriptions and session watches, heartbeats both ways (app ping carrying each sub's last seq, plus WebSocket
 * pings), and termination of a peer that has gone silent. All per-socket buffering is bounded by the subscriptions'
 * high-water check.
 */

import type { WebSocket } from 'ws'
import { MAX_CLIENT_MESSAGE_BYTES, type ErrorCode, type ServerMessage, type SourceRef } from '../../live/protocol.ts'
import { handleClientMessage, type ClientScope } from './client-handlers.ts'
import { parseClientMessage } from './client-message.ts'
import type { StreamContext } from './stream-context.ts'
import { Subscription, type Paused, type SubscriptionHost } from './subscription.ts'

/** Catalog watches one connection may hold (a page needs one). */
const MAX_WATCHES = 4

/** After a fatal close, how long a peer gets to take the close frame before the socket is destroyed. */
const CLOSE_GRACE_MS = 5_000

export interface ConnectionStats {
  readonly bufferedAmount: number
  readonly subs: ReadonlyArray<{ sub: string; sentSeq: number; acked: number; paused: Paused; sentBytes: number }>
}

export class StreamConnection implements SubscriptionHost, ClientScope {
  private readonly subs = new Map<string, { subscription: Subscription; release(): void }>()
  greeted = false
  private lastHeard = Date.now()
  private readonly heartbeat: NodeJS.Timeout
  private retry: NodeJS.Timeout | undefined
  private closed = false
  private stalledSince: number | undefined
  /** Catalog watches by request id: each is an unwatch function. */
  private readonly watches = new Map<string, () => void>()

  constructor(
    private readonly ws: WebSocket,
    readonly ctx: StreamContext,
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

  error(code: ErrorCode, message: string, extra: { sub?: string; req?: string } = {}): void {
    this.send({ type: 'error', code, message, fatal: false, ...extra })
  }

  /** Say why, close with the code as the reason, and destroy the socket if the peer does not take the close. */
  fatal(code: ErrorCode, message: string, closeCode = 1008): void {
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
    if (!this.greeted && message.type !== 'hello') return this.fatal('bad-request', 'the first message must be hello')
    try {
      await handleClientMessage(this, message)
    } catch (error) {
      this.error('internal', `internal error: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  subscription(sub: string): Subscription | undefined {
    return this.subs.get(sub)?.subscription
  }

  /**
   * The first answer is the list as it is (the catalog after a refresh, with the host's sessions when attached); every
   * change after it comes as `sessions-changed`. Changes announced before that first answer are in it already.
   */
  async watchSessions(req: string): Promise<void> {
    if (this.watches.has(req)) return this.error('bad-request', `already watching sessions as "${req}"`, { req })
    if (this.watches.size >= MAX_WATCHES)
      return this.error('bad-request', `at most ${MAX_WATCHES} session watches per connection`, { req })
    let answered = false
    const watch = this.ctx.sources.watch((update) => {
      if (answered) this.send({ type: 'sessions-changed', req, ...update })
    })
    const unwatch = (): void => watch.stop()
    this.watches.set(req, unwatch)
    const first = await watch.first()
    if (this.closed || this.watches.get(req) !== unwatch) return
    this.send({ type: 'sessions', req, ...first })
    answered = true
  }

  unwatchSessions(req: string): void {
    this.watches.get(req)?.()
    this.watches.delete(req)
  }

  /** The content index's progress, now and as it changes; watching is what starts its background build. */
  watchIndex(req: string): void {
    if (this.watches.has(req)) return this.error('bad-request', `already watching as "${req}"`, { req })
    if (this.watches.size >= MAX_WATCHES)
      return this.error('bad-request', `at most ${MAX_WATCHES} watches per connection`, { req })
    this.watches.set(
      req,
      this.ctx.contentSearch.watch((index) => this.send({ type: 'index-progress', req, index })),
    )
  }

  unwatchIndex(req: string): void {
    this.unwatchSessions(req)
  }

  async subscribe(
    sub: string,
    source: SourceRef,
    fromSeq: number,
    epoch: string | undefined,
    window: number | undefined,
  ): Promise<void> {
    const found = await this.ctx.sources.follow(source)
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

  drop(sub: string): void {
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
