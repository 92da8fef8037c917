/**
 * `dsh-lens usage` through a real child process, over a sessions root built for the test: the JSON contract of
 * docs/cli.md exactly (amounts known by construction with the test card's round rates), a subagent under its session
 * and listed apart, the groupings and --since; and the cache: owner-only in the user's cache directory, a warm run
 * that reads no log, a grown log read on from where it stopped (with the answer of a cold run), a damaged index rebuilt
 * with one line, never a cache under the dsh home.
 */

import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CostLogBuilder } from '../../test-support/cost-log-builder.ts'
import { beijing, TEST_CARD, tokenCounts, usd } from '../../test-support/cost-test-card.ts'
import { zstdFrame } from '../../test-support/zstd-frames.ts'

const ROOT = new URL('../../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')

function lens(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    // Days in Beijing time, whatever the machine's zone.
    env: { ...process.env, DSH_LENS_RATES: '', TZ: 'Asia/Shanghai', ...env },
    maxBuffer: 64 << 20,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const HEADER = { provider: 'p', model: 'm' }

/**
 * A home of two projects: session-a (two steps at peak on Monday 2026-09-14, 3,200) with a subagent (one step, 1,040);
 * session-b (a zstd log, one step off-peak at 08:00 on Tuesday, 1,500).
 */
function home(): { dir: string; root: string; rates: string; grow: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'lens-usage-'))
  const root = join(dir, 'dsh', 'sessions')
  const a = new CostLogBuilder(beijing('2026-09-14 10:00:00'), { id: 'session-a', cwd: '/w/a' })
  a.turnStart()
  a.step({ inputTokens: 1_000, outputTokens: 100 }, { prompt: 'fix it', header: HEADER })
  a.step({ inputTokens: 200, cacheReadTokens: 1_000, outputTokens: 50 })
  a.turnEnd()
  const child = new CostLogBuilder(beijing('2026-09-14 10:05:00'), {
    id: 'child-1',
    cwd: '/w/a',
    parentSession: 'session-a',
    origin: 'subagent',
    delegationDepth: 1,
  })
  child.turnStart()
  child.step({ inputTokens: 500, outputTokens: 10 }, { prompt: 'look', header: HEADER })
  child.turnEnd()
  const b = new CostLogBuilder(beijing('2026-09-15 08:00:00'), { id: 'session-b', cwd: '/w/b' })
  b.turnStart()
  b.step({ inputTokens: 1_000, cacheReadTokens: 3_000, outputTokens: 100 }, { prompt: 'go', header: HEADER })
  b.turnEnd()
  const write = (project: string, session: string, text: string | Uint8Array, name = 'session.jsonl') => {
    mkdirSync(join(root, project, session), { recursive: true })
    writeFileSync(join(root, project, session, name), text)
  }
  write('--w-a--', 'session-a', a.jsonl())
  write('--w-a--', 'child-1', child.jsonl())
  write('--w-b--', 'session-b', zstdFrame(b.jsonl()), 'session.jsonl.zstd')
  const rates = join(dir, 'rates.json')
  writeFileSync(rates, JSON.stringify({ ...TEST_CARD, mode: 'replace' }))
  const grow = () => {
    // Session a's next turn, at 10:30 (peak): one more step of 500 in, 1,500 read, 20 out: 1,000 + 300 + 80.
    const more = new CostLogBuilder(beijing('2026-09-14 10:30:00'))
    more.events.push(...a.events)
    more.at(beijing('2026-09-14 10:30:00')).turnStart()
    more.step({ inputTokens: 500, cacheReadTokens: 1_500, outputTokens: 20 }, { prompt: 'and this' })
    more.turnEnd()
    appendFileSync(
      join(root, '--w-a--', 'session-a', 'session.jsonl'),
      more
        .jsonl()
        .split('\n')
        .slice(1 + a.events.length)
        .join('\n'),
    )
  }
  return { dir, root, rates, grow }
}

const money = usd
const tokens = tokenCounts
const totals = (
  sessions: number,
  subagents: number,
  steps: number,
  t: ReturnType<typeof tokens>,
  cost: ReturnType<typeof money>,
) => ({
  sessions,
  subagents,
  steps,
  summaries: 0,
  tokens: t,
  cacheHit: t.cacheRead / (t.input + t.cacheRead),
  cost,
  breakCost: 0,
  breaks: 0,
  unpricedCalls: 0,
})

describe('dsh-lens usage --json', () => {
  it('answers the contract: rows, total, sessions with their subagents apart', () => {
    const h = home()
    const env = { XDG_CACHE_HOME: join(h.dir, 'cache'), DSH_HOME: join(h.dir, 'dsh') }
    const { code, stdout, stderr } = lens(['usage', '--json', '--by', 'project', '--currency', 'USD', '--rates', h.rates], env)
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const a = totals(1, 0, 2, tokens(1_200, 1_000, 150), money(2_400, 200, 600))
    const child = totals(0, 1, 1, tokens(500, 0, 10), money(1_000, 0, 40))
    const b = totals(1, 0, 1, tokens(1_000, 3_000, 100), money(1_000, 300, 200))
    const projectA = totals(1, 1, 3, tokens(1_700, 1_000, 160), money(3_400, 200, 640))
    expect(JSON.parse(stdout)).toStrictEqual({
      root: h.root,
      currency: 'USD',
      rateCard: { version: `test-1 (${h.rates}, replacing the card)`, checked: '2026-12-01' },
      by: 'project',
      since: null,
      rows: [
        { key: '--w-a--', ...projectA },
        { key: '--w-b--', ...b },
      ],
      total: totals(2, 1, 4, tokens(2_700, 4_000, 260), money(4_400, 500, 840)),
      sessions: [
        {
          id: 'session-b',
          path: join(h.root, '--w-b--', 'session-b', 'session.jsonl.zstd'),
          project: '--w-b--',
          cwd: '/w/b',
          createdAt: beijing('2026-09-15 08:00:00'),
          own: b,
          total: b,
          subagents: [],
        },
        {
          id: 'session-a',
          path: join(h.root, '--w-a--', 'session-a', 'session.jsonl'),
          project: '--w-a--',
          cwd: '/w/a',
          createdAt: beijing('2026-09-14 10:00:00'),
          own: a,
          total: projectA,
          subagents: [{ id: 'child-1', path: join(h.root, '--w-a--', 'child-1', 'session.jsonl'), own: child }],
        },
      ],
      unpriced: [],
      notes: [],
    })
  })

  it('groups by day, week, month and model, from --since on (a local day), from the dsh home by default', () => {
    const h = home()
    const env = { XDG_CACHE_HOME: join(h.dir, 'cache'), DSH_HOME: join(h.dir, 'dsh') }
    const keys = (by: string, ...more: string[]) =>
      (
        JSON.parse(lens(['usage', '--json', '--by', by, '--currency', 'USD', '--rates', h.rates, ...more], env).stdout) as {
          rows: { key: string; cost: { total: number } }[]
        }
      ).rows.map((r) => [r.key, r.cost.total])
    expect(keys('day')).toStrictEqual([
      ['2026-09-14', 4_240],
      ['2026-09-15', 1_500],
    ])
    expect(keys('week')).toStrictEqual([['2026-09-14', 5_740]])
    expect(keys('month')).toStrictEqual([['2026-09', 5_740]])
    expect(keys('model')).toStrictEqual([['p/m', 5_740]])
    expect(keys('day', '--since', '2026-09-15')).toStrictEqual([['2026-09-15', 1_500]])
    expect(lens(['usage', '--since', 'yesterday'], env).stderr).toMatch(/^dsh-lens: --since takes a date, YYYY-MM-DD/)
    expect(lens(['usage', join(h.dir, 'nowhere')], env)).toMatchObject({
      code: 2,
      stderr: `dsh-lens: cannot read ${join(h.dir, 'nowhere')}: no such file or directory\n`,
    })
    const table = lens(['usage', '--currency', 'USD', '--rates', h.rates], env).stdout
    expect(table.split('\n').slice(0, 5)).toStrictEqual([
      `dsh-lens usage: ${h.root}, by day, USD (an estimate: rate card test-1 (${h.rates}, replacing the card))`,
      'day         sessions  steps  in (miss)  cache read  out    hit   breaks      cost',
      '2026-09-14      1 +1      3       1700        1000  160  37.0%  0 $0.00  $4240.00',
      '2026-09-15         1      1       1000        3000  100  75.0%  0 $0.00  $1500.00',
      '----------  --------  -----  ---------  ----------  ---  -----  -------  --------',
    ])
    expect(table).toContain('\ntotal           2 +1      4       2700        4000  260  59.7%  0 $0.00  $5740.00\n')
  })
})

describe('the usage cache', () => {
  it('is owner-only, read warm without reading a log, and read on where a log grew', () => {
    const h = home()
    const cache = join(h.dir, 'cache')
    const env = { XDG_CACHE_HOME: cache, DSH_HOME: join(h.dir, 'dsh'), DSH_LENS_TRACE_USAGE: '1' }
    const args = ['usage', '--json', '--currency', 'USD', '--rates', h.rates]
    const cold = lens(args, env)
    expect(cold.stderr).toBe(
      'dsh-lens: usage read 3 logs from the start and 0 on from where they stopped (' +
        cold.stderr.match(/\((\d+) bytes\)/)?.[1] +
        ' bytes), 0 priced again from kept facts, 0 from the cache\n',
    )
    const dir = join(cache, 'dsh-lens', 'usage-v2')
    const [hash] = readdirSync(dir)
    const root = join(dir, hash as string)
    for (const d of [join(cache, 'dsh-lens'), dir, root, join(root, 'state'), join(root, 'facts')])
      expect(statSync(d).mode & 0o777).toBe(0o700)
    expect(statSync(join(root, 'index.json')).mode & 0o777).toBe(0o600)
    for (const sub of ['state', 'facts']) {
      expect(readdirSync(join(root, sub))).toHaveLength(3)
      for (const f of readdirSync(join(root, sub))) expect(statSync(join(root, sub, f)).mode & 0o777).toBe(0o600)
    }
    const warm = lens(args, env)
    expect(warm.stderr).toBe(
      'dsh-lens: usage read 0 logs from the start and 0 on from where they stopped (0 bytes), 0 priced again from kept facts, 3 from the cache\n',
    )
    expect(warm.stdout).toBe(cold.stdout)
    h.grow()
    const grown = lens(args, env)
    expect(grown.stderr).toMatch(
      /^dsh-lens: usage read 0 logs from the start and 1 on from where they stopped \(\d+ bytes\), 0 priced again from kept facts, 2 from the cache\n$/,
    )
    const total = (out: string) => (JSON.parse(out) as { total: { cost: { total: number }; steps: number } }).total
    expect([total(grown.stdout).steps, total(grown.stdout).cost.total]).toStrictEqual([5, 5_740 + 1_380])
    // A cold run from an empty cache gives the same answer as reading on.
    expect(lens(args, { ...env, XDG_CACHE_HOME: join(h.dir, 'cold') }).stdout).toBe(grown.stdout)
  })

  it('prices again from the kept facts, reading no log, when the currency, card or time zone changes', () => {
    const h = home()
    const cache = join(h.dir, 'cache')
    const env = { XDG_CACHE_HOME: cache, DSH_HOME: join(h.dir, 'dsh'), DSH_LENS_TRACE_USAGE: '1' }
    const trace = (repriced: number, cached: number) =>
      `dsh-lens: usage read 0 logs from the start and 0 on from where they stopped (0 bytes), ${repriced} priced again from kept facts, ${cached} from the cache\n`
    const usd = ['usage', '--json', '--by', 'day', '--currency', 'USD', '--rates', h.rates]
    const cny = ['usage', '--json', '--by', 'day', '--currency', 'CNY', '--rates', h.rates]
    lens(usd, env)
    const cnyRun = lens(cny, env)
    expect(cnyRun.stderr).toBe(trace(3, 0))
    expect(lens(cny, { ...env, XDG_CACHE_HOME: join(h.dir, 'cold') }).stdout).toBe(cnyRun.stdout)
    expect(lens(cny, env).stderr).toBe(trace(0, 3))
    // Another zone: other local days, priced again.
    const utc = lens(cny, { ...env, TZ: 'UTC' })
    expect(utc.stderr).toBe(trace(3, 0))
    expect(utc.stdout).toBe(lens(cny, { ...env, TZ: 'UTC', XDG_CACHE_HOME: join(h.dir, 'cold-utc') }).stdout)
    // Another card.
    const rates2 = join(h.dir, 'rates-2.json')
    writeFileSync(rates2, JSON.stringify({ ...TEST_CARD, version: 'test-2', mode: 'replace' }))
    expect(lens([...cny.slice(0, -1), rates2], { ...env, TZ: 'UTC' }).stderr).toBe(trace(3, 0))
    // A damaged facts file: they come again from the collector's state kept beside them (no byte of the log read).
    const dir = join(cache, 'dsh-lens', 'usage-v2')
    const facts = join(dir, readdirSync(dir)[0] as string, 'facts')
    writeFileSync(join(facts, readdirSync(facts)[0] as string), '{"models":')
    const again = lens(usd, env)
    expect(again.stderr).toBe(
      'dsh-lens: usage read 0 logs from the start and 1 on from where they stopped (0 bytes), 2 priced again from kept facts, 0 from the cache\n',
    )
    expect(again.stdout).toBe(lens(usd, { ...env, XDG_CACHE_HOME: join(h.dir, 'cold-usd') }).stdout)
  })

  it('is rebuilt, said in one line, when its index is damaged', () => {
    const h = home()
    const cache = join(h.dir, 'cache')
    const env = { XDG_CACHE_HOME: cache, DSH_HOME: join(h.dir, 'dsh') }
    const first = lens(['usage', '--json', '--rates', h.rates], env)
    const dir = join(cache, 'dsh-lens', 'usage-v2')
    const index = join(dir, readdirSync(dir)[0] as string, 'index.json')
    writeFileSync(index, '{"schema":1,"root":')
    const again = lens(['usage', '--json', '--rates', h.rates], env)
    expect(again.stderr).toBe(`dsh-lens: the usage cache was damaged (${index} is not JSON): rebuilding it\n`)
    expect(again.stdout).toBe(first.stdout)
    expect(lens(['usage', '--json', '--rates', h.rates], env).stderr).toBe('')
  })

  it('is never written under the dsh home', () => {
    const h = home()
    const inside = join(h.dir, 'dsh', 'cache')
    const run = lens(['usage', '--json', '--rates', h.rates], { XDG_CACHE_HOME: inside, DSH_HOME: join(h.dir, 'dsh') })
    expect(run.code).toBe(0)
    expect(run.stderr).toBe(
      `dsh-lens: the cache directory ${join(inside, 'dsh-lens')} is under the dsh home or ${h.root}: not writing a usage cache there\n`,
    )
    expect(readdirSync(join(h.dir, 'dsh'))).toStrictEqual(['sessions'])
  })
})
