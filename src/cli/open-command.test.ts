/**
 * `dsh-lens open`: the argument forms (nothing, a file, a session / project / sessions directory, a session id, a
 * prefix, an ambiguous prefix), the browser decision, and the command as a whole process: the one line it prints, the
 * sign-in it leads to, a missing build and an ambiguous prefix (exit 2, the candidates listed).
 */

import { spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { headerText } from '../server/live-test-kit.ts'
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
    expect(parseOpenArgs([])).toStrictEqual({ target: undefined, port: null, host: '127.0.0.1', open: true, distDir: undefined })
    expect(parseOpenArgs(['x', '--port', '0', '--no-open', '--host', '::1'])).toStrictEqual({
      target: 'x',
      port: 0,
      host: '::1',
      open: false,
      distDir: undefined,
    })
    expect(() => parseOpenArgs(['a', 'b'])).toThrow(OpenUsageError)
    expect(() => parseOpenArgs(['--port', '70000'])).toThrow(OpenUsageError)
    expect(() => parseOpenArgs(['--bogus'])).toThrow(/unknown flag/)
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
})
