/**
 * `dsh-lens cost` through a real child process: the JSON contract of docs/cli.md exactly (toStrictEqual, amounts known
 * by construction with the test card's round rates), the human report, `check`'s cost line, `--currency`, `--rates`
 * and `DSH_LENS_RATES`, a model no card prices, and a malformed rates file refused with one sentence naming the line
 * and the field.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LensLog, logCost } from '../core/index.ts'
import { CostLogBuilder } from '../test-support/cost-log-builder.ts'
import { beijing, TEST_CARD, tokenCounts, usd } from '../test-support/cost-test-card.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const tmp = mkdtempSync(join(tmpdir(), 'lens-cost-'))

function lens(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DSH_LENS_RATES: '', ...env },
    maxBuffer: 64 << 20,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const RATES = join(tmp, 'test-card.json')
writeFileSync(RATES, JSON.stringify({ ...TEST_CARD, mode: 'replace' }, null, 2))

/** Monday 2026-09-14, 09:30 Beijing: peak (2 per miss, 0.2 per hit, 4 per output token in USD; seven times in CNY). */
function session(): { path: string; checkpoint: number; log: LensLog } {
  const b = new CostLogBuilder(beijing('2026-09-14 09:30:00'))
  b.turnStart()
  b.step({ inputTokens: 1_000, outputTokens: 100 }, { prompt: 'fix it', header: { provider: 'p', model: 'm' }, resultSize: 100 })
  b.step({ inputTokens: 500, cacheReadTokens: 1_000, outputTokens: 50, reasoningTokens: 20 }, { resultSize: 100 })
  const checkpoint = b.compaction(0, 2, 1_200, { inputTokens: 800, outputTokens: 40 })
  b.step({ inputTokens: 900, cacheReadTokens: 100, outputTokens: 30 })
  b.turnEnd()
  const path = join(tmp, 'session.jsonl')
  writeFileSync(path, b.jsonl())
  const log = new LensLog()
  log.push(new TextEncoder().encode(b.jsonl()))
  log.finish()
  return { path, checkpoint, log }
}

describe('dsh-lens cost --json', () => {
  it('answers the contract: every step, the compaction, the totals, priced at peak', () => {
    const { path, checkpoint, log } = session()
    const { code, stdout, stderr } = lens(['cost', path, '--json', '--currency', 'USD', '--rates', RATES])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    // What the summary's own few tokens leave of the 1,200 it took off: read from the core, everything else literal.
    const saved = (logCost(log, 'USD', TEST_CARD).compactions[0]?.savedPerStep ?? Number.NaN) as number
    const money = usd
    const tokens = tokenCounts
    expect(JSON.parse(stdout)).toStrictEqual({
      currency: 'USD',
      rateCard: { version: `test-1 (${RATES}, replacing the card)`, checked: '2026-12-01' },
      steps: [
        {
          turn: 1,
          step: 1,
          atSeq: 4,
          model: 'm',
          period: 'peak',
          tokens: tokens(1_000, 0, 100),
          cost: money(2_000, 0, 400),
          breakCost: null,
          breakCause: null,
        },
        {
          turn: 1,
          step: 2,
          atSeq: 13,
          model: 'm',
          period: 'peak',
          tokens: tokens(500, 1_000, 50, 20),
          cost: money(1_000, 200, 200),
          breakCost: null,
          breakCause: null,
        },
        {
          turn: 1,
          step: 3,
          atSeq: checkpoint + 3,
          model: 'm',
          period: 'peak',
          tokens: tokens(900, 100, 30),
          cost: money(1_800, 20, 120),
          // 1,500 of the previous prompt - 1,200 taken off - 100 read = 200 re-billed at 2 - 0.2.
          breakCost: 360,
          breakCause: `compaction summary (seq ${checkpoint})`,
        },
      ],
      compactions: [
        {
          seq: checkpoint,
          summaryCost: 1_760,
          breakCost: 360,
          savedPerStep: saved,
          paidBackAtStep: null,
          balance: saved - 2_120,
        },
      ],
      totals: {
        currency: 'USD',
        input: 6_400,
        cacheRead: 220,
        output: 880,
        total: 7_500,
        stepsCost: 5_740,
        summariesCost: 1_760,
        breakCost: 360,
        breaks: 1,
        tokens: tokens(3_200, 1_100, 220, 20),
        cacheHit: 1_100 / 4_300,
        byModel: [
          {
            provider: 'p',
            model: 'm',
            billedAs: [],
            steps: 3,
            summaries: 1,
            tokens: tokens(3_200, 1_100, 220, 20),
            cost: money(6_400, 220, 880),
          },
        ],
        byTurn: [{ turn: 1, steps: 3, total: 7_500, breakCost: 360 }],
        notes: [],
      },
      unpriced: [],
    })
    // CNY: the card's CNY rates (seven times these), not a conversion.
    const cny = JSON.parse(lens(['cost', path, '--json', '--rates', RATES]).stdout) as {
      currency: string
      totals: { total: number }
    }
    expect(cny.currency).toBe('CNY')
    expect(cny.totals.total).toBeCloseTo(7 * 7_500, 6)
  })

  it('keeps the tokens of a model no card prices, and says so', () => {
    const b = new CostLogBuilder(beijing('2026-09-14 09:30:00'))
    b.turnStart()
    b.step({ inputTokens: 10, outputTokens: 1 }, { prompt: 'x', header: { provider: 'local', model: 'qwen3' } })
    b.turnEnd()
    const path = join(tmp, 'local.jsonl')
    writeFileSync(path, b.jsonl())
    const json = JSON.parse(lens(['cost', path, '--json']).stdout) as {
      steps: { cost: unknown; tokens: unknown }[]
      unpriced: unknown
      totals: { notes: string[] }
    }
    expect(json.steps[0]?.cost).toBeNull()
    expect(json.steps[0]?.tokens).toStrictEqual({ input: 10, cacheRead: 0, cacheWrite: 0, output: 1, reasoning: null })
    expect(json.unpriced).toStrictEqual([{ model: 'qwen3', provider: 'local', steps: ['1.1'] }])
    expect(json.totals.notes).toStrictEqual(['no price for model qwen3 at provider local'])
  })
})

describe('dsh-lens cost, check, and rates files', () => {
  it('reports for people, and check prints the total in one line', () => {
    const { path } = session()
    const report = lens(['cost', path, '--rates', RATES, '--currency', 'USD']).stdout
    expect(report).toContain('  cost         $7500.00 (estimate, USD, rate card test-1')
    expect(report).toMatch(
      /compaction {3}seq \d+: cost \$2120\.00 \(summary \$1760\.00 \+ cache break \$360\.00\); not paid back: -\$\d+\.\d\d at the end/,
    )
    const check = lens(['check', path], { DSH_LENS_RATES: RATES })
    expect(check.stdout).toContain('  cost         ¥52500.00 / $7500.00 (an estimate, rate card test-1')
    expect(check.code).toBe(0)
    // --rates wins over DSH_LENS_RATES, for check as for cost.
    const flag = lens(['check', path, '--rates', RATES], { DSH_LENS_RATES: join(tmp, 'missing.json') })
    expect(flag.stdout.split('\n').find((l) => l.startsWith('  cost '))).toBe(
      check.stdout.split('\n').find((l) => l.startsWith('  cost ')),
    )
    expect(flag.code).toBe(0)
  })

  it('refuses a malformed rates file with one sentence naming the line and the field (exit 2)', () => {
    const bad = join(tmp, 'bad.json')
    const text = JSON.stringify(
      { ...TEST_CARD, rates: [{ ...TEST_CARD.rates[0], USD: { inputMiss: 'one', inputHit: 0, output: 0 } }] },
      null,
      2,
    )
    writeFileSync(bad, text)
    const { path } = session()
    const line = text.split('\n').findIndex((l) => l.includes('"inputMiss": "one"')) + 1
    expect(lens(['cost', path, '--rates', bad])).toStrictEqual({
      code: 2,
      stdout: '',
      stderr: `dsh-lens: ${bad} line ${line}: rates[0].USD.inputMiss must be a number ≥ 0 (per 1M tokens)\n`,
    })
    expect(lens(['cost', path], { DSH_LENS_RATES: join(tmp, 'missing.json') }).stderr).toBe(
      `dsh-lens: cannot read the rates file ${join(tmp, 'missing.json')} (DSH_LENS_RATES): no such file\n`,
    )
    expect(lens(['cost', path, '--currency', 'EUR']).stderr).toMatch(/^dsh-lens: --currency takes CNY or USD\n/)
  })
})
