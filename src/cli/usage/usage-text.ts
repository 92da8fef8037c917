/** `dsh-lens usage` as a table for people, and as the JSON of its contract (docs/cli.md). */

import { formatMoney, type Money, type UsageReport, type UsageTotals } from '../../core/index.ts'
import { amount, moneyJson } from '../cost-json.ts'

function totalsJson(t: UsageTotals) {
  return {
    sessions: t.sessions,
    subagents: t.subagents,
    steps: t.steps,
    summaries: t.summaries,
    tokens: t.tokens,
    cacheHit: t.cacheHit,
    cost: moneyJson(t.cost) as Money,
    breakCost: amount(t.breakCost),
    breaks: t.breaks,
    unpricedCalls: t.unpricedCalls,
  }
}

export function usageJson(root: string, r: UsageReport) {
  return {
    root,
    currency: r.currency,
    rateCard: r.rateCard,
    by: r.by,
    since: r.since,
    rows: r.rows.map((row) => ({ key: row.key, ...totalsJson(row) })),
    total: totalsJson(r.total),
    sessions: r.sessions.map((s) => ({
      id: s.id,
      path: s.path,
      project: s.project,
      cwd: s.cwd,
      createdAt: s.createdAt,
      own: totalsJson(s.own),
      total: totalsJson(s.total),
      subagents: s.subagents.map((c) => ({ id: c.id, path: c.path, own: totalsJson(c.own) })),
    })),
    unpriced: r.unpriced,
    notes: r.notes,
  }
}

const compact = (n: number): string =>
  n >= 1e9
    ? `${(n / 1e9).toFixed(1)}G`
    : n >= 1e6
      ? `${(n / 1e6).toFixed(1)}M`
      : n >= 1e4
        ? `${(n / 1e3).toFixed(1)}k`
        : String(n)

export function usageTable(root: string, r: UsageReport): string {
  const money = (n: number) => formatMoney(n, r.currency)
  const head = [r.by, 'sessions', 'steps', 'in (miss)', 'cache read', 'out', 'hit', 'breaks', 'cost']
  const line = (key: string, t: UsageTotals): string[] => [
    key,
    `${t.sessions}${t.subagents > 0 ? ` +${t.subagents}` : ''}`,
    String(t.steps + t.summaries),
    compact(t.tokens?.input ?? 0),
    compact(t.tokens?.cacheRead ?? 0),
    compact(t.tokens?.output ?? 0),
    t.cacheHit === null ? '—' : `${(t.cacheHit * 100).toFixed(1)}%`,
    `${t.breaks} ${money(t.breakCost)}`,
    money(t.cost.total) + (t.unpricedCalls > 0 ? ` (+${t.unpricedCalls} unpriced)` : ''),
  ]
  const rows = [head, ...r.rows.map((row) => line(row.key, row)), line('total', r.total)]
  const widths = head.map((_, i) => Math.max(...rows.map((row) => (row[i] as string).length)))
  const out = [
    `dsh-lens usage: ${root}, by ${r.by}${r.since === null ? '' : ` since ${r.since}`}, ${r.currency} (an estimate: rate card ${r.rateCard.version})`,
  ]
  rows.forEach((row, i) => {
    if (i === rows.length - 1) out.push(widths.map((w) => '-'.repeat(w)).join('  '))
    out.push(row.map((cell, k) => (k === 0 ? cell.padEnd(widths[k] as number) : cell.padStart(widths[k] as number))).join('  '))
  })
  out.push('sessions +subagents; steps include compaction summary calls; breaks: cache breaks and what they cost')
  for (const note of r.notes) out.push(`note: ${note}`)
  return out.join('\n') + '\n'
}
