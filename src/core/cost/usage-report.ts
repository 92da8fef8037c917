/**
 * Tokens and money over many sessions (`dsh-lens usage`, the sessions home's cost column). Each session's calls are
 * priced at their own instants once (`sessionUsage`: cells per local day and model, plain data a cache can keep per
 * file for a given card, currency and time zone), then `usageReport` sums the cells by day, week, month, project or
 * model, with the cache economics (hit share, what the breaks cost). A subagent's calls count under the session that
 * started it (its root ancestor through `parentSession`) and the subagent is listed apart; a fork is a session of its
 * own (its seed, the parent's calls, is not counted twice).
 */

import { addCounts, promptTokens, type CostFacts, type TokenCounts } from './cost-facts.ts'
import type { DigestHeader } from './cost-digest.ts'
import type { Currency, RateCard } from './rate-card.ts'
import type { RatePricer } from './rates-at.ts'
import { breakCostOf, breakTokensOf, priceTokens, type Money } from './session-cost.ts'

export type UsageGrouping = 'day' | 'week' | 'month' | 'project' | 'model'

/** The calls of one session on one local day with one model, summed. */
export interface UsageCell {
  /** Local date `YYYY-MM-DD`, or `no time` for calls whose log gives none. */
  readonly day: string
  readonly provider: string | null
  readonly model: string | null
  steps: number
  summaries: number
  /** Token sums over the calls that logged usage (`tokens` false: none did). */
  tokens: boolean
  input: number
  cacheRead: number
  cacheWrite: number
  output: number
  reasoning: number | null
  costInput: number
  costCacheRead: number
  costOutput: number
  breakCost: number
  breaks: number
  unpricedCalls: number
}

/** A session's calls priced: what a cache keeps per log file for one card, currency and time zone. */
export interface SessionUsage {
  readonly cells: UsageCell[]
  readonly unpriced: { readonly provider: string | null; readonly model: string | null; readonly reason: string; calls: number }[]
  /** Weekdays in years no holiday list of the card covers, priced as working days. */
  readonly uncovered: string[]
}

function emptyCell(day: string, provider: string | null, model: string | null): UsageCell {
  return {
    day,
    provider,
    model,
    steps: 0,
    summaries: 0,
    tokens: false,
    input: 0,
    cacheRead: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: null,
    costInput: 0,
    costCacheRead: 0,
    costOutput: 0,
    breakCost: 0,
    breaks: 0,
    unpricedCalls: 0,
  }
}

/**
 * Every call of a session (its steps with their retried attempts, its compactions' summary calls) priced at its own
 * instant, as `sessionCost` prices it, and summed per local day (`dayOf`) and model.
 */
export function sessionUsage(facts: CostFacts, pricer: RatePricer, dayOf: (at: number) => string): SessionUsage {
  const cells = new Map<string, UsageCell>()
  const unpriced = new Map<string, SessionUsage['unpriced'][number]>()
  const uncovered = new Set<string>()
  const add = (
    at: number | null,
    provider: string | null,
    model: string | null,
    tokens: TokenCounts | null,
    step: boolean,
    breakTokens: number | null,
    broke: boolean,
  ): void => {
    const day = at === null ? 'no time' : dayOf(at)
    const key = `${day}\u0000${provider}\u0000${model}`
    let c = cells.get(key)
    if (c === undefined) {
      c = emptyCell(day, provider, model)
      cells.set(key, c)
    }
    if (step) c.steps++
    else c.summaries++
    if (broke) c.breaks++
    const answer = pricer.at(provider, model, at)
    const priced = !('unpriced' in answer)
    if (priced && answer.uncoveredDate !== null) uncovered.add(answer.uncoveredDate)
    if (priced && breakTokens !== null) c.breakCost += breakCostOf(breakTokens, answer.rates)
    if (tokens === null) return
    c.tokens = true
    c.input += tokens.input
    c.cacheRead += tokens.cacheRead
    c.cacheWrite += tokens.cacheWrite
    c.output += tokens.output
    if (tokens.reasoning !== null) c.reasoning = (c.reasoning ?? 0) + tokens.reasoning
    if (priced) {
      const money = priceTokens(tokens, answer.rates, pricer.currency)
      c.costInput += money.input
      c.costCacheRead += money.cacheRead
      c.costOutput += money.output
      return
    }
    c.unpricedCalls++
    const k = `${provider}\u0000${model}\u0000${answer.unpriced}`
    const u = unpriced.get(k)
    if (u === undefined) unpriced.set(k, { provider, model, reason: answer.unpriced, calls: 1 })
    else u.calls++
  }
  for (const f of facts.steps) {
    const broke = f.breakCauses.length > 0
    add(f.at, f.provider, f.model, addCounts(f.usage, f.retried), true, broke ? breakTokensOf(f) : null, broke)
  }
  for (const f of facts.summaries) add(f.at, f.provider, f.model, f.usage, false, null, false)
  return { cells: [...cells.values()], unpriced: [...unpriced.values()], uncovered: [...uncovered].sort() }
}

export interface UsageSession {
  readonly path: string
  /** The project directory the session's directory is in (`--home-u-proj--`). */
  readonly project: string
  readonly header: DigestHeader | null
  readonly usage: SessionUsage
}

export interface UsageOptions {
  readonly by: UsageGrouping
  /** Only the calls of this local day (`YYYY-MM-DD`) and after; null: all. */
  readonly since: string | null
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
  readonly since: string | null
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

class Sum {
  readonly sessions = new Set<string>()
  readonly subagents = new Set<string>()
  private steps = 0
  private summaries = 0
  private hasTokens = false
  private input = 0
  private cacheRead = 0
  private cacheWrite = 0
  private output = 0
  private reasoning: number | null = null
  private costInput = 0
  private costCacheRead = 0
  private costOutput = 0
  private breakCost = 0
  private breaks = 0
  private unpricedCalls = 0

  constructor(private readonly currency: Currency) {}

  /** Steps and summary calls summed. */
  get calls(): number {
    return this.steps + this.summaries
  }

  add(c: UsageCell, session: string, subagent: boolean): void {
    ;(subagent ? this.subagents : this.sessions).add(session)
    this.steps += c.steps
    this.summaries += c.summaries
    this.hasTokens ||= c.tokens
    this.input += c.input
    this.cacheRead += c.cacheRead
    this.cacheWrite += c.cacheWrite
    this.output += c.output
    if (c.reasoning !== null) this.reasoning = (this.reasoning ?? 0) + c.reasoning
    this.costInput += c.costInput
    this.costCacheRead += c.costCacheRead
    this.costOutput += c.costOutput
    this.breakCost += c.breakCost
    this.breaks += c.breaks
    this.unpricedCalls += c.unpricedCalls
  }

  totals(): UsageTotals {
    const tokens = this.hasTokens
      ? {
          input: this.input,
          cacheRead: this.cacheRead,
          cacheWrite: this.cacheWrite,
          output: this.output,
          reasoning: this.reasoning,
        }
      : null
    const prompt = tokens === null ? 0 : promptTokens(tokens)
    return {
      sessions: this.sessions.size,
      subagents: this.subagents.size,
      steps: this.steps,
      summaries: this.summaries,
      tokens,
      cacheHit: tokens === null || prompt === 0 ? null : tokens.cacheRead / prompt,
      cost: {
        currency: this.currency,
        input: this.costInput,
        cacheRead: this.costCacheRead,
        output: this.costOutput,
        total: this.costInput + this.costCacheRead + this.costOutput,
      },
      breakCost: this.breakCost,
      breaks: this.breaks,
      unpricedCalls: this.unpricedCalls,
    }
  }
}

/** One session's own calls summed, as `usageReport` adds them (the sessions home's cost column, per session). */
export function sessionUsageTotals(usage: SessionUsage, currency: Currency, key = ''): UsageTotals {
  const sum = new Sum(currency)
  for (const cell of usage.cells) sum.add(cell, key, false)
  return sum.totals()
}

/** The Monday of a `YYYY-MM-DD` date (calendar arithmetic: the day is already local). */
function mondayOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7))
  return d.toISOString().slice(0, 10)
}

function rowKey(by: UsageGrouping, c: UsageCell, root: UsageSession): string {
  if (by === 'project') return root.project
  if (by === 'model') return `${c.provider ?? '?'}/${c.model ?? '?'}`
  if (c.day === 'no time') return c.day
  return by === 'month' ? c.day.slice(0, 7) : by === 'week' ? mondayOf(c.day) : c.day
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
  const uncovered = new Set<string>()
  let untimed = 0
  let orphans = 0
  for (const session of sessions) {
    const root = rootOf(session)
    const subagent = root !== session
    if (subagent) children.set(root, [...(children.get(root) ?? []), session])
    else if (session.header?.origin === 'subagent') orphans++
    const key = session.path
    // A session without calls counts, unless --since leaves it none.
    if (options.since === null) (subagent ? total.subagents : total.sessions).add(key)
    const mine = own.get(session) ?? new Sum(currency)
    own.set(session, mine)
    const tree = withSubagents.get(root) ?? new Sum(currency)
    withSubagents.set(root, tree)
    for (const cell of session.usage.cells) {
      if (options.since !== null && (cell.day === 'no time' || cell.day < options.since)) {
        if (cell.day === 'no time') untimed += cell.steps + cell.summaries
        continue
      }
      const row = rowKey(options.by, cell, root)
      let sum = rows.get(row)
      if (sum === undefined) rows.set(row, (sum = new Sum(currency)))
      sum.add(cell, key, subagent)
      total.add(cell, key, subagent)
      mine.add(cell, key, subagent)
      tree.add(cell, key, subagent)
    }
    // Reasons are per session and model, not per day: with --since, the calls before it are counted as well.
    for (const u of session.usage.unpriced) {
      const k = `${u.provider}\u0000${u.model}\u0000${u.reason}`
      const sum = unpriced.get(k) ?? { model: u.model, provider: u.provider, calls: 0, reason: u.reason }
      sum.calls += u.calls
      unpriced.set(k, sum)
    }
    for (const day of session.usage.uncovered) if (options.since === null || day >= options.since) uncovered.add(day)
  }
  const notes: string[] = []
  if (untimed > 0) notes.push(`${untimed} call${untimed === 1 ? '' : 's'} with no logged time left out by --since`)
  if (orphans > 0)
    notes.push(
      `${orphans} subagent session${orphans === 1 ? "'s" : "s'"} parent is not under this path: listed as sessions of their own`,
    )
  for (const u of unpriced.values()) notes.push(`${u.reason} (${u.calls} call${u.calls === 1 ? '' : 's'})`)
  if (uncovered.size > 0)
    notes.push(
      `${[...uncovered].sort().join(', ')}: on no holiday list of the card (it lists ${[...new Set(card.holidays.map((h) => h.year))].join(', ') || 'none'}): priced as working days`,
    )
  const sessionRows: UsageSessionRow[] = sessions
    .filter((s) => rootOf(s) === s && (options.since === null || (withSubagents.get(s) as Sum).calls > 0))
    .map((s) => ({
      id: s.header?.id ?? null,
      path: s.path,
      project: s.project,
      cwd: s.header?.cwd ?? null,
      createdAt: s.header?.createdAt ?? null,
      own: (own.get(s) as Sum).totals(),
      total: (withSubagents.get(s) as Sum).totals(),
      subagents: (children.get(s) ?? [])
        .filter((c) => options.since === null || (own.get(c) as Sum).calls > 0)
        .map((c) => ({ id: c.header?.id ?? null, path: c.path, own: (own.get(c) as Sum).totals() })),
    }))
    .sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0) || (a.path < b.path ? -1 : 1))
  const costliest = options.by === 'project' || options.by === 'model'
  return {
    currency,
    rateCard: { version: card.version, checked: card.checked },
    by: options.by,
    since: options.since,
    rows: [...rows]
      .map(([key, sum]) => ({ key, ...sum.totals() }))
      .sort((a, b) => (costliest ? b.cost.total - a.cost.total : 0) || (a.key < b.key ? -1 : 1)),
    total: total.totals(),
    sessions: sessionRows,
    unpriced: [...unpriced.values()],
    notes,
  }
}
