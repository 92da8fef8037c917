/**
 * The sign-in cookie on the real server (request-trust.ts): the printed URL's token is exchanged once for an HttpOnly,
 * SameSite=Strict cookie and a redirect without it; the cookie then opens the stream; a wrong, missing, expired or
 * foreign cookie does not; a restart with the same token keeps it valid. Also the served page's marker, the port
 * fallback, and `watch-sessions` (the sessions home's live list) over a real socket.
 */

import { createServer, request, type Server } from 'node:http'
import { appendFile, writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { PROTOCOL, type ServerMessage } from '../../live/protocol.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { headerText, servedRoot, sessionPath, waitFor } from '../../test-support/live-test-kit.ts'
import { COOKIE_MAX_AGE_S, cookieName, cookieValue } from './request-trust.ts'

const TOKEN = 'sign-in-token-0123456789abcdef'
let server: LensServer
let root: string
let dist: string

beforeAll(async () => {
  ;({ root, dist } = await servedRoot())
  server = await startLensServer({ roots: [root], distDir: dist, token: TOKEN, catalogPollMs: 50, sessionsHome: true })
})
afterAll(() => server.close())

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

function upgradeStatus(s: LensServer, cookie: string | undefined): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(s.streamUrl, [PROTOCOL], { headers: cookie === undefined ? {} : { Cookie: cookie } })
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

/** The cookie a browser would send back, from a `Set-Cookie` header. */
function cookieFrom(setCookie: string): string {
  return setCookie.split(';')[0] as string
}

describe('sign-in', () => {
  test('the token in the page URL is exchanged for an HttpOnly, SameSite=Strict cookie and a redirect without it', async () => {
    const reply = await get(server.port, `/?session=session-a&token=${TOKEN}`)
    expect(reply.status).toBe(303)
    expect(reply.headers['location']).toBe('/?session=session-a')
    expect(reply.headers['cache-control']).toBe('no-store')
    const setCookie = reply.headers['set-cookie']
    expect(Array.isArray(setCookie) && setCookie.length).toBe(1)
    const attributes = (setCookie as string[])[0]?.split(';').map((a) => a.trim()) ?? []
    expect(attributes[0]).toMatch(new RegExp(`^${cookieName(server.port)}=\\d+\\.[A-Za-z0-9_-]{43}$`))
    expect(attributes.slice(1).sort()).toStrictEqual(['HttpOnly', `Max-Age=${COOKIE_MAX_AGE_S}`, 'Path=/', 'SameSite=Strict'])
    // The cookie is a MAC, not the token.
    expect(attributes[0]).not.toContain(TOKEN)
    expect(await upgradeStatus(server, cookieFrom((setCookie as string[])[0] as string))).toBe(101)
  })

  test('a wrong token signs nothing in; a missing, wrong, expired or tampered cookie opens no stream', async () => {
    const wrong = await get(server.port, `/?token=${TOKEN.slice(0, -1)}x`)
    expect(wrong.status).toBe(401)
    expect(wrong.headers['set-cookie']).toBeUndefined()
    const name = cookieName(server.port)
    expect(await upgradeStatus(server, undefined)).toBe(401)
    expect(await upgradeStatus(server, `${name}=${cookieValue('another-token-0123456789')}`)).toBe(401)
    // Issued eight days ago with the right token: past its seven days.
    expect(await upgradeStatus(server, `${name}=${cookieValue(TOKEN, Date.now() - 8 * 86_400_000)}`)).toBe(401)
    const good = cookieValue(TOKEN)
    const [expires, mac] = good.split('.') as [string, string]
    // A later expiry with the old MAC, and the right MAC under another server's cookie name.
    expect(await upgradeStatus(server, `${name}=${Number(expires) + 1}.${mac}`)).toBe(401)
    expect(await upgradeStatus(server, `${cookieName(server.port + 1)}=${good}`)).toBe(401)
    expect(await upgradeStatus(server, `other=1; ${name}=${good}`)).toBe(101)
  })

  test('the served page says whether the browser is signed in; the Connect flow URL keeps its token', async () => {
    // `serve` (no sessions home) leaves its page as it was.
    const plain = await startLensServer({ roots: [root], distDir: dist, token: TOKEN })
    expect((await get(plain.port, '/')).body).not.toContain('dsh-lens-served')
    await plain.close()
    const out = await get(server.port, '/')
    expect(out.status).toBe(200)
    expect(out.body).toContain('<meta name="dsh-lens-served" content="signed-out">')
    const signedIn = await get(server.port, '/', { Cookie: `${cookieName(server.port)}=${cookieValue(TOKEN)}` })
    expect(signedIn.body).toContain('<meta name="dsh-lens-served" content="signed-in">')
    expect(Number(signedIn.headers['content-length'])).toBe(Buffer.byteLength(signedIn.body))
    const connect = await get(server.port, `/?ws=${server.streamUrl}&token=${TOKEN}`)
    expect(connect.status).toBe(200)
  })

  test('a restart with the same token (DSH_LENS_TOKEN) keeps the cookie valid; a fresh token does not', async () => {
    const cookie = `${cookieName(server.port)}=${cookieValue(TOKEN)}`
    const port = server.port
    await server.close()
    server = await startLensServer({ roots: [root], distDir: dist, token: TOKEN, port, catalogPollMs: 50, sessionsHome: true })
    expect(await upgradeStatus(server, cookie)).toBe(101)
    await server.close()
    server = await startLensServer({ roots: [root], distDir: dist, port, catalogPollMs: 50 })
    expect(await upgradeStatus(server, cookie)).toBe(401)
    await server.close()
    server = await startLensServer({ roots: [root], distDir: dist, token: TOKEN, catalogPollMs: 50, sessionsHome: true })
  })
})

describe('port fallback', () => {
  test('a taken port moves to the next free one of the attempts; without attempts it fails', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const taken = (blocker.address() as { port: number }).port
    try {
      const moved = await startLensServer({ roots: [root], distDir: dist, port: taken, portAttempts: 10 })
      expect(moved.port).toBeGreaterThan(taken)
      expect(moved.port).toBeLessThan(taken + 10)
      expect(moved.signInUrl()).toBe(`http://127.0.0.1:${moved.port}/?token=${moved.token}`)
      await moved.close()
      await expect(startLensServer({ roots: [root], distDir: dist, port: taken })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    } finally {
      blocker.close()
    }
  })
})

describe('watch-sessions', () => {
  test('answers with the list and its scan progress, then sends what changes', async () => {
    const cookie = `${cookieName(server.port)}=${cookieValue(TOKEN)}`
    const ws = new WebSocket(server.streamUrl, [PROTOCOL], { headers: { Cookie: cookie } })
    const seen: ServerMessage[] = []
    ws.on('message', (data) => seen.push(JSON.parse(data.toString()) as ServerMessage))
    await new Promise((resolve) => ws.once('open', resolve))
    ws.send(JSON.stringify({ type: 'hello', protocol: 1 }))
    ws.send(JSON.stringify({ type: 'watch-sessions', req: 'home' }))
    await waitFor('the first list', () => seen.some((m) => m.type === 'sessions'))
    const first = seen.find((m) => m.type === 'sessions')
    expect(first).toMatchObject({ req: 'home', roots: [{ path: expect.any(String), exists: true }] })
    expect(first?.type === 'sessions' && first.items.map((i) => i.sessionId)).toStrictEqual(['session-a'])
    const path = await sessionPath(root, 'session-b', false)
    await writeFile(path, headerText('session-b', { createdAt: 1_786_000_000_001 }) + '\n')
    await appendFile(
      path,
      JSON.stringify({ type: 'session/title', seq: 0, time: 1, data: { title: 'Second', messageSeqs: [] } }) + '\n',
    )
    await waitFor('the new session with its title', () =>
      seen.some((m) => m.type === 'sessions-changed' && m.items.some((i) => i.sessionId === 'session-b' && i.title === 'Second')),
    )
    const last = seen.filter((m) => m.type === 'sessions-changed').at(-1)
    expect(last?.type === 'sessions-changed' && last.scan).toStrictEqual({ scanned: 2, total: 2 })
    ws.close()
  })
})
