/**
 * WebSocket upgrades: only `/v1/stream`, only past the trust checks (Host, Origin, token or sign-in cookie), at most
 * `maxPerPeer` open connections per remote address, counted from before the handshake so a burst cannot slip past.
 * An accepted socket is handed to `accept` (the stream room's connection); a refusal is one line in the incident log.
 */

import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket, WebSocketServer } from 'ws'
import { STREAM_PATH } from '../../live/protocol.ts'
import { checkStreamUpgrade, type TrustPolicy } from './request-trust.ts'

export interface StreamUpgradeOptions {
  readonly policy: TrustPolicy
  readonly wss: WebSocketServer
  readonly maxPerPeer: number
  readonly note: (peer: string, what: string) => void
  /** An accepted stream socket from `peer`. */
  accept(ws: WebSocket, peer: string): void
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
}

function refuse(socket: Duplex, status: number, message: string): void {
  const reason = STATUS_TEXT[status] ?? 'Bad Request'
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${message}\n`)
}

export function streamUpgradeHandler(
  options: StreamUpgradeOptions,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const { policy, maxPerPeer, note } = options
  const perPeer = new Map<string, number>()
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy())
    const peer = req.socket.remoteAddress ?? 'unknown'
    const deny = (status: number, message: string): void => {
      note(peer, `refused ${status}: ${message}`)
      refuse(socket, status, message)
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== STREAM_PATH)
      return deny(404, `no WebSocket endpoint here; use ${STREAM_PATH}`)
    const verdict = checkStreamUpgrade(req, policy)
    if (!verdict.ok) return deny(verdict.status, verdict.message)
    const open = perPeer.get(peer) ?? 0
    if (open >= maxPerPeer) return deny(429, `too many connections from ${peer} (limit ${maxPerPeer})`)
    // Counted from here, before the handshake completes, so a burst of upgrades cannot slip past the limit.
    perPeer.set(peer, open + 1)
    let counted = true
    const uncount = (): void => {
      if (!counted) return
      counted = false
      const n = (perPeer.get(peer) ?? 1) - 1
      if (n <= 0) perPeer.delete(peer)
      else perPeer.set(peer, n)
    }
    socket.once('close', uncount)
    options.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('close', uncount)
      options.accept(ws, peer)
    })
  }
}
