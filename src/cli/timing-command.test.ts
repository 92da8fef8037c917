/** `lens timing` and `lens check`'s timing line through a real child process: the contract's keys, the core's figures. */

import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, timingJson } from '../core/index.ts'
import { FIXTURE_DIR, fixturesAvailable } from '../test-support/shared-fixtures.ts'
import { formatMs, formatTotalsLine } from './timing-command.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const lens = (args: string[], input?: Buffer) => {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, input, encoding: 'utf8' })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const STEP_KEYS = [
  'turn',
  'step',
  'atSeq',
  'requestAt',
  'firstOutputAt',
  'lastOutputAt',
  'ttftMs',
  'generationMs',
  'outputTokens',
  'tokensPerSecond',
  'cacheHit',
  'tools',
  'retries',
]
const TOTALS_KEYS = [
  'turns',
  'steps',
  'modelMs',
  'toolMs',
  'ttftMedianMs',
  'ttftP95Ms',
  'tokensPerSecond',
  'cacheHit',
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'retries',
  'retryWaitMs',
]

describe.runIf(fixturesAvailable())('lens timing --json', () => {
  // A retried step, and parallel tool calls: both on clocks stitched from two recordings (so warned about).
  const retry = join(FIXTURE_DIR, 'acp--empty-response-retry--session.jsonl')
  const parallel = join(FIXTURE_DIR, 'acp--parallel-tool-calls--session.jsonl')

  it('prints the core timing with the contract keys in order', async () => {
    const { code, stdout } = lens(['timing', parallel, '--json'])
    expect(code).toBe(0)
    const json = JSON.parse(stdout) as { steps: Record<string, unknown>[]; totals: Record<string, unknown> }
    expect(Object.keys(json)).toStrictEqual(['steps', 'totals', 'warnings'])
    for (const step of json.steps) expect(Object.keys(step)).toStrictEqual(STEP_KEYS)
    expect(Object.keys(json.totals)).toStrictEqual(TOTALS_KEYS)
    // The two calls' spans each hold the stitched clock's step back (at seq 20): no durations, as the warning says.
    expect(json.steps[0]?.['tools']).toStrictEqual([
      { callId: 'call_read_a', name: 'read', ms: null },
      { callId: 'call_read_b', name: 'read', ms: null },
    ])
    const log = new LensLog({ checksum: await loadContentChecksum() })
    log.push(readFileSync(parallel))
    log.finish()
    expect(json).toStrictEqual(JSON.parse(JSON.stringify(timingJson(log))))
  })

  it('a retry with its wait; standard input with -', () => {
    const { code, stdout } = lens(['timing', '-', '--json'], readFileSync(retry))
    expect(code).toBe(0)
    const json = JSON.parse(stdout) as { steps: { retries: unknown }[]; totals: { retries: number; retryWaitMs: number } }
    expect(json.steps[0]?.retries).toStrictEqual([{ seq: 11, waitMs: 1 }])
    expect(json.totals).toMatchObject({ retries: 1, retryWaitMs: 1 })
  })

  it('check prints the totals in one line, with the clock warnings counted', async () => {
    const { stdout } = lens(['check', parallel])
    const lines = stdout.split('\n').filter((l) => l.startsWith('  timing '))
    const log = new LensLog({ checksum: await loadContentChecksum() })
    log.push(readFileSync(parallel))
    log.finish()
    const { totals, warnings } = timingJson(log)
    expect(lines).toStrictEqual([`  timing       ${formatTotalsLine(totals, warnings)}`])
    expect(lines[0]).toBe(
      '  timing       2 steps, model —, tools —, TTFT median — p95 —, — tok/s, cache hit —, tokens in 20 out 6 (clock: 6 backward, 10 zero)',
    )
  })

  it('exits 2 on a wrong command line', () => {
    for (const args of [
      ['timing', parallel],
      ['timing', '--json'],
      ['timing', parallel, parallel, '--json'],
      ['timing', parallel, '--json', '--at'],
    ]) {
      const result = lens(args)
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(/^dsh-lens: timing /)
    }
  })
})

describe('formatting', () => {
  it('durations read as ms, seconds, then minutes', () => {
    expect([formatMs(0), formatMs(999), formatMs(1000), formatMs(59_949), formatMs(61_000), formatMs(3_725_000)]).toStrictEqual([
      '0 ms',
      '999 ms',
      '1.0 s',
      '59.9 s',
      '1 min 1 s',
      '62 min 5 s',
    ])
  })
})
