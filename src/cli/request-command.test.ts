/**
 * `lens request` through a real child process: the contract's keys, --list, exit 2 for an unknown step, and the
 * provider rules a step's request breaks (`rejected`) on a copy of a real fixture with one tool result removed,
 * with `lens check`'s last line naming those steps.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dropEvent, firstToolResultSeq } from '../test-support/drop-event.ts'
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

  it('rejected: [] per step on the fixture as logged; the steps after a removed tool result name the rule', () => {
    const clean = JSON.parse(lens(['request', file, '--list', '--json']).stdout) as { steps: { rejected: unknown }[] }
    for (const step of clean.steps) expect(step.rejected).toStrictEqual([])
    const text = readFileSync(join(FIXTURE_DIR, 'acp--bash-tool-turn--session.jsonl'), 'utf8')
    const broken = join(mkdtempSync(join(tmpdir(), 'lens-request-')), 'broken.jsonl')
    writeFileSync(broken, dropEvent(text, firstToolResultSeq(text) as number))
    const list = JSON.parse(lens(['request', broken, '--list', '--json']).stdout) as { steps: Record<string, unknown>[] }
    expect(list.steps.map((s) => [`${String(s['turn'])}.${String(s['step'])}`, s['rejected']])).toStrictEqual([
      ['1.1', []],
      ['1.2', ['unanswered-tool-call']],
    ])
    expect(Object.keys(list.steps[1] as object)).toStrictEqual(['turn', 'step', 'atSeq', 'messageCount', 'usage', 'rejected'])
    const step = JSON.parse(lens(['request', broken, '--step', '1.2', '--json']).stdout) as { rejected: unknown }
    expect(step.rejected).toStrictEqual([
      {
        code: 'unanswered-tool-call',
        index: 2,
        seq: 64,
        message: 'tool call call_00_fkbBRJsUrGKd1pWVc4Gn8233 of message 2 (seq 64) has no tool result right after it',
      },
    ])
    const check = lens(['check', broken]).stdout.trimEnd().split('\n')
    expect(check.at(-1)).toBe('  requests     a provider would reject the requests of 1 of 2 step(s): 1.2 (unanswered-tool-call)')
    expect(lens(['check', file]).stdout.trimEnd().split('\n').at(-1)).toBe(
      "  requests     no step's request breaks a provider rule (3 step(s) checked)",
    )
  })
})
