/**
 * The CLI through a real child process: `fold --json` on the harness fixtures
 * equals the harness's answers, `--at` cuts the strict prefix, standard input
 * works, and `check` exits 0 / 1 / 2 as documented.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../test-support/shared-fixtures.ts'
import type { FoldJson } from './fold-json.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')

function lens(args: string[], input?: string | Buffer) {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, input, encoding: 'utf8', maxBuffer: 64 << 20 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const tmp = mkdtempSync(join(tmpdir(), 'lens-cli-'))
const HEADER = '{"type":"session","version":0,"id":"s1","createdAt":1,"cwd":"/w","delegationDepth":0}'
const user = (seq: number, extra = '') =>
  `{"type":"user/message","seq":${seq},"time":5,"data":{"id":"u${seq}","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"${extra}}`

describe('lens fold --json', () => {
  const available = fixturesAvailable()
  // A child process per fixture (tsx start-up each): on a busy machine that is minutes of work, not a hang.
  it.runIf(available)(
    'equals the harness on every fixture (one process per fixture, zstd included)',
    { timeout: 300_000 },
    () => {
      // A process per fixture is slow (tsx start-up), so every 8th plain fixture plus all zstd ones.
      const cases = [...listFixtures().filter((_, i) => i % 8 === 0), ...listZstdFixtures()]
      for (const fixture of cases) {
        const { code, stdout } = lens(['fold', fixture.path, '--json'])
        expect(code).toBe(0)
        const json = JSON.parse(stdout) as FoldJson
        expect(json.eventCount).toBe(fixture.expected.eventCount)
        expect(json.nodes).toStrictEqual(fixture.expected.nodes)
        expect(json.replacements).toStrictEqual(fixture.expected.replacements)
        expect(json.firstFoldError).toBeNull()
        if (fixture.expected.messageCount !== undefined) expect(json.messageCount).toBe(fixture.expected.messageCount)
        expect(json.format.encoding).toBe(fixture.path.endsWith('.zstd') ? 'zstd' : 'jsonl')
      }
    },
  )

  it('reports the first fold error and the strict results before it; --at cuts the prefix', () => {
    const file = join(tmp, 'bad.jsonl')
    writeFileSync(file, [HEADER, user(0), user(1), user(2, ',"sourceEventSeqs":[]'), user(3)].join('\n') + '\n')
    const full = JSON.parse(lens(['fold', file, '--json']).stdout) as FoldJson
    expect(full).toMatchObject({
      eventCount: 4,
      nodes: [0, 1],
      replacements: [],
      messageCount: 2,
      firstFoldError: { index: 2, seq: 2, message: 'sourceEventSeqs must not be empty except on assistant/message' },
      format: { encoding: 'jsonl', lines: 5, packedRows: 0, upgradedEvents: 0, header: { id: 's1' } },
    })
    expect(full.diagnostics).toStrictEqual([
      {
        severity: 'error',
        code: 'fold-violation',
        line: 4,
        seq: 2,
        message: 'sourceEventSeqs must not be empty except on assistant/message',
      },
    ])
    const at0 = JSON.parse(lens(['fold', file, '--json', '--at', '0']).stdout) as FoldJson
    expect(at0.nodes).toStrictEqual([0])
    expect(at0.messageCount).toBe(1)
  })

  it('reads standard input with -', () => {
    const { code, stdout } = lens(['fold', '-', '--json'], [HEADER, user(0)].join('\n') + '\n')
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as FoldJson).nodes).toStrictEqual([0])
  })
})

describe('lens check', () => {
  it('exit 0 for a clean log the harness accepts', () => {
    const file = join(tmp, 'ok.jsonl')
    writeFileSync(file, [HEADER, user(0)].join('\n') + '\n')
    const { code, stdout } = lens(['check', file])
    expect(code).toBe(0)
    expect(stdout).toContain('accepted by the harness')
  })

  it('exit 1 with every defect, its line and seq, for a rejected log', () => {
    const file = join(tmp, 'rejected.jsonl')
    writeFileSync(file, [HEADER, user(0), 'garbage', user(1, ',"surfaceOp":"x"')].join('\n') + '\n')
    const { code, stdout } = lens(['check', file])
    expect(code).toBe(1)
    expect(stdout).toContain('line 3: [line-invalid-json] corrupt session log: unparsable committed event at line 2')
    expect(stdout).toMatch(/REJECTED by the harness/)
  })

  it('a mistyped command is one, not a session id: exit 2, unknown command and the usage', () => {
    const { code, stderr } = lens(['flod', 'x.jsonl', '--json'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^dsh-lens: unknown command "flod"\nusage:/)
  })

  it('exit 2 when the file cannot be read, saying why', () => {
    const { code, stderr } = lens(['check', join(tmp, 'missing.jsonl')])
    expect(code).toBe(2)
    expect(stderr).toContain('no such file')
    expect(lens(['fold', tmp, '--json']).code).toBe(2)
    expect(lens(['bogus']).code).toBe(2)
  })

  it('exit 2 and one sentence, the viewer sentence, for a file that is no log at all: from every command, and stdin', () => {
    const png = join(tmp, 'screenshot.jsonl')
    writeFileSync(png, readFileSync(join(ROOT, 'public/screenshots/overview.png')))
    const refused = (where: string) => ({
      code: 2,
      stdout: '',
      stderr: `dsh-lens: ${where}: not a session log: this is a PNG image\n`,
    })
    for (const args of [
      ['check', png],
      ['fold', png, '--json'],
      ['search', png, 'x', '--json'],
      ['request', png, '--list', '--json'],
      ['slice', png, '--to', '0'],
    ])
      expect(lens(args), args[0]).toStrictEqual(refused(png))
    expect(lens(['check', '-'], readFileSync(png))).toStrictEqual(refused('standard input'))
  })

  it('names what a missing or odd value is, never "undefined": header fields, an event with no type or seq', () => {
    const file = join(tmp, 'odd.jsonl')
    writeFileSync(file, ['{"type":"session","version":"zero","id":7,"createdAt":1}', '42', '{"type":"x"}'].join('\n') + '\n')
    const { code, stdout } = lens(['check', file])
    expect(code).toBe(1)
    expect(stdout).toContain('  header       session 7 v"zero"\n')
    expect(stdout).toContain('  (no type)\n')
    expect(stdout).toContain('[unknown-event-type] event type "x" with no seq is unknown to harness')
    // The harness's own fold text prints the missing seq as it does (quoted verbatim: exact semantics).
    expect(stdout).toContain(
      '  verdict      REJECTED by the harness at event 0: session event seq undefined is not contiguous; expected 0\n',
    )
    const ours = stdout.split('\n').filter((l) => !/session event seq undefined is not contiguous|got undefined\)/.test(l))
    expect(ours.filter((l) => /\bundefined\b|\bNaN\b|\[object Object\]/.test(l))).toStrictEqual([])
  })

  it.runIf(fixturesAvailable())('a real fixture: counts by type and the replacement it holds', () => {
    const fixture = listFixtures().find((f) => f.name === 'acp--agent-instructions--session.jsonl')
    const { stdout } = lens(['check', fixture?.path ?? ''])
    expect(stdout).toContain('seq 17 replaced [5..5] shadowing 1 (summary workspace-context-fixture)')
    expect(stdout).toContain(
      `events       ${JSON.parse(readFileSync(fixture?.path.replace(/([^/]+)\.jsonl$/, 'expected/$1.json') ?? '', 'utf8')).eventCount}`,
    )
  })
})
