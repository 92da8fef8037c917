/**
 * The two downlink sockets to a dsh web host (`/api/events.mux`, `/api/events.host`), as the harness's own client
 * keeps them: both open or neither. When either ends (or an attempt fails) both are dropped and the link is rebuilt
 * after a jittered backoff (500 ms doubling to 10 s). Nothing is ever sent on them (the host closes a socket that
 * receives anything); frames of an older pair of sockets are ignored.
 */

import { WebSocket, type RawData } from 'ws'
import { Backoff, type BackoffOptions } from '../../live/backoff.ts'

export type HostStream = 'mux' | 'host'

export interface HostLinkOptions {
  /** The host's base URL, `http://127.0.0.1:3080/`. */
  readonly base: URL
  readonly backoff?: BackoffOptions
  /** How long both sockets may take to open before the attempt counts as failed (the harness client: 3 s). */
  readonly openTimeoutMs?: number
}

export interface HostLinkEvents {
  /** Both sockets are open (again). */
  up(): void
  /** A text frame from one of the sockets of the current pair. */
  frame(stream: HostStream, text: string): void
  /** A binary frame (not part of the host's protocol): dropped. */
  binary(stream: HostStream): void
  /** The pair was dropped (a socket ended, an attempt failed, or `drop`): a new attempt is scheduled. */
  down(why: string): void
}

/** Largest frame accepted from the host: a single event can hold a big tool result. */
const MAX_FRAME_BYTES = 256 * 1024 * 1024

export class HostLink {
  /** Pairs of sockets opened so far. */
  connects = 0
  private readonly backoff: Backoff
  private sockets: WebSocket[] = []
  /** Bumped whenever the link is dropped: callbacks of older sockets are ignored. */
  private generation = 0
  private closed = false
  private reconnectTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly options: HostLinkOptions,
    private readonly events: HostLinkEvents,
  ) {
    this.backoff = new Backoff(options.backoff)
  }

  start(): void {
    void this.connect()
  }

  close(): void {
    this.closed = true
    clearTimeout(this.reconnectTimer)
    this.dropSockets()
  }

  /** Drop the current pair and rebuild it later (the host said `stream/error`). */
  drop(why: string): void {
    this.lost(this.generation, why)
  }

  private socketUrl(stream: HostStream): string {
    const url = new URL(`api/events.${stream}`, this.options.base)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    return url.href
  }

  private open(stream: HostStream, generation: number): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
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
        if (isBinary) return this.events.binary(stream)
        const text = Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data as ArrayBuffer).toString('utf8')
        this.events.frame(stream, text)
      })
      ws.once('open', () => resolve(ws))
      // Kept for the socket's life: an 'error' without a listener would throw.
      ws.on('error', (error) => reject(error))
      ws.once('close', (code, reason) => {
        reject(new Error(`closed ${code}`))
        this.lost(generation, `events.${stream} closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`)
      })
    })
  }

  private async connect(): Promise<void> {
    if (this.closed) return
    const generation = ++this.generation
    try {
      await Promise.all([this.open('mux', generation), this.open('host', generation)])
    } catch (error) {
      const why = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error))
      this.lost(generation, `cannot reach ${this.options.base.origin}: ${why}`)
      return
    }
    if (generation !== this.generation || this.closed) return
    this.connects++
    this.backoff.reset()
    this.events.up()
  }

  /** Either socket ended or an attempt failed: drop both and try again later. */
  private lost(generation: number, why: string): void {
    if (generation !== this.generation || this.closed) return
    this.generation++
    this.dropSockets()
    this.events.down(why)
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
}
