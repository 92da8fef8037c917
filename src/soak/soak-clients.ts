/**
 * The soak's clients. `SoakFollower` follows one session through the real TailClient (the browser's code, on
 * the `ws` package) and records every event it is handed, by seq and content hash, without keeping the events.
 * `StalledReader` is the bad peer: it subscribes, then stops reading its socket while still sending acks for
 * everything (granting itself credit), so only the server's high-water and stall limits can stop it.
 */

import { WebSocket } from 'ws'
import { PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from '../live/protocol.ts'
import { TailClient, type WebSocketLike } from '../live/tail-client.ts'
import { lineEvents, SeqLedger } from './event-hashes.ts'

export class SoakFollower {
  readonly ledger = new SeqLedger()
  readonly client: TailClient
  lastSeq = -1
  events = 0
  resets = 0
  reconnects = 0
  /** Appends that did not start right after the previous one (the client should never hand one out). */
  orderViolations = 0
  errors: string[] = []

  constructor(url: string, token: string, sessionId: string) {
    this.client = new TailClient({
      url,
      token,
      client: 'dsh-lens-soak/0.1',
      webSocket: (u, p) => new WebSocket(u, p) as unknown as WebSocketLike,
      onStatus: (s) => {
        if (s === 'reconnecting') this.reconnects++
      },
      onError: (e) => this.errors.push(`${e.code}: ${e.message}`),
    })
    this.client.subscribe(
      'soak',
      { kind: 'file', sessionId },
      {
        onSnapshot: () => undefined,
        onAppend: (batch) => {
          if (batch.fromSeq !== this.lastSeq + 1) this.orderViolations++
          for (const line of batch.lines) {
            for (const { seq, hash } of lineEvents(line)) {
              this.ledger.record(seq, hash)
              this.events++
            }
          }
          this.lastSeq = batch.toSeq
        },
        onReset: () => {
          this.resets++
        },
      },
    )
    this.client.connect()
  }

  close(): void {
    this.client.close()
  }
}

export class StalledReader {
  /** Bytes read before it stopped reading. */
  bytesRead = 0
  stoppedAt: number | undefined
  closedAt: number | undefined
  closeCode: number | undefined
  private readonly ws: WebSocket
  private acker: NodeJS.Timeout | undefined

  constructor(url: string, token: string, sessionId: string, stopAfterMs: number) {
    this.ws = new WebSocket(url, [PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX + token])
    this.ws.on('open', () => {
      this.ws.send(JSON.stringify({ type: 'hello', protocol: 1, client: 'dsh-lens-soak-stalled/0.1' }))
      this.ws.send(JSON.stringify({ type: 'subscribe', sub: 'stalled', source: { kind: 'file', sessionId }, fromSeq: 0 }))
      setTimeout(() => this.stop(), stopAfterMs)
    })
    this.ws.on('message', (data: Buffer) => {
      this.bytesRead += data.length
    })
    this.ws.on('close', (code) => {
      this.closedAt = Date.now()
      this.closeCode = code
      clearInterval(this.acker)
    })
    this.ws.on('error', () => undefined)
  }

  private stop(): void {
    this.stoppedAt = Date.now()
    // Stop reading: the kernel buffers fill, then the server's socket buffer grows.
    const socket = (this.ws as unknown as { _socket?: { pause(): void } })._socket
    socket?.pause()
    // ...but keep claiming to have applied everything, so credit never holds the server back.
    this.acker = setInterval(() => {
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'ack', sub: 'stalled', seq: 1e15 }))
    }, 500)
  }

  /** Let it read again, so a close the server sent is noticed. */
  resume(): void {
    const socket = (this.ws as unknown as { _socket?: { resume(): void } })._socket
    socket?.resume()
  }

  close(): void {
    clearInterval(this.acker)
    this.ws.terminate()
  }
}
