/**
 * `dsh-lens diff A B` through a real child process: the JSON contract to the key on a small pair, the JSON equal to the
 * core's answer on generated twins (one of them zstd, packed), exit codes (0 equal, 1 differ, 2 bad input), the
 * report's first line, and runs named by session id or prefix under the dsh home.
 */

import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { writeZstdFrames } from '../bench/zstd-writer.ts'
import { compareSessions } from '../core/index.ts'
import { batchText, headerLine } from '../generate/index.ts'
import { LIST_FILES_TOTALS, listFilesRun, loadTwins, type RunWriter } from '../test-support/compare-kit.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const dir = mkdtempSync(join(tmpdir(), 'lens-diff-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function lens(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DSH_HOME: join(dir, 'no-home'), ...env },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** One turn: a prompt, an `ls` whose output is `result`, a final answer 'Done.'. */
const run = (tag: string, result: string, time: number): RunWriter => listFilesRun(tag, { result, time, final: 'Done.' })

function file(name: string, text: string | Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const same = { kind: 'same', text: 'a.txt\n', lines: 1, cut: 0 }
const removed = { kind: 'removed', text: 'b.txt', lines: 1, cut: 0 }
const added = { kind: 'added', text: 'c.txt', lines: 1, cut: 0 }
const textDiff = (index: number) => ({
  index,
  aSeq: 8,
  bSeq: 8,
  parts: [same, removed, added],
  removedLines: 1,
  addedLines: 1,
  beforeChars: 11,
  afterChars: 11,
  clipped: false,
})
const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: null, modelMs: 0, toolMs: 0, wallMs: 0 }
const totals = LIST_FILES_TOTALS

describe('lens diff', () => {
  const a = file('a.jsonl', run('a', 'a.txt\nb.txt', 1_790_000_000_000).text())
  const b = file('b.jsonl', run('b', 'a.txt\nc.txt', 1_790_000_100_000).text())
  const b2 = file('b2.jsonl', run('b2', 'a.txt\nb.txt', 1_790_000_200_000).text())

  it('--json: the contract, key by key, and exit 1 when the runs differ', () => {
    const out = lens(['diff', a, b, '--json'])
    expect(out.stderr).toBe('')
    expect(out.code).toBe(1)
    expect(JSON.parse(out.stdout)).toStrictEqual({
      fork: null,
      firstDivergence: {
        kind: 'tool-result',
        a: { seq: 8, turn: 1, step: 1 },
        b: { seq: 8, turn: 1, step: 1 },
        message: 'the same tool call came back different: the world differed (A seq 8, B seq 8)',
      },
      pairs: [
        {
          a: { turn: 1, step: 1, atSeq: 4 },
          b: { turn: 1, step: 1, atSeq: 4 },
          same: false,
          kinds: ['tool-result'],
          requestDiff: {
            firstDifference: null,
            appended: [],
            removed: [],
            replaced: [],
            headerChanged: [],
            firstMessage: null,
            output: { a: [6, 8], b: [6, 8], firstDifference: 1, firstMessage: textDiff(1) },
          },
          delta: zero,
        },
        {
          a: { turn: 1, step: 2, atSeq: 10 },
          b: { turn: 1, step: 2, atSeq: 10 },
          same: false,
          kinds: ['tool-result'],
          requestDiff: {
            firstDifference: 2,
            appended: [],
            removed: [],
            replaced: [{ a: [8], b: [8] }],
            headerChanged: [],
            firstMessage: textDiff(2),
            output: null,
          },
          delta: zero,
        },
      ],
      totals: { a: totals, b: totals },
    })
  })

  it('exits 0 for two runs equal once ids and times are left out; the report says so on its first line', () => {
    expect(lens(['diff', a, b2, '--json']).code).toBe(0)
    const report = lens(['diff', a, b2])
    expect(report.code).toBe(0)
    expect(report.stdout.split('\n')[0]).toBe(
      'A and B are the same run: 2 steps in 1 turn, every request and answer equal (ids and times aside)',
    )
    const differ = lens(['diff', a, b])
    expect(differ.code).toBe(1)
    expect(differ.stdout.split('\n')[0]).toBe(
      'A and B parted at turn 1 step 1: the same tool call came back different: the world differed (A seq 8, B seq 8)',
    )
    // Seqs and counts only: no message text reaches the terminal (a log may hold secrets).
    expect(differ.stdout).not.toContain('c.txt')
  })

  it('prints what the core answers, on generated twins (one zstd, packed) with a divergence', () => {
    const twins = loadTwins({
      session: {
        seed: 11,
        targetEvents: 700,
        compactionEveryTurns: 2,
        pruneEveryTurns: 2,
        pruneMinBytes: 200,
        toolResultMedianBytes: 400,
        toolResultMaxBytes: 3_000,
        hugeToolResultEvery: 0,
        stepsPerTurn: [1, 4],
        reasoningTokens: 6,
        textTokens: 10,
      },
      twinSeed: 5,
      divergence: { kind: 'surface-op', site: 1 },
    })
    const pathA = file('twin-a.jsonl', twins.textA)
    const pathB = join(dir, 'twin-b.jsonl.zst')
    writeZstdFrames([headerLine(twins.b.header), ...twins.b.batches.map(batchText)], pathB)
    const out = lens(['diff', pathA, pathB, '--json'])
    expect(out.code).toBe(1)
    const expected = JSON.parse(JSON.stringify(compareSessions(twins.logA, twins.logB)))
    expect(JSON.parse(out.stdout)).toStrictEqual(expected)
    expect(expected.firstDivergence).toMatchObject({ kind: twins.expected?.kind, a: twins.expected?.a, b: twins.expected?.b })
  })

  it('finds runs by session id or a unique prefix under the dsh home, and exits 2 naming every candidate of an ambiguous one', () => {
    const home = join(dir, 'home')
    const put = (tag: string, text: string) => {
      const session = join(home, 'sessions', '--w--', `session-${tag}`)
      mkdirSync(session, { recursive: true })
      writeFileSync(join(session, 'session.jsonl'), text)
    }
    put('a1b2c3d4-1111-4000-8000-000000000001', run('a1b2c3d4-1111-4000-8000-000000000001', 'a.txt\nb.txt', 1).text())
    put('a1b2c3d4-2222-4000-8000-000000000002', run('a1b2c3d4-2222-4000-8000-000000000002', 'a.txt\nc.txt', 2).text())
    const env = { DSH_HOME: home }
    const byId = lens(['diff', 'a1b2c3d4-1111', 'session-a1b2c3d4-2222-4000-8000-000000000002', '--json'], env)
    expect(byId.code).toBe(1)
    expect(JSON.parse(byId.stdout).firstDivergence.kind).toBe('tool-result')
    const ambiguous = lens(['diff', 'a1b2c3d4', a], env)
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toContain('"a1b2c3d4" matches 2 sessions')
    expect(ambiguous.stderr).toContain('  session-a1b2c3d4-1111-4000-8000-000000000001  ')
    expect(ambiguous.stderr).toContain('  session-a1b2c3d4-2222-4000-8000-000000000002  ')
    const unknown = lens(['diff', 'ffffffff9', a], env)
    expect(unknown).toMatchObject({ code: 2, stdout: '' })
    expect(unknown.stderr).toBe(`dsh-lens: no session under ${join(home, 'sessions')} has an id starting with "ffffffff9"\n`)
  })

  it('exits 2 on bad input, with one line saying why', () => {
    const png = file(
      'image.png',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]),
    )
    const cases: [string[], string][] = [
      [['diff', a, join(dir, 'missing.jsonl')], `dsh-lens: cannot read ${join(dir, 'missing.jsonl')}: no such file\n`],
      [['diff', a, png], `dsh-lens: ${png}: not a session log: this is a PNG image\n`],
      [
        ['diff', a, 'short'],
        'dsh-lens: "short" is not a file or directory, nor a session id (or a prefix of 8+ characters of one)\n',
      ],
    ]
    for (const [args, stderr] of cases) {
      const out = lens(args)
      expect(out, args.join(' ')).toMatchObject({ code: 2, stdout: '', stderr })
    }
    for (const args of [
      ['diff', a],
      ['diff', a, b, '--jsonl'],
      ['diff', '-', '-'],
    ]) {
      const out = lens(args)
      expect(out.code, args.join(' ')).toBe(2)
      expect(out.stderr.split('\n')[0]).toMatch(/^dsh-lens: diff /)
    }
  })
})
