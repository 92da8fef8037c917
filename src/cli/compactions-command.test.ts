/** `lens compactions FILE --json` through a real child process: the contract's shape, and exit 2 for a wrong command line. */

import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURE_DIR, fixturesAvailable } from '../test-support/shared-fixtures.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const lens = (args: string[]) => {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8' })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('lens compactions', () => {
  it.runIf(fixturesAvailable())('prints every summary with what it forgot, keys in the contract order', () => {
    const result = lens(['compactions', join(FIXTURE_DIR, 'acp--agent-instructions--session.jsonl'), '--json'])
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(
      '[{"seq":17,"compactionId":"workspace-context-fixture","shadowedSeqs":[5],"summaryTokens":59,"removedTokens":227,' +
        '"forgot":{"files":[],"todos":[],"goal":null,"lastUserRequest":null,"unansweredCalls":[]}}]\n',
    )
  })

  it('exits 2 with the usage for a missing --json or FILE', () => {
    for (const args of [
      ['compactions', 'x.jsonl'],
      ['compactions', '--json'],
      ['compactions', 'a', 'b', '--json'],
    ]) {
      const result = lens(args)
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(/^dsh-lens: compactions /)
    }
  })
})
