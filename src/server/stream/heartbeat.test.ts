/** Heartbeats: the server pings with each sub's last seq, answers client pings, and drops a peer that went silent. */

import { writeFile } from 'node:fs/promises'
import type { Socket } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { PROTOCOL, type ServerMessage } from '../../live/protocol.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { headerText, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'

let server: LensServer
let path: string

beforeAll(async () => {
  const root = await tempRoot()
  path = await sessionPath(root, 'session-hb', false)
  await writeFile(path, headerText('session-hb') + '\n{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n')
  server = await startLensServer({ roots: [root], token: 'hb-token-0123456789', pollMs: 250, heartbeatMs: 100, deadMs: 500 })
})
afterAll(() => server.close())

async function open(): Promise<{ ws: WebSocket; seen: ServerMessage[] }> {
  const ws = new WebSocket(`${server.streamUrl}?token=${server.token}`, [PROTOCOL])
  const seen: ServerMessage[] = []
  ws.on('message', (d) => seen.push(JSON.parse(d.toString()) as ServerMessage))
  await new Promise((resolve) => ws.once('open', resolve))
  ws.send(JSON.stringify({ type: 'hello', protocol: 1 }))
  ws.send(JSON.stringify({ type: 'subscribe', sub: 'a', source: { kind: 'file', path } }))
  return { ws, seen }
}

test('a responsive peer gets pings carrying its last seq, and pongs for its own pings', async () => {
  const { ws, seen } = await open()
  ws.send(JSON.stringify({ type: 'ping', t: 42 }))
  await waitFor('pong', () => seen.some((m) => m.type === 'pong' && m.t === 42))
  // ws answers protocol pings itself, so this peer stays alive across many dead-peer deadlines.
  await waitFor('pings with the sub', () => seen.filter((m) => m.type === 'ping' && m.subs['a'] === 0).length >= 8)
  expect(ws.readyState).toBe(WebSocket.OPEN)
  ws.close()
})

test('a silent peer is terminated after the dead-peer deadline', async () => {
  const { ws } = await open()
  await waitFor('connected', () => server.connections().length >= 1)
  ;(ws as unknown as { _socket: Socket })._socket.pause()
  await waitFor('terminated', () => server.connections().length === 0)
  ws.terminate()
})
