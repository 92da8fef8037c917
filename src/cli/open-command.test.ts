/**
 * `dsh-lens open`: the argument forms (nothing, a file, a session / project / sessions directory, a session id, a
 * prefix, an ambiguous prefix), the browser decision, and the command as a whole process: the one line it prints, the
 * sign-in it leads to, a missing build and an ambiguous prefix (exit 2, the candidates listed).
 */

import { spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { SessionListItem } from '../live/protocol.ts'
import { TailClient } from '../live/tail-client.ts'
import { headerText, waitFor, wsFactory } from '../test-support/live-test-kit.ts'
import { startStandInHost } from '../test-support/stand-in-dsh-host.ts'
import { OpenUsageError, browserDecision, parseOpenArgs } from './open-command.ts'
import { OpenTargetError, resolveOpenTarget } from './open-target.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const A = 'session-0b6f7c2e-1111-4c4c-9a9a-000000000001'
const B = 'session-0b6f7c2e-2222-4c4c-9a9a-000000000002'
const C = '7d0e4f1a-3333-4c4c-9a9a-000000000003'

let base: string
let home: string
let dist: string

async function writeSession(project: string, id: string): Promise<string> {
  const dir = join(home, project, id)
  await mkdir(dir, { recursive: true })
  const path = join(dir, 'session.jsonl')
  await writeFile(path, headerText(id) + '\n')
  return path
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'lens-open-'))
  home = join(base, 'dsh', 'sessions')
  dist = join(base, 'dist')
  await writeSession('--home-u-alpha--', A)
  await writeSession('--home-u-alpha--', B)
  await writeSession('--home-u-beta--', C)
  await mkdir(dist)
  await writeFile(join(dist, 'index.html'), '<!doctype html><html><head><title>t</title></head></html>')
})
afterAll(() => rm(base, { recursive: true, force: true }))

describe('open arguments', () => {
  test('flags and one target', () => {
    expect(parseOpenArgs([])).toStrictEqual({
      target: undefined,
      port: null,
      host: '127.0.0.1',
      open: true,
      distDir: undefined,
      dsh: undefined,
    })
    expect(parseOpenArgs(['x', '--port', '0', '--no-open', '--host', '::1'])).toStrictEqual({
      target: 'x',
      port: 0,
      host: '::1',
      open: false,
      distDir: undefined,
      dsh: undefined,
    })
    expect(() => parseOpenArgs(['a', 'b'])).toThrow(OpenUsageError)
    expect(() => parseOpenArgs(['--port', '70000'])).toThrow(OpenUsageError)
    expect(() => parseOpenArgs(['--bogus'])).toThrow(/unknown flag/)
  })

  test('--dsh [URL]: the URL is optional (a following target stays the target), checked as serve checks it', () => {
    expect(parseOpenArgs(['--dsh', '--no-open'])).toMatchObject({ dsh: 'http://127.0.0.1:3080', open: false })
    expect(parseOpenArgs(['--dsh', 'session-abc12345'])).toMatchObject({
      dsh: 'http://127.0.0.1:3080',
      target: 'session-abc12345',
    })
    expect(parseOpenArgs(['--dsh', 'http://localhost:4000', 'x'])).toMatchObject({ dsh: 'http://localhost:4000', target: 'x' })
    expect(() => parseOpenArgs(['--dsh', 'http://u:p@127.0.0.1:3080'])).toThrow(OpenUsageError)
  })

  test('what each target serves and opens', async () => {
    // Nothing: the home, even before it exists.
    expect(await resolveOpenTarget(undefined, home)).toStrictEqual({ roots: [home], sessionId: null, allowMissing: true })
    // A session file: served alone and opened at once.
    const file = join(home, '--home-u-beta--', C, 'session.jsonl')
    expect(await resolveOpenTarget(file, home)).toStrictEqual({ roots: [file], sessionId: C, allowMissing: false })
    // A session, project or sessions directory: served and listed.
    for (const dir of [join(home, '--home-u-beta--', C), join(home, '--home-u-alpha--'), home]) {
      expect(await resolveOpenTarget(dir, home)).toStrictEqual({ roots: [dir], sessionId: null, allowMissing: false })
    }
    // An id, a prefix of it, or of its uuid without `session-`: the home, with that session opened.
    for (const query of [A, A.slice(0, 24), '0b6f7c2e-1111', C.slice(0, 8)]) {
      const expected = query.startsWith('7d0e') ? C : A
      expect(await resolveOpenTarget(query, home)).toStrictEqual({ roots: [home], sessionId: expected, allowMissing: false })
    }
  })

  test('an ambiguous prefix lists the candidates; an unknown or short one says why', async () => {
    const ambiguous = await resolveOpenTarget('0b6f7c2e', home).catch((e: unknown) => e)
    expect(ambiguous).toBeInstanceOf(OpenTargetError)
    const message = (ambiguous as Error).message
    expect(message).toContain('matches 2 sessions')
    expect(message).toContain(A)
    expect(message).toContain(B)
    await expect(resolveOpenTarget('ffffffff-none', home)).rejects.toThrow(/no session under .* starting with "ffffffff-none"/)
    await expect(resolveOpenTarget('abc', home)).rejects.toThrow(/not a file or directory, nor a session id/)
  })

  test('the browser opens unless --no-open, BROWSER=none or no display', () => {
    const yes = { open: true }
    expect(browserDecision({ open: false }, { DISPLAY: ':0' }, 'linux')).toStrictEqual({ open: false, why: '--no-open' })
    expect(browserDecision(yes, { DISPLAY: ':0', BROWSER: 'none' }, 'linux')).toStrictEqual({ open: false, why: 'BROWSER=none' })
    expect(browserDecision(yes, {}, 'linux')).toStrictEqual({ open: false, why: 'no display' })
    expect(browserDecision(yes, { DISPLAY: '' }, 'linux')).toStrictEqual({ open: false, why: 'no display' })
    expect(browserDecision(yes, { DISPLAY: ':0' }, 'linux')).toStrictEqual({ open: true })
    expect(browserDecision(yes, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toStrictEqual({ open: true })
    expect(browserDecision(yes, { WSL_DISTRO_NAME: 'Debian' }, 'linux')).toStrictEqual({ open: true })
    expect(browserDecision(yes, {}, 'darwin')).toStrictEqual({ open: true })
  })
})

/** The CLI from its sources, as a process. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DSH_HOME: join(base, 'dsh'), BROWSER: 'none', ...env },
    encoding: 'utf8',
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('the open command as a process', () => {
  test('an ambiguous prefix: exit 2, the candidates on standard error', () => {
    const result = cli(['open', '0b6f7c2e', '--dist', dist])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`  ${A}  `)
    expect(result.stderr).toContain(`  ${B}  `)
  })

  test('a missing build: one line, exit 2', () => {
    const result = cli(['--no-open', '--dist', join(base, 'no-dist')])
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(/^dsh-lens: the viewer is not built .*npm run build/)
  })

  test('no command: serves the home, prints one URL that signs the browser in', async () => {
    const child = spawn(TSX, ['src/cli/main.ts', '--no-open', '--port', '0', '--dist', dist], {
      cwd: ROOT,
      env: { ...process.env, DSH_HOME: join(base, 'dsh'), BROWSER: 'none' },
    })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.setEncoding('utf8')
        child.stdout.on('data', (c: string) => {
          out += c
          if (out.includes('\n')) resolve(out.split('\n')[0] as string)
        })
        child.on('exit', (code) => reject(new Error(`exited ${code}`)))
      })
      const match = /^dsh-lens: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=[A-Za-z0-9_-]{43})$/.exec(line)
      expect(match, line).not.toBeNull()
      const url = new URL((match as RegExpExecArray)[1] as string)
      const status = await new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: Number(url.port), path: `${url.pathname}${url.search}` }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
          .on('error', reject)
          .end()
      })
      expect(status).toBe(303)
    } finally {
      child.kill('SIGTERM')
    }
  }, 60_000)

  test('--dsh URL --no-open: the same one line; the home lists the host sessions beside the files', async () => {
    const recorded = JSON.parse(
      await readFile(new URL('../server/dsh-web/recorded/notool-turn.json', import.meta.url), 'utf8'),
    ) as { sessionId: string; sessionList: unknown }
    const host = await startStandInHost()
    host.answer('session.list', () => ({ value: recorded.sessionList }))
    host.answer('subagent.list', () => ({ value: { entries: [], parentAvailable: true } }))
    const child = spawn(TSX, ['src/cli/main.ts', '--dsh', host.url, '--no-open', '--port', '0', '--dist', dist], {
      cwd: ROOT,
      env: { ...process.env, DSH_HOME: join(base, 'dsh'), BROWSER: 'none' },
    })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c))
    let client: TailClient | undefined
    try {
      await waitFor('the URL', () => out.includes('\n'), 30_000)
      const match = /^dsh-lens: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43}))\n$/.exec(out)
      expect(match, out).not.toBeNull()
      const [, , port, token] = match as RegExpExecArray
      await waitFor('the upstream line', () => err.includes('following dsh web at'), 30_000)
      expect(err).toContain(`dsh-lens: following dsh web at ${host.url.replace(/\/?$/, '/')} (reads only)`)
      client = new TailClient({ url: `ws://127.0.0.1:${port}/v1/stream`, token: token as string, webSocket: wsFactory() })
      const watched = new Map<string, SessionListItem>()
      client.watchSessions({
        onList: (items) => {
          watched.clear()
          for (const i of items) watched.set(i.path, i)
        },
        onChange: (items, removed) => {
          for (const path of removed) watched.delete(path)
          for (const i of items) watched.set(i.path, i)
        },
      })
      client.connect()
      // The host's list may come after the first answer (the link is still being made): wait for its row.
      await waitFor('the host session', () => watched.has(`dsh-web:${recorded.sessionId}`), 30_000)
      const sources = [...watched.values()].map((i) => [i.sessionId, i.source ?? 'file']).sort()
      expect(sources).toStrictEqual(
        [
          [A, 'file'],
          [B, 'file'],
          [C, 'file'],
          [recorded.sessionId, 'dsh-web'],
        ].sort(),
      )
      expect(out.split('\n')).toHaveLength(2)
    } finally {
      client?.close()
      child.kill('SIGTERM')
      await host.close()
    }
  }, 60_000)
})
