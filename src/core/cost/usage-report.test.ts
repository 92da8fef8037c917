/**
 * `sessionUsage` and `usageReport` over sessions whose facts are known: a session's cells cost what `sessionCost` says
 * it costs; a subagent of a subagent counts under the root session, a fork is its own session, a subagent whose parent
 * is elsewhere stands alone (said); days, weeks (their Monday) and months are local, `since` is a local day, and the
 * total of any grouping is the sum of the sessions' own costs.
 */

import { describe, expect, it } from 'vitest'
import { generateSession, toJsonl } from '../../generate/index.ts'
import { CostLogBuilder } from '../../test-support/cost-log-builder.ts'
import { beijing, TEST_CARD } from '../../test-support/cost-test-card.ts'
import { LensLog } from '../log/lens-log.ts'
import type { CostFacts } from './cost-facts.ts'
import { compactionFactsOfLog, costFactsOfLog } from './log-facts.ts'
import type { RateCard } from './rate-card.ts'
import { RatePricer } from './rates-at.ts'
import { sessionCost } from './session-cost.ts'
import { sessionUsage, usageReport, type UsageGrouping, type UsageSession } from './usage-report.ts'

function load(jsonl: string): LensLog {
  const log = new LensLog()
  log.push(new TextEncoder().encode(jsonl))
  log.finish()
  return log
}

/** Local days in Beijing time (UTC+8), whatever the machine's zone. */
const beijingDay = (at: number): string => new Date(at + 8 * 3_600_000).toISOString().slice(0, 10)

const FACTS = new Map<string, CostFacts>()

function session(id: string, header: Record<string, unknown>, local: string, input: number): UsageSession {
  const b = new CostLogBuilder(beijing(local), { id, cwd: '/w', ...header })
  b.turnStart()
  b.step({ inputTokens: input, outputTokens: 0 }, { prompt: 'x', header: { provider: 'p', model: 'm' } })
  b.turnEnd()
  const facts = costFactsOfLog(load(b.jsonl()))
  FACTS.set(id, facts)
  return {
    path: `/root/--w--/${id}/session.jsonl`,
    project: '--w--',
    header: {
      id,
      parentSession: (header['parentSession'] as string) ?? null,
      origin: (header['origin'] as string) ?? null,
      cwd: '/w',
      createdAt: null,
      seedLength: 0,
    },
    usage: sessionUsage(facts, new RatePricer(TEST_CARD, 'USD'), beijingDay),
  }
}

// Off-peak all (a Saturday, a Sunday, a listed holiday): one per token.
const SESSIONS = [
  session('root', {}, '2026-09-19 10:00:00', 100),
  session('sub', { parentSession: 'root', origin: 'subagent' }, '2026-09-19 10:01:00', 10),
  session('subsub', { parentSession: 'sub', origin: 'subagent' }, '2026-09-19 23:59:59', 1),
  session('fork', { parentSession: 'root' }, '2026-09-20 11:00:00', 1_000),
  session('orphan', { parentSession: 'elsewhere', origin: 'subagent' }, '2026-10-01 12:00:00', 10_000),
]

const report = (by: UsageGrouping, since: string | null = null) =>
  usageReport(SESSIONS, { by, since, currency: 'USD', card: TEST_CARD })

const rows = (by: UsageGrouping, since: string | null = null) => report(by, since).rows.map((r) => [r.key, r.cost.total])

describe('usageReport', () => {
  it('counts a subagent (and its own subagents) under the root session, listed apart', () => {
    const r = report('project')
    expect(r.sessions.map((s) => [s.id, s.own.cost.total, s.total.cost.total, s.subagents.map((c) => c.id)])).toStrictEqual([
      // No creation time here: by path.
      ['fork', 1_000, 1_000, []],
      ['orphan', 10_000, 10_000, []],
      ['root', 100, 111, ['sub', 'subsub']],
    ])
    expect(r.total).toMatchObject({ sessions: 3, subagents: 2, steps: 5 })
    expect(r.notes).toStrictEqual(["1 subagent session's parent is not under this path: listed as sessions of their own"])
  })

  it('sums to the sessions own costs whatever the grouping', () => {
    const own = [...FACTS.values()].reduce((n, f) => n + sessionCost(f, TEST_CARD, 'USD').totals.cost.total, 0)
    for (const by of ['day', 'week', 'month', 'project', 'model'] as const) {
      const r = report(by)
      expect(r.total.cost.total).toBe(own)
      expect(r.rows.reduce((n, row) => n + row.cost.total, 0)).toBe(own)
    }
  })

  it('groups by local day, the Monday of the week, the month; since a local day', () => {
    expect(rows('day')).toStrictEqual([
      ['2026-09-19', 111],
      ['2026-09-20', 1_000],
      ['2026-10-01', 10_000],
    ])
    expect(rows('week')).toStrictEqual([
      ['2026-09-14', 1_111],
      ['2026-09-28', 10_000],
    ])
    expect(rows('month')).toStrictEqual([
      ['2026-09', 1_111],
      ['2026-10', 10_000],
    ])
    expect(rows('model')).toStrictEqual([['p/m', 11_111]])
    expect(rows('day', '2026-09-20')).toStrictEqual([
      ['2026-09-20', 1_000],
      ['2026-10-01', 10_000],
    ])
    expect(report('day', '2026-10-02').total).toMatchObject({ sessions: 0, steps: 0, tokens: null, cacheHit: null })
    // Only the sessions with calls since then are listed, and only such subagents.
    expect(report('day', '2026-09-20').sessions.map((s) => s.id)).toStrictEqual(['fork', 'orphan'])
    expect(
      report('day', '2026-09-19')
        .sessions.find((s) => s.id === 'root')
        ?.subagents.map((c) => c.id),
    ).toStrictEqual(['sub', 'subsub'])
  })
})

/** The generator's provider and model at the test card's rates (peak windows, a holiday). */
const GENERATED_CARD: RateCard = {
  ...TEST_CARD,
  rates: TEST_CARD.rates.map((r) => ({ ...r, provider: 'deepseek', model: 'deepseek-chat' })),
  renames: [],
}

describe('sessionUsage', () => {
  it("costs what sessionCost says, on a generated log's steps, retries, summaries and breaks", () => {
    const session = generateSession({
      seed: 37,
      targetEvents: 20_000,
      createdAt: Date.parse('2026-09-14T00:50:00Z'),
      retryEverySteps: 7,
      compactionEveryTurns: 5,
      pruneEveryTurns: 3,
      headerChangeEveryTurns: 4,
    })
    const log = load(toJsonl(session))
    const facts = costFactsOfLog(log)
    for (const currency of ['USD', 'CNY'] as const) {
      const cost = sessionCost(facts, GENERATED_CARD, currency, compactionFactsOfLog(log))
      const usage = sessionUsage(facts, new RatePricer(GENERATED_CARD, currency), beijingDay)
      const r = usageReport([{ path: '/x', project: 'p', header: null, usage }], {
        by: 'model',
        since: null,
        currency,
        card: GENERATED_CARD,
      })
      // Summed in another order: equal to float noise.
      const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.abs(b) * 1e-12)
      close(r.total.cost.total, cost.totals.cost.total)
      close(r.total.cost.input, cost.totals.cost.input)
      close(r.total.breakCost, cost.totals.breakCost)
      expect(r.total.breaks).toBe(cost.totals.breaks)
      expect(r.total.steps).toBe(cost.steps.length)
      expect(r.total.summaries).toBe(cost.summaries.length)
      expect(r.total.tokens).toStrictEqual(cost.totals.tokens)
      expect(cost.totals.breaks).toBeGreaterThan(0)
    }
  })

  it('keeps calls without a time in a day of their own, and names the unpriced', () => {
    const b = new CostLogBuilder(beijing('2026-09-14 10:00:00'), { id: 's', cwd: '/w' })
    b.turnStart()
    b.step({ inputTokens: 10, outputTokens: 1 }, { prompt: 'x', header: { provider: 'p', model: 'unknown' } })
    b.turnEnd()
    const usage = sessionUsage(costFactsOfLog(load(b.jsonl())), new RatePricer(TEST_CARD, 'USD'), beijingDay)
    expect(usage.unpriced).toStrictEqual([
      { provider: 'p', model: 'unknown', reason: 'no price for model unknown at provider p', calls: 1 },
    ])
    expect(usage.cells).toMatchObject([{ day: '2026-09-14', unpricedCalls: 1, costInput: 0, input: 10 }])
  })
})
