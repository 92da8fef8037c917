/**
 * One authenticated `/v1/stream` socket: hello/welcome, list, subscribe/ack/unsubscribe dispatch, heartbeats
 * both ways (app ping carrying each sub's last seq, plus WebSocket pings), and termination of a peer that
 * has gone silent. All per-socket buffering is bounded by the subscriptions' high-water check.
 */

import type { WebSocket } from 'ws'
import { PROTOCOL_VERSION, type ClientMessage, type ErrorCode, type ServerMessage, type SourceRef } from '../live/protocol.ts'
import { parseClientMessage } from './client-message.ts'
import type { PathGuard } from './path-guard.ts'
import type { SessionCatalog } from './session-catalog.ts'
import { Subscription, type Paused, type StreamLimits, type SubscriptionHost } from './subscription.ts'
import type { TailRegistry } from './tail-registry.ts'

export interface StreamContext {
  readonly registry: TailRegistry
  readonly catalog: SessionCatalog
  readonly guard: PathGuard
  readonly limits: StreamLimits
  readonly serverId: string
  readonly heartbeatMs: number
  /** Silence (no message, no pong) after which the peer is considered gone. */
  readonly deadMs: number
  readonly defaultWindow: number
  readonly maxWindow: number
  readonly maxSubscriptions: number
}

export interface ConnectionStats {
  readonly bufferedAmount: number
  readonly subs: ReadonlyArray<{ sub: string; sentSeq: number; acked: number; paused: Paused; sentBytes: number }>
}

export class StreamConnection implements SubscriptionHost {
  private readonly subs = new Map<string, Subscription>()
  private hello = false
  private lastHeard = Date.now()
  private readonly heartbeat: NodeJS.Timeout
  private retry: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: StreamContext,
  ) {
    ws.on('message', (data, isBinary) => {
      this.lastHeard = Date.now()
      if (isBinary) return this.fatal('bad-request', 'binary frames are not part of dsh-viewer.v1')
      void this.onText(data.toString())
    })
    ws.on('pong', () => {
      this.lastHeard = Date.now()
    })
    ws.on('close', () => this.dispose())
    ws.on('error', () => this.dispose())
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
      subs: [...this.subs.values()].map((s) => ({
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
      for (const s of this.subs.values()) if (s.paused === 'backpressure') s.kick()
    }, 25)
  }

  /** Drop the socket without a close handshake (server shutdown, dead peer). */
  terminate(): void {
    this.ws.terminate()
    this.dispose()
  }

  private beat(): void {
    if (Date.now() - this.lastHeard > this.ctx.deadMs) {
      this.terminate()
      return
    }
    const subs: Record<string, number> = {}
    for (const s of this.subs.values()) subs[s.sub] = s.sentSeq
    this.send({ type: 'ping', t: Date.now(), subs })
    if (this.open) this.ws.ping()
  }

  private error(code: ErrorCode, message: string, extra: { sub?: string; req?: string } = {}): void {
    this.send({ type: 'error', code, message, fatal: false, ...extra })
  }

  private fatal(code: ErrorCode, message: string): void {
    this.send({ type: 'error', code, message, fatal: true })
    this.ws.close(1008, code)
    this.dispose()
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
        const items = await this.ctx.catalog.refresh((path, size, mtime) => this.ctx.registry.facts(path, size, mtime))
        this.send({ type: 'sessions', req: message.req, items })
        return
      }
      case 'subscribe':
        return this.subscribe(message.sub, message.source, message.fromSeq ?? 0, message.epoch, message.window)
      case 'ack': {
        const sub = this.subs.get(message.sub)
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

  private async resolve(source: SourceRef): Promise<string | undefined> {
    if ('path' in source) return this.ctx.guard.resolveFile(source.path)
    let path = this.ctx.catalog.pathOf(source.sessionId)
    if (path === undefined) {
      await this.ctx.catalog.refresh((p, s, m) => this.ctx.registry.facts(p, s, m))
      path = this.ctx.catalog.pathOf(source.sessionId)
    }
    // The catalog only lists fenced paths, but re-check: the file may have been swapped for a symlink since.
    return path === undefined ? undefined : this.ctx.guard.resolveFile(path)
  }

  private async subscribe(
    sub: string,
    source: SourceRef,
    fromSeq: number,
    epoch: string | undefined,
    window: number | undefined,
  ): Promise<void> {
    const path = await this.resolve(source)
    if (this.closed) return
    if (path === undefined) {
      const what = 'path' in source ? `path "${source.path}"` : `session "${source.sessionId}"`
      return this.error('not-found', `${what} is not a session log below the served paths`, { sub })
    }
    this.drop(sub)
    if (this.subs.size >= this.ctx.maxSubscriptions) {
      return this.error('too-many-subscriptions', `at most ${this.ctx.maxSubscriptions} subscriptions per connection`, { sub })
    }
    const credit = Math.min(Math.max(1, window ?? this.ctx.defaultWindow), this.ctx.maxWindow)
    const tail = this.ctx.registry.acquire(path)
    const subscription = new Subscription(
      sub,
      tail,
      this,
      this.ctx.limits,
      credit,
      epoch === undefined ? { fromSeq } : { fromSeq, epoch },
    )
    this.subs.set(sub, subscription)
    subscription.start()
  }

  private drop(sub: string): void {
    const existing = this.subs.get(sub)
    if (existing === undefined) return
    this.subs.delete(sub)
    existing.close()
    this.ctx.registry.release(existing.tail)
  }

  private dispose(): void {
    if (this.closed) return
    this.closed = true
    clearInterval(this.heartbeat)
    clearTimeout(this.retry)
    for (const sub of [...this.subs.keys()]) this.drop(sub)
  }
}
