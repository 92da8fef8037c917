/** `lens request` through a real child process: the contract's keys, --list, and exit 2 for an unknown step. */

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

describe.runIf(fixturesAvailable())('lens request', () => {
  // The fixture with a hand-authored compact replace of seq 5 by seq 17 (format reference §4.3).
  const file = join(FIXTURE_DIR, 'acp--agent-instructions--session.jsonl')

  it('--list gives every step; --step gives the request with its diff, keys in the contract order', () => {
    const list = lens(['request', file, '--list', '--json'])
    expect(list.code).toBe(0)
    const { steps } = JSON.parse(list.stdout) as { steps: { turn: number; step: number; messageCount: number }[] }
    expect(steps.length).toBeGreaterThan(1)
    const second = steps[1] as { turn: number; step: number; messageCount: number }
    const one = lens(['request', file, '--step', `${second.turn}.${second.step}`, '--json'])
    expect(one.code).toBe(0)
    const json = JSON.parse(one.stdout) as Record<string, unknown> & { messages: unknown[]; diff: Record<string, unknown> }
    expect(Object.keys(json).slice(0, 8)).toStrictEqual([
      'turn',
      'step',
      'atSeq',
      'header',
      'messages',
      'skippedNodes',
      'usage',
      'diff',
    ])
    expect(Object.keys(json.diff).slice(0, 7)).toStrictEqual([
      'previous',
      'firstDifference',
      'appended',
      'removed',
      'replacedBy',
      'headerChanged',
      'tokensBeforeFirstDifference',
    ])
    expect(json.messages.length).toBe(second.messageCount)
    expect(json.diff['replacedBy']).toStrictEqual([{ seq: 17, shadowedSeqs: [5] }])
  })

  it('exits 2 with one line for an unknown or malformed step', () => {
    for (const step of ['99.1', 'x']) {
      const result = lens(['request', file, '--step', step, '--json'])
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(/^dsh-lens: /)
    }
  })
})
