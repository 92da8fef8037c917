/**
 * `dsh-lens find` and `dsh-lens index` as child processes, on a planted home (src/test-support/planted-home.ts):
 * find's JSON is exactly the documented shape; the index goes to XDG_CACHE_HOME; a bad query or option is one
 * sentence and exit 2; two processes indexing one home at once leave one whole index; a find while another process
 * writes answers from what is committed and says it may be behind.
 */

import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLANTED_AT, plantedEvents, writeCommonWordSession, writeSession } from '../test-support/planted-home.ts'
import { RANKED } from '../server/content-index/search-plan.ts'
import { parseWhen } from './find-command.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')

let dir = ''
let root = ''
let env: NodeJS.ProcessEnv = {}

function lens(args: string[], extraEnv: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

function lensAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()))
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lens-find-cli-'))
  root = join(dir, 'home', 'sessions')
  env = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache'), DSH_HOME: join(dir, 'home') }
  writeSession(root, { id: 'session-alpha', project: '/work/alpha', events: plantedEvents('alpha'), zstd: true })
  writeSession(root, { id: 'session-beta', project: '/work/beta', events: plantedEvents('beta', 1_786_100_000_000) })
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('dsh-lens find', () => {
  it('says on stderr when a page is newest first: the words are in too many events to rank', { timeout: 120_000 }, () => {
    const many = join(dir, 'many', 'sessions')
    writeCommonWordSession(many, RANKED)
    // Its own cache directory: the other tests count the index files in theirs.
    const cache = { XDG_CACHE_HOME: join(dir, 'many-cache') }
    const common = lens(['find', 'grep', many, '--json'], cache)
    expect(common.code).toBe(0)
    expect(common.stderr).toBe('dsh-lens: the words are in too many events to rank them all: sessions are listed newest first\n')
    expect((JSON.parse(common.stdout) as { sessions: unknown[] }).sessions).toHaveLength(1)
    // A filter that leaves few candidates: ranked by strength, nothing said.
    const failed = lens(['find', 'grep', many, '--json', '--failed'], cache)
    expect([failed.code, failed.stderr]).toStrictEqual([0, ''])
  })

  it(
    'prints exactly {query, indexed, sessions:[{id,title,project,hits}], next}, the index in XDG_CACHE_HOME',
    { timeout: 120_000 },
    () => {
      // No PATH: the dsh home's sessions (DSH_HOME).
      const { code, stdout, stderr } = lens(['find', 'PLANTFAIL', '--json', '--project', 'alpha'])
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(JSON.parse(stdout)).toStrictEqual({
        query: 'PLANTFAIL',
        indexed: { sessions: 2, events: 36, upToDate: true },
        sessions: [
          {
            id: 'session-alpha',
            title: 'please fix the PLANTUSER csv parser (alpha)',
            project: '/work/alpha',
            hits: [
              {
                seq: PLANTED_AT.failedResult,
                turn: 1,
                step: 1,
                type: 'tool/result',
                tool: 'bash',
                surface: 'shadowed',
                shadowedBy: PLANTED_AT.summary,
                snippet: 'grep: PLANTFAIL no such file',
              },
            ],
          },
        ],
        next: null,
      })
      expect(readdirSync(join(dir, 'cache', 'dsh-lens', 'content-index')).filter((f) => f.endsWith('.sqlite'))).toHaveLength(1)
      expect(existsSync(join(dir, 'home', 'content-index'))).toBe(false)
    },
  )

  it('takes the filters of the contract: --since, --tool, --failed, --surface, --limit and next', { timeout: 120_000 }, () => {
    const run = (args: string[]) =>
      JSON.parse(lens(['find', ...args, root, '--json']).stdout) as {
        sessions: Array<{ id: string; hits: Array<{ seq: number }> }>
        next: string | null
      }
    expect(run(['grep', '--tool', 'bash', '--failed']).sessions.map((s) => s.hits.map((h) => h.seq))).toStrictEqual([[5], [5]])
    expect(run(['parser', '--since', '2026-08-07']).sessions.map((s) => s.id)).toStrictEqual(['session-beta'])
    expect(run(['PLANTARG', '--surface', 'log-only']).sessions.flatMap((s) => s.hits.map((h) => h.seq))).toStrictEqual([4, 4])
    const first = run(['parser', '--limit', '1'])
    expect(first.sessions).toHaveLength(1)
    const second = run(['parser', '--limit', '1', '--next', first.next as string])
    expect(second.next).toBeNull()
    expect([...first.sessions, ...second.sessions].map((s) => s.id).sort()).toStrictEqual(['session-alpha', 'session-beta'])
  })

  it('answers a query it cannot run, or a wrong option, with one sentence and exit 2', { timeout: 120_000 }, () => {
    for (const [args, sentence] of [
      [['find', '', root, '--json'], 'dsh-lens: the query is empty: give a word or a phrase to search for'],
      [['find', '"()" -', root, '--json'], 'dsh-lens: the query ""()" -" has no word in it'],
      [['find', 'a\u0001b', root, '--json', '--surface', 'gone'], 'dsh-lens: --surface takes current, shadowed, log-only'],
      [['find', 'parser', root], 'dsh-lens: find prints JSON only: pass --json'],
      [['find', 'parser', root, '--json', '--since', 'yesterday'], 'dsh-lens: --since takes a date'],
    ] as const) {
      const { code, stdout, stderr } = lens([...args])
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr.startsWith(sentence)).toBe(true)
      // A query that cannot run is one line; a wrong command line adds the usage.
      if (sentence.includes('the query')) expect(stderr.split('\n')).toHaveLength(2)
      expect(stderr).not.toMatch(/SQLITE|Error:|\n\s+at /)
    }
  })
})

describe('dsh-lens index', () => {
  it('prints a progress line per tenth off a terminal, the summary, and rebuilds on --rebuild', { timeout: 120_000 }, () => {
    env = { ...env, XDG_CACHE_HOME: join(dir, 'cache-index') }
    const first = lens(['index', root])
    expect(first.code).toBe(0)
    const progress = first.stderr.split('\n').filter((l) => l.startsWith('dsh-lens: indexing: '))
    expect(progress[0]).toMatch(/^dsh-lens: indexing: 0\/2 sessions, 0\.0 MB of [\d.]+ MB \(0%\)$/)
    expect(progress.at(-1)).toMatch(/^dsh-lens: indexing: 2\/2 sessions, .* \(100%\)$/)
    expect(first.stdout).toMatch(
      /^indexed 2 sessions \(36 events, 16 searchable\) in [\d.]+ s: 2 read, 0 grown, 0 removed, 0 unchanged\nindex: .*\.sqlite\n$/,
    )
    const again = lens(['index', root, '--rebuild'])
    expect(again.code).toBe(0)
    expect(again.stderr).toMatch(/^dsh-lens: the content index at .* was rebuilt: a rebuild was asked for$/m)
    expect(again.stdout).toMatch(/: 2 read, 0 grown, 0 removed, 0 unchanged\n/)
    expect(lens(['index', root, '--fast']).stderr.startsWith('dsh-lens: unknown option --fast')).toBe(true)
  })
})

describe('two processes on one home', () => {
  it('index at once: one writes, the other waits; the index holds each session once', { timeout: 180_000 }, async () => {
    const cache = join(dir, 'cache-two')
    env = { ...env, XDG_CACHE_HOME: cache }
    const [a, b] = await Promise.all([lensAsync(['index', root, '--json']), lensAsync(['index', root, '--json'])])
    expect([a.code, b.code]).toStrictEqual([0, 0])
    const reports = [a, b].map(
      (r) => JSON.parse(r.stdout) as { sessions: number; documents: number; read: number; unchanged: number },
    )
    for (const r of reports) expect(r).toMatchObject({ sessions: 2, documents: 2 * 8 })
    // One of them read both logs; the other found them indexed.
    expect(reports.map((r) => r.read).sort()).toStrictEqual([0, 2])
    const found = JSON.parse(lens(['find', 'PLANTUSER', root, '--json']).stdout) as { sessions: Array<{ hits: unknown[] }> }
    expect(found.sessions.map((s) => s.hits.length)).toStrictEqual([1, 1])
  })

  it('find while another process writes: answers from what is committed and says so', { timeout: 180_000 }, async () => {
    const cache = join(dir, 'cache-busy')
    env = { ...env, XDG_CACHE_HOME: cache }
    expect(lens(['index', root]).code).toBe(0)
    // Hold the writer lock from another process, as a long index run would.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const fs = require('fs'); const dir = ${JSON.stringify(join(cache, 'dsh-lens', 'content-index'))};
         const lock = fs.readdirSync(dir).find((f) => f.endsWith('.lock')); const db = new D(dir + '/' + lock);
         db.exec('BEGIN IMMEDIATE'); db.exec('CREATE TABLE IF NOT EXISTS held (pid INTEGER)'); console.log('held'); setTimeout(() => {}, 60000)`,
      ],
      { cwd: ROOT },
    )
    try {
      await new Promise<void>((done) => holder.stdout.once('data', () => done()))
      const { code, stdout, stderr } = await lensAsync(['find', 'PLANTUSER', root, '--json'])
      expect(code).toBe(0)
      expect(stderr).toContain('another dsh-lens is updating the content index')
      const json = JSON.parse(stdout) as { indexed: { upToDate: boolean }; sessions: unknown[] }
      expect(json.indexed.upToDate).toBe(false)
      expect(json.sessions).toHaveLength(2)
    } finally {
      holder.kill()
    }
  })
})

describe('--since and --until', () => {
  it('take a local date, a date and time, or an age', () => {
    const now = Date.UTC(2026, 11, 7, 12)
    expect(parseWhen('--since', '2026-12-01', now)).toBe(new Date(2026, 11, 1).getTime())
    expect(parseWhen('--until', '2026-12-01', now, true)).toBe(new Date(2026, 11, 2).getTime() - 1)
    expect(parseWhen('--since', '2026-12-01T14:30', now)).toBe(new Date(2026, 11, 1, 14, 30).getTime())
    expect(parseWhen('--since', '7d', now)).toBe(now - 7 * 86_400_000)
    expect(parseWhen('--since', '90m', now)).toBe(now - 90 * 60_000)
    expect(() => parseWhen('--since', 'last week', now)).toThrow('--since takes a date')
  })
})
