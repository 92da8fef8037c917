/**
 * `lens check` and `lens fold --json` list the provider-invariant warnings with line, seq, code and
 * text, and a log whose only findings are those warnings still exits 0 (documented in docs/cli.md).
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures } from '../test-support/shared-fixtures.ts'
import type { FoldJson } from './fold-json.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const lens = (args: string[]) => {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const HEADER = '{"type":"session","version":0,"id":"s1","createdAt":1,"cwd":"/w","delegationDepth":0}'
const tmp = mkdtempSync(join(tmpdir(), 'lens-check-invariants-'))

describe('provider invariants in the CLI', () => {
  it('check lists a warning and exits 0 for a log the harness accepts with no other finding', () => {
    const file = join(tmp, 'surrogate.jsonl')
    const user =
      '{"type":"user/message","seq":0,"time":5,"data":{"id":"u0","role":"user","content":[{"type":"text","text":"a\\ud800"}],"source":{"kind":"user"}},"surfaceOp":"append"}'
    writeFileSync(file, [HEADER, user].join('\n') + '\n')
    const { code, stdout } = lens(['check', file])
    expect(stdout).toContain(
      'warning line 2, seq 0: [lone-surrogate] user/message holds a lone UTF-16 surrogate U+D800 in data.content[0].text at character 1',
    )
    expect(stdout).toContain('0 error(s), 1 warning(s) (1 provider invariant(s): listed, not counted in the exit code)')
    expect(stdout).toContain('accepted by the harness, with 1 warning(s)')
    expect(code).toBe(0)
  })

  it.runIf(fixturesAvailable())(
    'check lists the agent-instructions checkpoint at seq 17 with the compaction companion text',
    () => {
      const fixture = listFixtures().find((f) => f.name === 'acp--agent-instructions--session.jsonl')
      const { stdout } = lens(['check', fixture?.path ?? ''])
      expect(stdout).toContain(
        'warning line 19, seq 17: [compaction-invariant] invariant violated by "@deepseek-ai/dsh-compaction": compaction checkpoint has no matching compaction/start',
      )
    },
  )

  it('a log with a real defect besides the warnings still exits 1; fold --json carries the warnings', () => {
    const file = join(tmp, 'both.jsonl')
    const todo = '{"type":"todo/write","seq":0,"time":5,"data":{"todos":[]}}'
    writeFileSync(file, [HEADER, todo, 'garbage'].join('\n') + '\n')
    const check = lens(['check', file])
    expect(check.stdout).toContain(
      'warning line 2, seq 0: [session-invariant] invariant violated by "@deepseek-ai/dsh-session": todo/write appended outside any open turn (core execution events must be turn-enclosed)',
    )
    expect(check.code).toBe(1)
    const json = JSON.parse(lens(['fold', file, '--json']).stdout) as FoldJson
    expect(json.diagnostics.find((d) => d.code === 'session-invariant')).toMatchObject({ severity: 'warning', line: 2, seq: 0 })
  })
})
