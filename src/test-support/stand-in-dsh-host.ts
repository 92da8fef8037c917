/**
 * A stand-in for the dsh web host, for the error paths a real host will not produce on demand (a malformed frame, an
 * unknown method, a frame for another session, a binary frame, a stream/error): it speaks the host's wire (POSTed
 * envelopes, the two downlink WebSockets), answers from recorded values, and lets the test push any text it likes on
 * either socket. Everything it says by default was recorded from the real host (src/server/dsh-web/recorded/).
 */

import { createServer, type IncomingMessage, type Server } from 'node:http'
import { WebSocketServer, type WebSocket } from 'ws'

export interface StandInHost {
  readonly url: string
  /** Open downlink sockets, by stream. */
  readonly sockets: { readonly mux: readonly WebSocket[]; readonly host: readonly WebSocket[] }
  /** Unary calls received, by method. */
  readonly calls: Array<{ method: string; payload: unknown }>
  /** Messages a client sent on a downlink socket (the real host closes the socket with 1008 for any). */
  readonly clientMessages: number
  push(stream: 'mux' | 'host', data: string | Buffer): void
  /** What the next `method` calls answer: a value (ok) or an error code. */
  answer(method: string, reply: (payload: Record<string, unknown>) => { value: unknown } | { error: string }): void
  close(): Promise<void>
}

export async function startStandInHost(): Promise<StandInHost> {
  const replies = new Map<string, (payload: Record<string, unknown>) => { value: unknown } | { error: string }>()
  const calls: Array<{ method: string; payload: unknown }> = []
  const sockets = { mux: [] as WebSocket[], host: [] as WebSocket[] }
  let clientMessages = 0
  const server: Server = createServer((req: IncomingMessage, res) => {
    const method = (req.url ?? '').replace(/^\/api\//, '')
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        rpcId: string
        method: string
        payload: Record<string, unknown>
      }
      calls.push({ method, payload: body.payload })
      const reply = replies.get(method)?.(body.payload) ?? { error: 'not-implemented' }
      const result =
        'value' in reply
          ? { ok: true, value: reply.value }
          : { ok: false, error: { code: reply.error, message: reply.error, details: {} } }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'server-response', rpcId: body.rpcId, result }))
    })
  })
  const wss = new WebSocketServer({ noServer: true })
  server.on('upgrade', (req, socket, head) => {
    const stream = req.url === '/api/events.mux' ? 'mux' : req.url === '/api/events.host' ? 'host' : undefined
    if (stream === undefined) {
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets[stream].push(ws)
      ws.on('message', () => {
        clientMessages++
        ws.close(1008, 'downlink only')
      })
      ws.on('close', () => sockets[stream].splice(sockets[stream].indexOf(ws), 1))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/`,
    sockets,
    calls,
    get clientMessages() {
      return clientMessages
    },
    push(stream, data) {
      for (const ws of sockets[stream]) ws.send(data, { binary: typeof data !== 'string' })
    },
    answer(method, reply) {
      replies.set(method, reply)
    },
    async close() {
      for (const ws of [...sockets.mux, ...sockets.host]) ws.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
