/**
 * Tokens and money over many sessions (`dsh-lens usage`): every call of every session priced at its own instant, then
 * summed by day, week, month, project or model, with the cache economics (hit share, what the breaks cost). A
 * subagent's calls count under the session that started it (its root ancestor through `parentSession`) and the
 * subagent is listed apart; a fork is a session of its own (its seed, the parent's calls, is not counted twice).
 */

import { addCounts, promptTokens, type CostFacts, type TokenCounts } from './cost-facts.ts'
import type { DigestHeader } from './cost-digest.ts'
import type { Currency, RateCard } from './rate-card.ts'
import { addMoney, sessionCost, zeroMoney, type Money } from './session-cost.ts'

export type UsageGrouping = 'day' | 'week' | 'month' | 'project' | 'model'

export interface UsageSession {
  readonly path: string
  /** The project directory the session's directory is in (`--home-u-proj--`). */
  readonly project: string
  readonly header: DigestHeader | null
  readonly facts: CostFacts
}

export interface UsageOptions {
  readonly by: UsageGrouping
  /** Only calls at or after this instant (ms); null: all. */
  readonly since: number | null
  /** The day, week or month key of an instant, in the reader's time zone (`2026-09-14`, `2026-09`). */
  readonly bucketOf: (at: number) => string
  readonly currency: Currency
  readonly card: RateCard
}

export interface UsageTotals {
  readonly sessions: number
  readonly subagents: number
  readonly steps: number
  readonly summaries: number
  readonly tokens: TokenCounts | null
  /** Cache reads / every input token read. */
  readonly cacheHit: number | null
  readonly cost: Money
  readonly breakCost: number
  readonly breaks: number
  /** Calls with tokens and no price (the reasons are in `unpriced`). */
  readonly unpricedCalls: number
}

export interface UsageRow extends UsageTotals {
  readonly key: string
}

export interface UsageSessionRow {
  readonly id: string | null
  readonly path: string
  readonly project: string
  readonly cwd: string | null
  readonly createdAt: number | null
  /** This session's own calls. */
  readonly own: UsageTotals
  /** With its subagents' calls. */
  readonly total: UsageTotals
  readonly subagents: readonly { readonly id: string | null; readonly path: string; readonly own: UsageTotals }[]
}

export interface UsageReport {
  readonly currency: Currency
  readonly rateCard: { readonly version: string; readonly checked: string }
  readonly by: UsageGrouping
  readonly since: number | null
  readonly rows: readonly UsageRow[]
  readonly total: UsageTotals
  readonly sessions: readonly UsageSessionRow[]
  readonly unpriced: readonly {
    readonly model: string | null
    readonly provider: string | null
    readonly calls: number
    readonly reason: string
  }[]
  readonly notes: readonly string[]
}

/** One priced call (a step with its retried attempts, or a summary call). */
interface Call {
  readonly at: number | null
  readonly provider: string | null
  readonly model: string | null
  readonly tokens: TokenCounts | null
  readonly cost: Money | null
  readonly breakCost: number | null
  readonly broke: boolean
  readonly step: boolean
  readonly unpriced: string | null
}

class Sum {
  sessions = new Set<string>()
  subagents = new Set<string>()
  steps = 0
  summaries = 0
  tokens: TokenCounts | null = null
  cost: Money
  breakCost = 0
  breaks = 0
  unpricedCalls = 0

  constructor(currency: Currency) {
    this.cost = zeroMoney(currency)
  }

  add(call: Call, session: string, subagent: boolean): void {
    ;(subagent ? this.subagents : this.sessions).add(session)
    if (call.step) this.steps++
    else this.summaries++
    this.tokens = addCounts(this.tokens, call.tokens)
    this.cost = addMoney(this.cost, call.cost)
    if (call.broke) this.breaks++
    this.breakCost += call.breakCost ?? 0
    if (call.tokens !== null && call.cost === null) this.unpricedCalls++
  }

  totals(): UsageTotals {
    const prompt = this.tokens === null ? 0 : promptTokens(this.tokens)
    return {
      sessions: this.sessions.size,
      subagents: this.subagents.size,
      steps: this.steps,
      summaries: this.summaries,
      tokens: this.tokens,
      cacheHit: this.tokens === null || prompt === 0 ? null : this.tokens.cacheRead / prompt,
      cost: this.cost,
      breakCost: this.breakCost,
      breaks: this.breaks,
      unpricedCalls: this.unpricedCalls,
    }
  }
}

function callsOf(session: UsageSession, card: RateCard, currency: Currency): { calls: Call[]; notes: readonly string[] } {
  const cost = sessionCost(session.facts, card, currency)
  const calls: Call[] = cost.steps.map((s) => ({
    at: s.at,
    provider: s.provider,
    model: s.model,
    tokens: s.tokens,
    cost: s.cost,
    breakCost: s.breakCost,
    broke: s.breakCauses.length > 0,
    step: true,
    unpriced: s.tokens === null ? null : s.unpriced,
  }))
  for (const s of cost.summaries)
    calls.push({
      at: s.at,
      provider: s.provider,
      model: s.model,
      tokens: s.tokens,
      cost: s.cost,
      breakCost: null,
      broke: false,
      step: false,
      unpriced: s.tokens === null ? null : s.unpriced,
    })
  return { calls, notes: cost.notes }
}

export function usageReport(sessions: readonly UsageSession[], options: UsageOptions): UsageReport {
  const { currency, card } = options
  const byId = new Map<string, UsageSession>()
  for (const s of sessions) if (s.header?.id != null) byId.set(s.header.id, s)
  /** The session a subagent counts under: up through `parentSession` while the log is a subagent's. */
  const rootOf = (s: UsageSession): UsageSession => {
    let at = s
    for (let hop = 0; hop < 64 && at.header?.origin === 'subagent' && at.header.parentSession !== null; hop++) {
      const parent = byId.get(at.header.parentSession)
      if (parent === undefined || parent === s) break
      at = parent
    }
    return at
  }
  const rows = new Map<string, Sum>()
  const total = new Sum(currency)
  const own = new Map<UsageSession, Sum>()
  const withSubagents = new Map<UsageSession, Sum>()
  const children = new Map<UsageSession, UsageSession[]>()
  const unpriced = new Map<string, { model: string | null; provider: string | null; calls: number; reason: string }>()
  let untimed = 0
  let orphans = 0
  for (const session of sessions) {
    const root = rootOf(session)
    const subagent = root !== session
    if (subagent) children.set(root, [...(children.get(root) ?? []), session])
    else if (session.header?.origin === 'subagent') orphans++
    const key = session.path
    total[subagent ? 'subagents' : 'sessions'].add(key)
    const mine = own.get(session) ?? new Sum(currency)
    own.set(session, mine)
    const tree = withSubagents.get(root) ?? new Sum(currency)
    withSubagents.set(root, tree)
    for (const call of callsOf(session, card, currency).calls) {
      if (options.since !== null && (call.at === null || call.at < options.since)) {
        if (call.at === null) untimed++
        continue
      }
      const row =
        options.by === 'project'
          ? root.project
          : options.by === 'model'
            ? `${call.provider ?? '?'}/${call.model ?? '?'}`
            : call.at === null
              ? 'no time'
              : options.bucketOf(call.at)
      let sum = rows.get(row)
      if (sum === undefined) rows.set(row, (sum = new Sum(currency)))
      sum.add(call, key, subagent)
      total.add(call, key, subagent)
      mine.add(call, key, subagent)
      tree.add(call, key, subagent)
      if (call.unpriced !== null) {
        const k = `${call.provider}\u0000${call.model}\u0000${call.unpriced}`
        const u = unpriced.get(k) ?? { model: call.model, provider: call.provider, calls: 0, reason: call.unpriced }
        u.calls++
        unpriced.set(k, u)
      }
    }
  }
  const notes: string[] = []
  if (untimed > 0) notes.push(`${untimed} call${untimed === 1 ? '' : 's'} with no logged time left out by --since`)
  if (orphans > 0)
    notes.push(
      `${orphans} subagent session${orphans === 1 ? "'s" : "s'"} parent is not under this path: listed as sessions of their own`,
    )
  for (const u of unpriced.values()) notes.push(`${u.reason} (${u.calls} call${u.calls === 1 ? '' : 's'})`)
  const sessionRows: UsageSessionRow[] = sessions
    .filter((s) => rootOf(s) === s)
    .map((s) => ({
      id: s.header?.id ?? null,
      path: s.path,
      project: s.project,
      cwd: s.header?.cwd ?? null,
      createdAt: s.header?.createdAt ?? null,
      own: (own.get(s) as Sum).totals(),
      total: (withSubagents.get(s) as Sum).totals(),
      subagents: (children.get(s) ?? []).map((c) => ({
        id: c.header?.id ?? null,
        path: c.path,
        own: (own.get(c) as Sum).totals(),
      })),
    }))
    .sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0) || (a.path < b.path ? -1 : 1))
  return {
    currency,
    rateCard: { version: card.version, checked: card.checked },
    by: options.by,
    since: options.since,
    rows: [...rows]
      .map(([key, sum]) => ({ key, ...sum.totals() }))
      .sort((a, b) =>
        options.by === 'project' || options.by === 'model'
          ? b.cost.total - a.cost.total || (a.key < b.key ? -1 : 1)
          : a.key < b.key
            ? -1
            : 1,
      ),
    total: total.totals(),
    sessions: sessionRows,
    unpriced: [...unpriced.values()],
    notes,
  }
}
