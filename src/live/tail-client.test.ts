/** TailClient against a scripted fake socket: continuity checks, resync on overlap/gap, reset, reconnect with resume, backoff bounds. */

import { expect, test, vi } from 'vitest'
import { Backoff } from './backoff.ts'
import type { ServerMessage } from './protocol.ts'
import { TailClient, type AppendBatch, type LiveStatus, type WebSocketLike } from './tail-client.ts'

class FakeSocket implements WebSocketLike {
  readyState = 0
  sent: Array<Record<string, unknown>> = []
  onopen: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: unknown) => void) | null = null
  onerror: ((event: unknown) => void) | null = null

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>)
  }

  close(): void {
    this.readyState = 3
    this.onclose?.({})
  }

  open(): void {
    this.readyState = 1
    this.onopen?.({})
  }

  deliver(message: ServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) })
  }

  last(type: string): Record<string, unknown> | undefined {
    return [...this.sent].reverse().find((m) => m['type'] === type)
  }
}

const welcome: ServerMessage = {
  type: 'welcome',
  protocol: 1,
  server: 'test',
  serverId: 'x',
  heartbeatMs: 60_000,
  defaultWindow: 100,
  maxWindow: 1000,
  maxBatchEvents: 50,
  maxBatchBytes: 1 << 20,
}

function snapshot(fromSeq: number, mode: 'full' | 'resume', epoch = 'e1'): ServerMessage {
  return { type: 'snapshot', sub: 's', epoch, sessionId: 'id', headerLine: '{}', encoding: 'jsonl', fromSeq, headSeq: 20, mode }
}

function append(fromSeq: number, toSeq: number, epoch = 'e1'): ServerMessage {
  const lines = Array.from({ length: toSeq - fromSeq + 1 }, (_, i) => `{"seq":${fromSeq + i}}`)
  return { type: 'append', sub: 's', epoch, fromSeq, toSeq, lines }
}

function setup(): {
  client: TailClient
  sockets: FakeSocket[]
  batches: AppendBatch[]
  resets: string[]
  statuses: LiveStatus[]
} {
  const sockets: FakeSocket[] = []
  const batches: AppendBatch[] = []
  const resets: string[] = []
  const statuses: LiveStatus[] = []
  const client = new TailClient({
    url: 'ws://127.0.0.1:1/v1/stream',
    token: 'tok',
    webSocket: (url, protocols) => {
      const s = new FakeSocket(url, protocols)
      sockets.push(s)
      return s
    },
    backoff: { random: () => 0 },
    onStatus: (s) => statuses.push(s),
  })
  client.subscribe(
    's',
    { kind: 'file', sessionId: 'id' },
    {
      onSnapshot: () => undefined,
      onAppend: (b) => batches.push(b),
      onReset: (r) => resets.push(r),
    },
  )
  client.connect()
  return { client, sockets, batches, resets, statuses }
}

test('offers the protocol and the token subprotocol; hello, then subscribe after welcome', () => {
  const { sockets, client } = setup()
  const s = sockets[0] as FakeSocket
  expect(s.protocols).toStrictEqual(['dsh-viewer.v1', 'dsh-viewer.token.tok'])
  s.open()
  expect(s.sent[0]).toMatchObject({ type: 'hello', protocol: 1, resume: [] })
  s.deliver(welcome)
  expect(s.last('subscribe')).toMatchObject({ sub: 's', fromSeq: 0 })
  client.close()
})

test('applies contiguous appends once, drops duplicates, and resyncs on overlap or gap', () => {
  const { sockets, batches, client } = setup()
  const s = sockets[0] as FakeSocket
  s.open()
  s.deliver(welcome)
  s.deliver(snapshot(0, 'full'))
  s.deliver(append(0, 4))
  expect(s.last('ack')).toMatchObject({ seq: 4 })
  s.deliver(append(0, 4)) // duplicate: ignored
  s.deliver(append(3, 6)) // overlap: cannot be trimmed safely, ask again
  expect(s.last('subscribe')).toMatchObject({ fromSeq: 5, epoch: 'e1' })
  s.deliver(append(7, 8)) // stale, from before the resubscribe: ignored
  s.deliver(snapshot(5, 'resume'))
  s.deliver(append(5, 6))
  s.deliver(append(9, 9)) // gap
  expect(s.last('subscribe')).toMatchObject({ fromSeq: 7 })
  s.deliver(snapshot(7, 'resume'))
  s.deliver(append(7, 9))
  expect(batches.map((b) => [b.fromSeq, b.toSeq])).toStrictEqual([
    [0, 4],
    [5, 6],
    [7, 9],
  ])
  // A heartbeat claiming more than we have means something was lost: resync.
  s.deliver({ type: 'ping', t: 1, subs: { s: 12 } })
  expect(s.last('pong')).toMatchObject({ t: 1 })
  expect(s.last('subscribe')).toMatchObject({ fromSeq: 10 })
  client.close()
})

test('reset voids everything; reconnect resumes from the last seq with the epoch', async () => {
  const { sockets, batches, resets, statuses, client } = setup()
  const s = sockets[0] as FakeSocket
  s.open()
  s.deliver(welcome)
  s.deliver(snapshot(0, 'full'))
  s.deliver(append(0, 2))
  s.deliver({ type: 'reset', sub: 's', epoch: null, reason: 'truncated' })
  expect(resets).toStrictEqual(['truncated'])
  expect(statuses).toContain('reset')
  s.deliver(append(3, 4)) // old epoch, after reset: ignored
  s.deliver(snapshot(0, 'full', 'e2'))
  s.deliver(append(0, 1, 'e2'))
  s.deliver({ type: 'live', sub: 's', lastSeq: 1 })
  expect(client.status).toBe('live')
  s.close()
  expect(client.status).toBe('reconnecting')
  // The new socket comes after the backoff's timer (0 ms here): wait for it, not for a fixed time.
  await vi.waitFor(() => expect(sockets).toHaveLength(2), { timeout: 20_000 })
  const again = sockets[1] as FakeSocket
  again.open()
  expect(again.sent[0]).toMatchObject({ type: 'hello', resume: [{ sub: 's', epoch: 'e2', lastSeq: 1 }] })
  again.deliver(welcome)
  again.deliver(snapshot(2, 'resume', 'e2'))
  again.deliver(append(2, 3, 'e2'))
  expect(batches.map((b) => [b.fromSeq, b.toSeq])).toStrictEqual([
    [0, 2],
    [0, 1],
    [2, 3],
  ])
  client.close()
})

test('backoff: full jitter below an exponential ceiling capped at 10 s', () => {
  const ceilings: number[] = []
  const b = new Backoff({ random: () => 0.999999 })
  for (let i = 0; i < 8; i++) ceilings.push(b.next())
  expect(ceilings).toStrictEqual([499, 999, 1999, 3999, 7999, 9999, 9999, 9999])
  b.reset()
  expect(b.next()).toBe(499)
  expect(new Backoff({ random: () => 0 }).next()).toBe(0)
})

test('silence for 2.5 heartbeats closes the socket and reconnects', async () => {
  const { sockets, statuses, client } = setup()
  const s = sockets[0] as FakeSocket
  s.open()
  s.deliver({ ...welcome, heartbeatMs: 20 } as ServerMessage)
  await vi.waitFor(() => expect(sockets.length).toBeGreaterThanOrEqual(2), { timeout: 20_000 })
  expect(statuses).toContain('reconnecting')
  expect(s.sent.some((m) => m['type'] === 'ping')).toBe(true)
  client.close()
})
