/**
 * `usageReport` over sessions whose facts are known: a subagent of a subagent counts under the root session, a fork is
 * its own session, a subagent whose parent is elsewhere stands alone (said), and the total of any grouping is the sum
 * of the sessions' own costs.
 */

import { describe, expect, it } from 'vitest'
import { CostLogBuilder } from '../../test-support/cost-log-builder.ts'
import { beijing, TEST_CARD } from '../../test-support/cost-test-card.ts'
import { LensLog } from '../log/lens-log.ts'
import { costFactsOfLog } from './log-facts.ts'
import { sessionCost } from './session-cost.ts'
import { usageReport, type UsageGrouping, type UsageSession } from './usage-report.ts'

function session(id: string, header: Record<string, unknown>, local: string, input: number): UsageSession {
  const b = new CostLogBuilder(beijing(local), { id, cwd: '/w', ...header })
  b.turnStart()
  b.step({ inputTokens: input, outputTokens: 0 }, { prompt: 'x', header: { provider: 'p', model: 'm' } })
  b.turnEnd()
  const log = new LensLog()
  log.push(new TextEncoder().encode(b.jsonl()))
  log.finish()
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
    facts: costFactsOfLog(log),
  }
}

const SESSIONS = [
  session('root', {}, '2026-09-19 10:00:00', 100),
  session('sub', { parentSession: 'root', origin: 'subagent' }, '2026-09-19 10:01:00', 10),
  session('subsub', { parentSession: 'sub', origin: 'subagent' }, '2026-09-19 10:02:00', 1),
  session('fork', { parentSession: 'root' }, '2026-09-19 11:00:00', 1_000),
  session('orphan', { parentSession: 'elsewhere', origin: 'subagent' }, '2026-09-19 12:00:00', 10_000),
]

const report = (by: UsageGrouping, since: number | null = null) =>
  usageReport(SESSIONS, { by, since, bucketOf: () => 'one bucket', currency: 'USD', card: TEST_CARD })

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
    const own = SESSIONS.reduce((n, s) => n + sessionCost(s.facts, TEST_CARD, 'USD').totals.cost.total, 0)
    for (const by of ['day', 'week', 'month', 'project', 'model'] as const) {
      const r = report(by)
      expect(r.total.cost.total).toBe(own)
      expect(r.rows.reduce((n, row) => n + row.cost.total, 0)).toBe(own)
    }
    expect(report('day', beijing('2026-09-19 11:00:00')).total.cost.total).toBe(11_000)
  })
})
