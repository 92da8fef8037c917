/**
 * Every row of the attack table (src/server/attack-table.ts) performed against a real server: the observed answer
 * must be exactly the listed one, every row must be exercised, and SECURITY.md must quote the table verbatim.
 */

import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import type { Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WebSocket } from 'ws'
import { PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from '../live/protocol.ts'
import {
  connectTo,
  httpRequest,
  refusedSubscribe,
  tableCells,
  upgrade,
  type Client,
  type HttpObserved,
  type Observed,
} from '../test-support/attack-kit.ts'
import { ATTACKS, TABLE_END, TABLE_START, renderAttackTable, type Answer } from './attack-table.ts'
import { startLensServer, type LensServer } from './lens-server.ts'
import { cookieName, cookieValue } from './http/request-trust.ts'
import { headerText, sessionPath, tempRoot, waitFor } from '../test-support/live-test-kit.ts'

const exercised = new Set<string>()

function expectAnswer(id: string, observed: Observed): void {
  const row = ATTACKS.find((a) => a.id === id)
  if (row === undefined) throw new Error(`no attack-table row "${id}"`)
  exercised.add(id)
  const want: Answer = row.answer
  const { says, ...rest } = observed
  const { says: wantSays, ...wantRest } = want
  expect({ id, ...rest }).toStrictEqual({ id, ...wantRest })
  expect(says, `${id}: message`).toContain(wantSays)
}

let server: LensServer
let root: string
let outside: string
let inside: string

beforeAll(async () => {
  root = await tempRoot()
  outside = await tempRoot()
  const dist = await tempRoot()
  inside = await sessionPath(root, 'session-inside', false)
  await writeFile(inside, headerText('session-inside') + '\n{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n')
  await writeFile(join(outside, 'secret.jsonl'), headerText('session-secret') + '\n')
  const proj = join(root, '--home-u-proj--')
  await mkdir(join(proj, 'session-escape'), { recursive: true })
  await symlink(join(outside, 'secret.jsonl'), join(proj, 'session-escape', 'session.jsonl'))
  await mkdir(join(proj, 'session-zero'), { recursive: true })
  await symlink('/dev/zero', join(proj, 'session-zero', 'session.jsonl'))
  await mkdir(join(proj, 'session-fifo'), { recursive: true })
  const fifo = spawnSync('mkfifo', [join(proj, 'session-fifo', 'session.jsonl')])
  if (fifo.status !== 0) throw new Error(`mkfifo failed: ${fifo.stderr.toString()}`)
  await mkdir(join(proj, '%2e%2e'), { recursive: true })
  await writeFile(join(proj, 'session-inside', 'session.jsonl.abcdef012345.tmp'), headerText('session-tmp') + '\n')
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>lens</title>')
  await writeFile(join(outside, 'leak.txt'), 'secret')
  await symlink(join(outside, 'leak.txt'), join(dist, 'leak.txt'))
  server = await startLensServer({ roots: [root], distDir: dist, token: 'attack-token-0123456789abcdef', pollMs: 250 })
})
afterAll(async () => {
  await server.close()
  // Every row of the table was performed by some test in this file.
  expect([...exercised].sort()).toStrictEqual(ATTACKS.map((a) => a.id).sort())
})

const httpGet = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<HttpObserved> =>
  httpRequest(server.port, path, headers, method)
const connect = (target: LensServer = server, hello = true): Promise<Client> => connectTo(target, hello)

describe('who may connect', () => {
  const authed = (): string => `${server.streamUrl}?token=${server.token}`

  test('token, Origin, Host and endpoint refusals', async () => {
    expectAnswer('token-missing', await upgrade(server, server.streamUrl))
    for (const url of [`${server.streamUrl}?token=nope`, `${server.streamUrl}?token=${server.token.slice(0, -1)}`])
      expectAnswer('token-wrong', await upgrade(server, url))
    expectAnswer(
      'token-wrong',
      await upgrade(server, server.streamUrl, { protocols: [PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX + 'bad'] }),
    )
    const name = cookieName(server.port)
    const cookie = (value: string) => ({ headers: { Cookie: `${name}=${value}` } })
    expectAnswer(
      'cookie-expired',
      await upgrade(server, server.streamUrl, cookie(cookieValue(server.token, Date.now() - 8 * 86_400_000))),
    )
    const [expires, mac] = cookieValue(server.token).split('.') as [string, string]
    for (const value of [
      cookieValue('another-run-token-0123456789'),
      `${Number(expires) + 60_000}.${mac}`,
      `1.${'A'.repeat(43)}`,
    ])
      expectAnswer('cookie-forged', await upgrade(server, server.streamUrl, cookie(value)))
    expectAnswer('page-token-wrong', await httpGet('/?token=nope'))
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${server.port + 1}`,
      'null',
      `https://127.0.0.1:${server.port}`,
    ])
      expectAnswer('origin-foreign', await upgrade(server, authed(), { headers: { Origin: origin } }))
    expectAnswer('host-foreign', await upgrade(server, authed(), { headers: { Host: `evil.example:${server.port}` } }))
    expectAnswer('host-foreign', await httpGet('/', { Host: `evil.example:${server.port}` }))
    expectAnswer('host-foreign', await httpGet('/', { Host: `localhost.evil.example:${server.port}` }))
    expectAnswer('host-malformed', await upgrade(server, authed(), { headers: { Host: '127.0.0.1@evil.com' } }))
    expectAnswer('host-malformed', await httpGet('/', { Host: 'localhost/x' }))
    expectAnswer('wrong-endpoint', await upgrade(server, `${server.origin}/v2/stream?token=${server.token}`))
    // The right token still opens, so these refusals are about the attempt, not a broken server.
    const ok = await upgrade(server, authed(), { headers: { Origin: server.origin } })
    expect(ok.status).toBe(101)
    ok.ws?.close()
  })

  test('a peer over the connection limit is refused with 429; closing one frees a slot', async () => {
    await waitFor('earlier sockets gone', () => server.connections().length === 0)
    const open: WebSocket[] = []
    for (let i = 0; i < 16; i++) {
      const r = await upgrade(server, `${server.streamUrl}?token=${server.token}`)
      expect(r.status).toBe(101)
      open.push(r.ws as WebSocket)
    }
    expectAnswer('peer-connections', await upgrade(server, `${server.streamUrl}?token=${server.token}`))
    ;(open.pop() as WebSocket).close()
    await waitFor('slot freed', () => server.connections().length === 15)
    const again = await upgrade(server, `${server.streamUrl}?token=${server.token}`)
    expect(again.status).toBe(101)
    for (const ws of [...open, again.ws as WebSocket]) ws.close()
    await waitFor('all closed', () => server.connections().length === 0)
  })
})

describe('what may be read', () => {
  test('paths outside the roots, traversal, encodings, symlinks, devices, FIFOs and *.tmp are refused; the socket stays usable', async () => {
    const c = await connect()
    const proj = join(root, '--home-u-proj--')
    const outsideName = outside.split('/').pop() ?? ''
    expectAnswer('path-outside', await refusedSubscribe(c, 'o1', { path: join(outside, 'secret.jsonl') }))
    expectAnswer('path-outside', await refusedSubscribe(c, 'o2', { path: '/etc/passwd' }))
    expectAnswer('path-outside', await refusedSubscribe(c, 'o3', { path: 'relative/session.jsonl' }))
    expectAnswer('path-dotdot', await refusedSubscribe(c, 'd1', { path: `${root}/../${outsideName}/secret.jsonl` }))
    // `..` that would land back on a real log inside the root is refused too: intent is fenced, not just outcome.
    expectAnswer(
      'path-dotdot',
      await refusedSubscribe(c, 'd2', { path: `${proj}/session-inside/../session-inside/session.jsonl` }),
    )
    expectAnswer('path-encoded', await refusedSubscribe(c, 'e1', { path: `${proj}/%2e%2e/session-inside/session.jsonl` }))
    expectAnswer('path-encoded', await refusedSubscribe(c, 'e2', { path: `${proj}/%252e%252e/${outsideName}/secret.jsonl` }))
    expectAnswer('path-encoded', await refusedSubscribe(c, 'e3', { path: `${root}/%2e%2e/${outsideName}/secret.jsonl` }))
    expectAnswer('path-symlink-out', await refusedSubscribe(c, 's1', { path: join(proj, 'session-escape', 'session.jsonl') }))
    expectAnswer('path-device', await refusedSubscribe(c, 'v1', { path: '/dev/zero' }))
    expectAnswer('path-device', await refusedSubscribe(c, 'v2', { path: join(proj, 'session-zero', 'session.jsonl') }))
    expectAnswer('path-device', await refusedSubscribe(c, 'v3', { path: join(proj, 'session-fifo', 'session.jsonl') }))
    expectAnswer(
      'path-tmp',
      await refusedSubscribe(c, 't1', { path: join(proj, 'session-inside', 'session.jsonl.abcdef012345.tmp') }),
    )
    expectAnswer('session-outside', await refusedSubscribe(c, 'i1', { sessionId: 'session-secret' }))
    expectAnswer('session-outside', await refusedSubscribe(c, 'i2', { sessionId: 'session-tmp' }))
    // A host URL in the source is not even read: the server has at most the one upstream it was started with.
    expectAnswer(
      'dsh-web-unattached',
      await refusedSubscribe(c, 'h1', { kind: 'dsh-web', sessionId: 'session-inside', base: 'http://127.0.0.1:3080' }),
    )
    // The list holds the one real log: no escape, device, FIFO or tmp file, and listing did not hang on the FIFO.
    c.send({ type: 'list', req: 'r1' })
    const list = await c.next((m) => m.type === 'sessions')
    expect(list.type === 'sessions' && list.items.map((i) => i.path)).toStrictEqual([inside])
    // And the legitimate log still opens on the same socket.
    c.send({ type: 'subscribe', sub: 'ok', source: { kind: 'file', path: inside } })
    expect(await c.next((m) => m.type === 'snapshot' && m.sub === 'ok')).toMatchObject({ headSeq: 0 })
    c.ws.close()
  })

  test('static files: traversal in every encoding and a symlink out are 404; other methods 405', async () => {
    for (const path of [
      '/%2e%2e/leak.txt',
      '/%252e%252e/leak.txt',
      '/..%2f..%2fetc%2fpasswd',
      '/%2e%2e%2f%2e%2e%2fetc/passwd',
      '/leak.txt',
    ])
      expectAnswer('static-traversal', await httpGet(path))
    expectAnswer('static-method', await httpGet('/', {}, 'POST'))
    expectAnswer('static-method', await httpGet('/', {}, 'DELETE'))
    expect((await httpGet('/')).status).toBe(200)
  })
})

describe('what may be sent', () => {
  const fatal = async (id: string, send: (c: Client) => void, hello = true): Promise<void> => {
    const c = await connect(server, hello)
    send(c)
    expectAnswer(id, await c.closed())
  }

  test('oversized, binary, malformed, unknown and out-of-order messages close with a reason', async () => {
    await fatal('frame-oversized', (c) => c.send(JSON.stringify({ type: 'ping', t: 1, pad: 'x'.repeat(70 * 1024) })))
    await fatal('frame-huge', (c) => c.send('x'.repeat(1024 * 1024 + 16)))
    await fatal('frame-binary', (c) => c.ws.send(new Uint8Array([1, 2, 3])))
    for (const text of ['{', 'hello', '{"type":"ping",}', '\u0000']) await fatal('frame-not-json', (c) => c.send(text))
    for (const text of ['[]', '"x"', 'null', '42', '[{"type":"hello","protocol":1}]'])
      await fatal('frame-not-object', (c) => c.send(text))
    await fatal('frame-wrong-types', (c) =>
      c.send({ type: 'subscribe', sub: 'a', source: { kind: 'file', path: inside }, window: 'x' }),
    )
    await fatal('frame-wrong-types', (c) =>
      c.send({ type: 'subscribe', sub: 'bad id with spaces', source: { kind: 'file', path: inside } }),
    )
    await fatal('frame-wrong-types', (c) => c.send({ type: 'hello', protocol: '1' }), false)
    await fatal('frame-wrong-types', (c) => c.send({ type: 'ack', sub: 'a', seq: 1.5 }))
    await fatal('frame-wrong-types', (c) => c.send({ type: 'subscribe', sub: 'a', source: { kind: 'file', path: 42 } }))
    for (const type of ['rm', 'write', '__proto__', 42, null])
      await fatal('message-unknown', (c) => c.send({ type, path: inside }))
    await fatal('before-hello', (c) => c.send({ type: 'subscribe', sub: 'a', source: { kind: 'file', path: inside } }), false)
    await fatal('protocol-version', (c) => c.send({ type: 'hello', protocol: 2 }), false)
    // The server survived all of it.
    const c = await connect()
    c.send({ type: 'ping', t: 7 })
    await c.next((m) => m.type === 'pong' && m.t === 7)
    c.ws.close()
  })

  test('past maxSubscriptions a subscribe is refused, non-fatal; the earlier ones keep streaming', async () => {
    const c = await connect()
    for (let i = 0; i < 32; i++) c.send({ type: 'subscribe', sub: `s${i}`, source: { kind: 'file', path: inside } })
    await waitFor('32 snapshots', () => c.seen.filter((m) => m.type === 'snapshot').length === 32)
    expectAnswer('subscriptions', await refusedSubscribe(c, 's32', { path: inside }))
    // Re-subscribing an existing sub id replaces it rather than counting twice.
    c.send({ type: 'subscribe', sub: 's0', source: { kind: 'file', path: inside } })
    await waitFor('s0 again', () => c.seen.filter((m) => m.type === 'snapshot' && m.sub === 's0').length === 2)
    c.ws.close()
  })
})

describe('what may be held', () => {
  test('a client that stops reading is cut off as a slow consumer; a silent peer is terminated', async () => {
    const sroot = await tempRoot()
    const path = await sessionPath(sroot, 'session-big', false)
    const filler = 'x'.repeat(10_000)
    const lines = [headerText('session-big')]
    for (let seq = 0; seq < 1500; seq++) lines.push(JSON.stringify({ type: 'note', seq, time: seq, data: { filler } }))
    await writeFile(path, lines.join('\n') + '\n')
    const slow = await startLensServer({
      roots: [sroot],
      token: 'slow-token-0123456789',
      pollMs: 250,
      highWaterBytes: 64 * 1024,
      maxBatchBytes: 32 * 1024,
      maxWindow: 1_000_000,
      stallMs: 400,
      heartbeatMs: 100,
      deadMs: 60_000,
    })
    try {
      const c = await connect(slow)
      c.send({ type: 'subscribe', sub: 'big', source: { kind: 'file', path }, window: 1_000_000 })
      ;(c.ws as unknown as { _socket: Socket })._socket.pause()
      await waitFor('cut off', () => slow.incidents().some((i) => i.what.includes('slow-consumer')))
      // Its subscriptions are gone at once; the socket itself only waits out the close grace.
      expect(slow.connections().flatMap((c) => c.subs)).toStrictEqual([])
      // Reading again, the client finds the reason and the close frame after what was already buffered.
      ;(c.ws as unknown as { _socket: Socket })._socket.resume()
      expectAnswer('slow-consumer', await c.closed())
    } finally {
      await slow.close()
    }
    const quiet = await startLensServer({ roots: [sroot], token: 'quiet-token-0123456789', heartbeatMs: 100, deadMs: 400 })
    try {
      const c = await connect(quiet)
      ;(c.ws as unknown as { _socket: Socket })._socket.pause()
      await waitFor('terminated', () => quiet.connections().length === 0)
      expectAnswer('silent-peer', { kind: 'terminate', says: quiet.incidents().at(-1)?.what ?? '' })
      c.ws.terminate()
    } finally {
      await quiet.close()
    }
  })
})

test('SECURITY.md quotes the attack table exactly', () => {
  const doc = readFileSync(new URL('../../SECURITY.md', import.meta.url), 'utf8')
  const start = doc.indexOf(TABLE_START)
  const end = doc.indexOf(TABLE_END)
  expect(start, 'SECURITY.md has the attack-table start marker').toBeGreaterThanOrEqual(0)
  expect(end).toBeGreaterThan(start)
  expect(tableCells(doc.slice(start + TABLE_START.length, end))).toStrictEqual(tableCells(renderAttackTable()))
})
