/**
 * The attack table's test kit (src/server/attack-table.test.ts): what an answer looked like, in the table's terms,
 * and the ways to ask a real server: a WebSocket upgrade, a plain HTTP request, a stream connection, a subscribe that
 * must be refused without closing.
 */

import { request } from 'node:http'
import { expect } from 'vitest'
import { WebSocket } from 'ws'
import { PROTOCOL, type ServerMessage } from '../live/protocol.ts'
import type { LensServer } from '../server/lens-server.ts'
import { waitFor } from './live-test-kit.ts'

/** What was observed, in the table's terms; `says` is the message text the answer carried. */
export type HttpObserved = { kind: 'http'; status: number; says: string }
export type Observed =
  | HttpObserved
  | { kind: 'close'; code: number; reason: string; error?: string; says: string }
  | { kind: 'error'; error: string; says: string }
  | { kind: 'terminate'; says: string }

export function upgrade(
  target: LensServer,
  url: string,
  options: { protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<HttpObserved & { ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options.protocols ?? [PROTOCOL], { headers: options.headers ?? {} })
    ws.on('open', () => resolve({ kind: 'http', status: 101, says: '', ws }))
    ws.on('unexpected-response', (_req, res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ kind: 'http', status: res.statusCode ?? 0, says: body }))
    })
    ws.on('error', (e) => resolve({ kind: 'http', status: -1, says: e.message }))
    void target
  })
}

/** One plain HTTP request to the server on `port`. */
export function httpRequest(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<HttpObserved> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ kind: 'http', status: res.statusCode ?? 0, says: body }))
    })
    req.on('error', reject)
    req.end()
  })
}

export interface Client {
  readonly ws: WebSocket
  readonly seen: ServerMessage[]
  send(m: unknown): void
  next(pred: (m: ServerMessage) => boolean): Promise<ServerMessage>
  /** The close that ends this socket, with the last error frame before it. */
  closed(): Promise<Observed>
}

/** A stream connection to `target` (token in the query), greeted unless `hello` is false. */
export async function connectTo(target: LensServer, hello = true): Promise<Client> {
  const ws = new WebSocket(`${target.streamUrl}?token=${target.token}`, [PROTOCOL])
  const seen: ServerMessage[] = []
  ws.on('message', (data) => seen.push(JSON.parse(data.toString()) as ServerMessage))
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  await new Promise((resolve) => ws.once('open', resolve))
  const client: Client = {
    ws,
    seen,
    send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    async next(pred) {
      await waitFor('a matching message', () => seen.some(pred), 10_000)
      return seen.find(pred) as ServerMessage
    },
    async closed() {
      const { code, reason } = await closed
      const error = [...seen].reverse().find((m) => m.type === 'error')
      if (error === undefined || error.type !== 'error') {
        const incident = target.incidents().at(-1)?.what ?? ''
        return { kind: 'close', code, reason, says: incident }
      }
      return { kind: 'close', code, reason, error: error.code, says: error.message }
    },
  }
  if (hello) {
    client.send({ type: 'hello', protocol: 1 })
    await client.next((m) => m.type === 'welcome')
  }
  return client
}

/** A subscribe that must be refused without closing: the non-fatal error, then the socket still answers a ping. */
export async function refusedSubscribe(c: Client, sub: string, source: Record<string, unknown>): Promise<Observed> {
  c.send({ type: 'subscribe', sub, source: { kind: 'file', ...source } })
  const reply = await c.next((m) => m.type === 'error' && m.sub === sub)
  if (reply.type !== 'error') throw new Error('unreachable')
  expect(reply.fatal).toBe(false)
  const t = Math.random()
  c.send({ type: 'ping', t })
  await c.next((m) => m.type === 'pong' && m.t === t)
  return { kind: 'error', error: reply.code, says: reply.message }
}

/** The table rows in SECURITY.md, as cell lists (whitespace from Prettier's column padding removed). */
export function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s-|]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    )
}
