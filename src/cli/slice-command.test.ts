/**
 * `lens slice FILE --to SEQ` through a real child process: zstd in, plain JSONL out; the harness's fold of the output
 * (oracle foldSurface) equals `lens fold --json --at SEQ` of the input; a cut inside a packed row stays a valid row;
 * an unknown SEQ, a missing --to and an unreadable file exit 2.
 */

import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../test-support/harness-oracle.ts'
import { FIXTURE_DIR, fixturesAvailable } from '../test-support/shared-fixtures.ts'
import type { FoldJson } from './fold-json.ts'
import { eventsOfJsonl as eventsOf } from '../test-support/expanded-events.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')

function lens(args: string[], input?: string) {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, input, encoding: 'utf8', maxBuffer: 64 << 20 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe.runIf(fixturesAvailable())('lens slice', () => {
  const zstd = `${FIXTURE_DIR}zstd/acp--packed-chunks--session.jsonl.zstd`

  it('zstd input gives plain JSONL whose harness fold equals fold --at SEQ (cut inside a packed row)', () => {
    const full = lens(['fold', zstd, '--json'])
    const count = (JSON.parse(full.stdout) as FoldJson).eventCount
    for (const seq of [11, Math.floor(count / 2), count - 1]) {
      const { code, stdout, stderr } = lens(['slice', zstd, '--to', String(seq)])
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout.startsWith('{"type":"session"')).toBe(true)
      const events = eventsOf(stdout)
      expect(events.length).toBe(seq + 1)
      const at = JSON.parse(lens(['fold', zstd, '--json', '--at', String(seq)]).stdout) as FoldJson
      expect(harnessVerdict(events).nodes).toStrictEqual(at.nodes)
    }
    // seq 11 lies inside the first reasoning row (seq0 10): the row is re-encoded shorter, not copied whole.
    const cut = lens(['slice', zstd, '--to', '11']).stdout.trimEnd().split('\n').at(-1) as string
    expect(JSON.parse(cut)).toMatchObject({ seq0: 10, data: { dt: [expect.any(Number)] } })
  })

  it('exit 2 for an unknown seq, a missing --to, and an unreadable file', () => {
    expect(lens(['slice', zstd, '--to', '999999']).code).toBe(2)
    expect(lens(['slice', zstd]).code).toBe(2)
    expect(lens(['slice', '/nonexistent.jsonl', '--to', '1']).code).toBe(2)
  })
})
