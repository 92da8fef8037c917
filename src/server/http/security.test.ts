/** Security: token, Origin and Host checks on the real server, the read fence (.., symlinks), and static file confinement. */

import { request } from 'node:http'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX, type ServerMessage } from '../../live/protocol.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { headerText, sessionPath, tempRoot } from '../../test-support/live-test-kit.ts'

let server: LensServer
let root: string
let outside: string
let dist: string

beforeAll(async () => {
  root = await tempRoot()
  outside = await tempRoot()
  dist = await tempRoot()
  const inside = await sessionPath(root, 'session-inside', false)
  await writeFile(inside, headerText('session-inside') + '\n{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n')
  await writeFile(join(outside, 'secret.jsonl'), headerText('session-secret') + '\n')
  // A session directory inside the root whose log is a symlink to a file outside it.
  await mkdir(join(root, '--home-u-proj--', 'session-escape'), { recursive: true })
  await symlink(join(outside, 'secret.jsonl'), join(root, '--home-u-proj--', 'session-escape', 'session.jsonl'))
  await writeFile(
    join(root, '--home-u-proj--', 'session-inside', 'session.jsonl.abcdef012345.tmp'),
    headerText('session-tmp') + '\n',
  )
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>lens</title>')
  await writeFile(join(dist, 'app.js'), 'export {}')
  await writeFile(join(outside, 'leak.txt'), 'secret')
  await symlink(join(outside, 'leak.txt'), join(dist, 'leak.txt'))
  server = await startLensServer({ roots: [root], distDir: dist, token: 'the-right-token-0123456789abcdef', pollMs: 250 })
})
afterAll(() => server.close())

/** Try an upgrade; resolve with the HTTP status of a refusal, or 101 when it opened. */
function upgradeStatus(url: string, options: { protocols?: string[]; headers?: Record<string, string> } = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options.protocols ?? [PROTOCOL], { headers: options.headers ?? {} })
    ws.on('open', () => {
      ws.close()
      resolve(101)
    })
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.on('error', () => resolve(-1))
  })
}

function httpGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Open an authenticated stream, say hello, and collect replies. */
async function session(): Promise<{
  send(m: unknown): void
  next(pred: (m: ServerMessage) => boolean): Promise<ServerMessage>
  close(): void
}> {
  const ws = new WebSocket(`${server.streamUrl}?token=${server.token}`, [PROTOCOL])
  const seen: ServerMessage[] = []
  const waiters: Array<() => void> = []
  ws.on('message', (data) => {
    seen.push(JSON.parse(data.toString()) as ServerMessage)
    for (const w of waiters.splice(0)) w()
  })
  await new Promise((resolve) => ws.once('open', resolve))
  const api = {
    send: (m: unknown) => ws.send(JSON.stringify(m)),
    async next(pred: (m: ServerMessage) => boolean): Promise<ServerMessage> {
      for (;;) {
        const found = seen.find(pred)
        if (found !== undefined) return found
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
    close: () => ws.close(),
  }
  api.send({ type: 'hello', protocol: 1 })
  await api.next((m) => m.type === 'welcome')
  return api
}

describe('token', () => {
  test('missing or wrong token is refused with 401; right token by query or subprotocol opens', async () => {
    expect(await upgradeStatus(server.streamUrl)).toBe(401)
    expect(await upgradeStatus(`${server.streamUrl}?token=nope`)).toBe(401)
    expect(await upgradeStatus(`${server.streamUrl}?token=${server.token.slice(0, -1)}`)).toBe(401)
    expect(await upgradeStatus(`${server.streamUrl}?token=${server.token}`)).toBe(101)
    expect(await upgradeStatus(server.streamUrl, { protocols: [PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX + server.token] })).toBe(101)
    expect(await upgradeStatus(server.streamUrl, { protocols: [PROTOCOL, TOKEN_SUBPROTOCOL_PREFIX + 'bad'] })).toBe(401)
  })

  test('the printed viewer URL carries the stream URL and the token', () => {
    const url = new URL(server.viewerUrl)
    expect(url.searchParams.get('ws')).toBe(server.streamUrl)
    expect(url.searchParams.get('token')).toBe(server.token)
    expect(url.hostname).toBe('127.0.0.1')
  })
})

describe('origin and host', () => {
  const authed = (): string => `${server.streamUrl}?token=${server.token}`

  test('a foreign Origin is refused; the server’s own origin is accepted', async () => {
    expect(await upgradeStatus(authed(), { headers: { Origin: 'http://evil.example' } })).toBe(403)
    expect(await upgradeStatus(authed(), { headers: { Origin: `http://127.0.0.1:${server.port + 1}` } })).toBe(403)
    expect(await upgradeStatus(authed(), { headers: { Origin: 'null' } })).toBe(403)
    expect(await upgradeStatus(authed(), { headers: { Origin: server.origin } })).toBe(101)
    expect(await upgradeStatus(authed(), { headers: { Origin: `http://localhost:${server.port}` } })).toBe(101)
  })

  test('a non-loopback Host is refused for the stream and for static files (DNS rebinding)', async () => {
    expect(await upgradeStatus(authed(), { headers: { Host: `evil.example:${server.port}` } })).toBe(403)
    expect((await httpGet('/', { Host: `evil.example:${server.port}` })).status).toBe(403)
    expect((await httpGet('/', { Host: `localhost:${server.port}` })).status).toBe(200)
  })
})

describe('read fence', () => {
  test('paths outside the roots, with .., or through a symlink are refused; *.tmp and escapes are not listed', async () => {
    const s = await session()
    const tries = [
      join(outside, 'secret.jsonl'),
      `${root}/../${outside.split('/').pop() ?? ''}/secret.jsonl`,
      join(root, '--home-u-proj--', 'session-escape', 'session.jsonl'),
      join(root, '--home-u-proj--', 'session-inside', 'session.jsonl.abcdef012345.tmp'),
      '/etc/passwd',
      'relative/session.jsonl',
    ]
    for (const [i, path] of tries.entries()) {
      s.send({ type: 'subscribe', sub: `p${i}`, source: { kind: 'file', path } })
      const reply = await s.next((m) => m.type === 'error' && m.sub === `p${i}`)
      expect(reply).toMatchObject({ code: 'not-found' })
    }
    s.send({ type: 'subscribe', sub: 'esc', source: { kind: 'file', sessionId: 'session-secret' } })
    expect(await s.next((m) => m.type === 'error' && m.sub === 'esc')).toMatchObject({ code: 'not-found' })
    s.send({ type: 'list', req: 'r1' })
    const list = await s.next((m) => m.type === 'sessions')
    expect(list.type === 'sessions' && list.items.map((i) => i.sessionId)).toStrictEqual(['session-inside'])
    expect(list.type === 'sessions' && list.items[0]).toMatchObject({ turnOpen: true, lastSeq: 0, cwd: '/home/u/proj' })
    s.close()
  })

  test('malformed messages get a clear fatal error', async () => {
    const s = await session()
    s.send({ type: 'subscribe', sub: 'bad id with spaces', source: { kind: 'file', sessionId: 'x' } })
    expect(await s.next((m) => m.type === 'error')).toMatchObject({ code: 'bad-request', fatal: true })
  })
})

describe('static files', () => {
  test('content types, index only for /, no traversal, no symlink escape', async () => {
    const index = await httpGet('/')
    expect(index).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' })
    expect(await httpGet('/app.js')).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' })
    expect((await httpGet('/missing/route')).status).toBe(404)
    expect((await httpGet('/%2e%2e/leak.txt')).status).toBe(404)
    expect((await httpGet('/..%2f..%2fetc%2fpasswd')).status).toBe(404)
    expect((await httpGet('/leak.txt')).status).toBe(404)
    expect((await httpGet('/v1/stream')).status).toBe(426)
  })
})

describe('host header parsing', () => {
  test('only a bare loopback name[:port] passes', async () => {
    const { checkHost } = await import('./request-trust.ts')
    const policy = { token: 't', port: 1, extraHosts: [], extraOrigins: [] }
    const verdict = (host: string): boolean => checkHost({ headers: { host } } as never, policy).ok
    expect(['127.0.0.1:1', 'localhost', '[::1]:8080', 'app.localhost:3'].map(verdict)).toStrictEqual([true, true, true, true])
    expect(
      ['127.0.0.1@evil.com', 'evil.com', 'localhost.evil.com', '127.0.0.1.nip.io', 'localhost/x', '[::2]:1', ''].map(verdict),
    ).toStrictEqual([false, false, false, false, false, false, false])
  })
})
