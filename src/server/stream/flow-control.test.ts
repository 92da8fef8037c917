/** Flow control: a client that never reads, or never acks, cannot make the server buffer without bound. */

import { writeFile } from 'node:fs/promises'
import type { Socket } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { PROTOCOL } from '../../live/protocol.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { headerText, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'

const HIGH_WATER = 256 * 1024
const MAX_BATCH = 64 * 1024
let server: LensServer
let path: string
let fileBytes = 0

beforeAll(async () => {
  const root = await tempRoot()
  path = await sessionPath(root, 'session-big', false)
  // ~24 MiB of events: far more than loopback socket buffers can absorb.
  const filler = 'x'.repeat(10_000)
  const lines = [headerText('session-big')]
  for (let seq = 0; seq < 2400; seq++) lines.push(JSON.stringify({ type: 'note', seq, time: seq, data: { filler } }))
  const text = lines.join('\n') + '\n'
  fileBytes = text.length
  await writeFile(path, text)
  server = await startLensServer({
    roots: [root],
    token: 'flow-token-0123456789',
    pollMs: 250,
    highWaterBytes: HIGH_WATER,
    maxBatchBytes: MAX_BATCH,
    maxWindow: 1_000_000,
    deadMs: 600_000,
  })
})
afterAll(() => server.close())

async function connect(): Promise<WebSocket> {
  const ws = new WebSocket(`${server.streamUrl}?token=${server.token}`, [PROTOCOL])
  await new Promise((resolve) => ws.once('open', resolve))
  return ws
}

test('a client that never reads: the server stops at the high-water mark and holds no more', async () => {
  const ws = await connect()
  ws.send(JSON.stringify({ type: 'hello', protocol: 1 }))
  ws.send(JSON.stringify({ type: 'subscribe', sub: 'big', source: { kind: 'file', path }, window: 1_000_000 }))
  // Stop reading at the TCP level: the kernel buffers fill, then ws.bufferedAmount grows on the server.
  ;(ws as unknown as { _socket: Socket })._socket.pause()
  const stats = (): { bufferedAmount: number; paused: string | null; sentBytes: number } => {
    const c = server.connections().at(-1)
    const s = c?.subs[0]
    return { bufferedAmount: c?.bufferedAmount ?? 0, paused: s?.paused ?? null, sentBytes: s?.sentBytes ?? 0 }
  }
  await waitFor('backpressure pause', () => stats().paused === 'backpressure')
  const tail = server.tails()[0]
  if (tail === undefined) throw new Error('no tail')
  const first = stats()
  const polls = tail.polls
  await waitFor('more polls while paused', () => tail.polls >= polls + 4)
  const later = stats()
  for (const s of [first, later]) {
    expect(s.paused).toBe('backpressure')
    // One batch may land on top of the mark, never more (plus a heartbeat or two).
    expect(s.bufferedAmount).toBeLessThanOrEqual(HIGH_WATER + MAX_BATCH + 4096)
  }
  expect(later.sentBytes).toBe(first.sentBytes)
  expect(later.sentBytes).toBeLessThan(fileBytes)
  ws.terminate()
})

test('a client that reads but never acks gets at most one window of events', async () => {
  const ws = await connect()
  let lastTo = -1
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { type: string; toSeq?: number }
    if (m.type === 'append') lastTo = m.toSeq ?? lastTo
  })
  ws.send(JSON.stringify({ type: 'hello', protocol: 1 }))
  ws.send(JSON.stringify({ type: 'subscribe', sub: 'credit', source: { kind: 'file', path }, window: 100 }))
  const sub = (): { sentSeq: number; paused: string | null } | undefined => server.connections().at(-1)?.subs[0]
  await waitFor('one window delivered', () => lastTo === 99 && sub()?.paused === 'credit')
  const tail = server.tails()[0]
  if (tail === undefined) throw new Error('no tail')
  const polls = tail.polls
  await waitFor('more polls while out of credit', () => tail.polls >= polls + 2)
  expect(sub()?.sentSeq).toBe(99)
  expect(lastTo).toBe(99)
  ws.send(JSON.stringify({ type: 'ack', sub: 'credit', seq: 49 }))
  await waitFor('credit refilled', () => lastTo === 149)
  ws.terminate()
})
