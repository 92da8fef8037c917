/**
 * What a session cost, read directly from its events and the rate card's JSON, written apart from src/core/cost: it
 * walks the expanded event list with plain scans, finds each step's request point, usage and header the way a person
 * reading the file would, tells peak from off-peak with the platform's own time-zone database (Intl, Asia/Shanghai),
 * and finds a break from the replacement events' own `sourceEventSeqs` (not from a fold). It says what `logCost` must
 * answer for every step, summary call and total; if the two ever disagree, one of them misreads the log or the card.
 */

type Event = Record<string, unknown>
type Rates = { inputMiss: number; inputHit: number; output: number; cacheWrite?: number }
type Card = {
  version: string
  holidays: { calendar: string; year: number; dates: string[] }[]
  rates: {
    provider: string
    model: string
    effectiveFrom: string
    until?: string
    peak?: { days: number[]; hours: [string, string][]; holidays: string | null }
    CNY?: Rates | { peak: Rates; offPeak: Rates }
    USD?: Rates | { peak: Rates; offPeak: Rates }
  }[]
  renames: { provider: string; from: string; to: string; effectiveFrom: string; until?: string }[]
}

export interface OracleStep {
  readonly label: string
  readonly atSeq: number
  readonly model: string | null
  readonly period: 'peak' | 'off-peak' | 'flat' | null
  readonly total: number | null
  readonly tokens: { input: number; cacheRead: number; cacheWrite: number; output: number } | null
  readonly breakCost: number | null
}

export interface OracleCost {
  readonly steps: OracleStep[]
  readonly summaries: { seq: number; total: number | null }[]
  readonly total: number
  readonly breakCost: number
}

const isObj = (v: unknown): v is Event => typeof v === 'object' && v !== null && !Array.isArray(v)
const dataOf = (e: Event): Event => (isObj(e['data']) ? e['data'] : {})
const timeOf = (e: Event | undefined): number | null => {
  const t = e?.['time']
  return typeof t === 'number' && Number.isSafeInteger(t) && t !== 0 ? t : null
}
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0)
const usageOf = (u: unknown) =>
  isObj(u)
    ? {
        input: num(u['inputTokens']),
        cacheRead: num(u['cacheReadTokens']),
        cacheWrite: num(u['cacheWriteTokens']),
        output: num(u['outputTokens']),
      }
    : null
const isOutput = (e: Event): boolean => e['type'] === 'assistant/chunk' || e['type'] === 'assistant/message'
const isUsageChunk = (e: Event): boolean =>
  e['type'] === 'assistant/chunk' && isObj(dataOf(e)['chunk']) && (dataOf(e)['chunk'] as Event)['type'] === 'usage'

const BEIJING = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Asia/Shanghai',
  hourCycle: 'h23',
  weekday: 'short',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
})
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

/** Beijing wall clock of an instant, from the time-zone database. */
function beijing(at: number): { weekday: number; date: string; minutes: number } {
  const parts = Object.fromEntries(BEIJING.formatToParts(new Date(at)).map((p) => [p.type, p.value]))
  return {
    weekday: WEEKDAYS.indexOf(parts['weekday'] as string) + 1,
    date: `${parts['year']}-${parts['month']}-${parts['day']}`,
    minutes: Number(parts['hour']) * 60 + Number(parts['minute']),
  }
}

const hhmm = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3))

function pick<T extends { effectiveFrom: string; until?: string }>(list: T[], at: number): T | undefined {
  const started = list
    .filter((r) => Date.parse(r.effectiveFrom) <= at)
    .sort((a, b) => Date.parse(b.effectiveFrom) - Date.parse(a.effectiveFrom))
  const row = started[0]
  return row !== undefined && (row.until === undefined || at < Date.parse(row.until)) ? row : undefined
}

/** Rates of one call, or null when the card has none. */
export function oracleRates(
  card: Card,
  provider: string | null,
  model: string | null,
  at: number | null,
  currency: 'CNY' | 'USD',
): { rates: Rates; period: 'peak' | 'off-peak' | 'flat' } | null {
  if (provider === null || model === null || at === null) return null
  let name = model
  for (let hop = 0; hop < 4; hop++) {
    const rename = pick(
      card.renames.filter((r) => r.provider === provider && r.from === name),
      at,
    )
    if (rename === undefined) break
    name = rename.to
  }
  const row = pick(
    card.rates.filter((r) => r.provider === provider && r.model === name),
    at,
  )
  const entry = row?.[currency]
  if (row === undefined || entry === undefined) return null
  if (row.peak === undefined) return { rates: entry as Rates, period: 'flat' }
  const clock = beijing(at)
  const holiday =
    row.peak.holidays !== null && card.holidays.some((h) => h.calendar === row.peak?.holidays && h.dates.includes(clock.date))
  const peak =
    row.peak.days.includes(clock.weekday) &&
    !holiday &&
    row.peak.hours.some(([a, b]) => clock.minutes >= hhmm(a) && clock.minutes < hhmm(b))
  const both = entry as { peak: Rates; offPeak: Rates }
  return { rates: peak ? both.peak : both.offPeak, period: peak ? 'peak' : 'off-peak' }
}

const price = (u: { input: number; cacheRead: number; cacheWrite: number; output: number }, r: Rates): number =>
  (u.input * r.inputMiss + u.cacheWrite * (r.cacheWrite ?? r.inputMiss) + u.cacheRead * r.inputHit + u.output * r.output) / 1e6

/** `events`: the log's body, packed rows expanded (eventsOfJsonl). */
export function directCost(events: readonly unknown[], card: Card, currency: 'CNY' | 'USD', seedLength = 0): OracleCost {
  const ev = events.map((e) => (isObj(e) ? e : {}))
  // Steps: inside an open turn, from step/start to step/end or the turn/end.
  const steps: { turn: number; step: number; start: number; end: number | null }[] = []
  let turn: { n: number; steps: typeof steps } | null = null
  ev.forEach((e, i) => {
    const d = dataOf(e)
    if (e['type'] === 'turn/start') turn = { n: typeof d['turn'] === 'number' ? d['turn'] : -1, steps: [] }
    else if (e['type'] === 'step/start' && turn !== null) {
      const s = { turn: turn.n, step: typeof d['step'] === 'number' ? d['step'] : -1, start: i, end: null }
      turn.steps.push(s)
      steps.push(s)
    } else if ((e['type'] === 'step/end' || e['type'] === 'turn/end') && turn !== null) {
      const last = turn.steps.at(-1)
      if (last !== undefined && last.end === null) last.end = i
      if (e['type'] === 'turn/end') turn = null
    }
  })
  const seqOf = (i: number): number => (typeof ev[i]?.['seq'] === 'number' ? (ev[i]?.['seq'] as number) : i)
  const points = steps.map((s) => {
    const end = s.end ?? ev.length - 1
    let first = -1
    for (let i = s.start + 1; i <= end; i++)
      if (isOutput(ev[i] as Event)) {
        first = i
        break
      }
    const at = first >= 0 ? first - 1 : end
    let message = -1
    for (let i = s.start + 1; i <= end; i++)
      if (
        ev[i]?.['type'] === 'assistant/message' &&
        ev[i]?.['surfaceOp'] !== undefined &&
        isObj(dataOf(ev[i] as Event)['usage'])
      ) {
        message = i
        break
      }
    const firstMessage = ev.slice(s.start + 1, end + 1).find((e) => e['type'] === 'assistant/message')
    const time =
      timeOf(ev[at]) ??
      (first >= 0 ? timeOf(ev[first]) : null) ??
      timeOf(firstMessage) ??
      (s.end === null ? null : timeOf(ev[s.end]))
    return { at, atSeq: seqOf(at), first, end, message, time }
  })
  const headerAt = (index: number): Event | null => {
    for (let i = index; i >= 0; i--)
      if (ev[i]?.['type'] === 'request/header')
        return isObj(dataOf(ev[i] as Event)['header']) ? (dataOf(ev[i] as Event)['header'] as Event) : null
    return null
  }
  const out: OracleStep[] = []
  let total = 0
  let breakTotal = 0
  let previousPrompt: number | null = null
  steps.forEach((s, k) => {
    const p = points[k] as (typeof points)[number]
    // Attempts: every llm/retry ends one, billed for its last usage chunk; the last one for the message's usage.
    const retries = ev.map((e, i) => (e['type'] === 'llm/retry' && i > s.start && i <= p.end ? i : -1)).filter((i) => i >= 0)
    const lastChunk = (from: number, to: number) => {
      let found = null
      for (let i = from + 1; i <= to; i++)
        if (isUsageChunk(ev[i] as Event)) found = usageOf((dataOf(ev[i] as Event)['chunk'] as Event)['usage'])
      return found
    }
    const final = p.message >= 0 ? usageOf(dataOf(ev[p.message] as Event)['usage']) : lastChunk(retries.at(-1) ?? s.start, p.end)
    const parts = [...retries.map((r, j) => lastChunk(j === 0 ? s.start : (retries[j - 1] as number), r)), final].filter(
      (u) => u !== null,
    )
    const tokens =
      parts.length === 0
        ? null
        : parts.reduce((a, b) => ({
            input: a.input + b.input,
            cacheRead: a.cacheRead + b.cacheRead,
            cacheWrite: a.cacheWrite + b.cacheWrite,
            output: a.output + b.output,
          }))
    const header = headerAt(p.at)
    const config = isObj(header?.['config']) ? (header['config'] as Event) : {}
    let provider = typeof config['provider'] === 'string' ? config['provider'] : null
    let model = typeof config['model'] === 'string' ? config['model'] : null
    if (provider === null || model === null) {
      const msg = ev.slice(s.start + 1, p.end + 1).find((e) => e['type'] === 'assistant/message')
      const source = isObj(dataOf(msg ?? {})['message'])
        ? ((dataOf(msg ?? {})['message'] as Event)['source'] as Event | undefined)
        : undefined
      provider = typeof source?.['provider'] === 'string' ? (source['provider'] as string) : null
      model = typeof source?.['model'] === 'string' ? (source['model'] as string) : null
    }
    const rates = oracleRates(card as Card, provider, model, p.time, currency)
    const cost = tokens === null || rates === null ? null : price(tokens, rates.rates)
    // A break: a replace event between the two requests whose sources reach back into the previous request, or a
    // header change of provider, model, system or tools.
    let breakCost: number | null = null
    const previous = k > 0 ? points[k - 1] : undefined
    if (previous !== undefined && s.start >= seedLength) {
      let removed = 0
      let broke = false
      for (let i = previous.at + 1; i <= p.at; i++) {
        const e = ev[i] as Event
        const op = e['surfaceOp']
        const sources = Array.isArray(e['sourceEventSeqs']) ? (e['sourceEventSeqs'] as number[]) : []
        if (!isObj(op) || op['op'] !== 'replace' || Math.min(...sources) > previous.atSeq) continue
        broke = true
        const source = dataOf(e)['source']
        const id = isObj(source) ? source['compactionId'] : undefined
        const announce =
          e['type'] === 'tool/result' && ev[i - 1]?.['type'] === 'compaction/prune'
            ? ev[i - 1]
            : typeof id === 'string'
              ? [...ev.slice(0, i)].reverse().find((x) => x['type'] === 'compaction/summary' && dataOf(x)['compactionId'] === id)
              : undefined
        const count = announce === undefined ? undefined : dataOf(announce)['shadowedTokenCount']
        removed += typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : 0
      }
      const before = headerAt(previous.at)
      const key = (h: Event | null) =>
        h === null
          ? null
          : JSON.stringify([
              (h['config'] as Event)?.['provider'],
              (h['config'] as Event)?.['model'],
              h['system'] === '' ? null : (h['system'] ?? null),
              Array.isArray(h['tools']) && h['tools'].length === 0 ? null : (h['tools'] ?? null),
            ])
      if (key(before) !== key(header)) broke = true
      if (broke && rates !== null && final !== null && previousPrompt !== null) {
        const tokensAgain = Math.min(final.input + final.cacheWrite, Math.max(0, previousPrompt - removed - final.cacheRead))
        breakCost = (tokensAgain * (rates.rates.inputMiss - rates.rates.inputHit)) / 1e6
        breakTotal += breakCost
      }
    }
    previousPrompt = final === null ? null : final.input + final.cacheRead + final.cacheWrite
    if (s.start < seedLength) return
    if (cost !== null) total += cost
    out.push({
      label: `${s.turn}.${s.step}`,
      atSeq: p.atSeq,
      model,
      period: rates?.period ?? null,
      total: cost,
      tokens,
      breakCost,
    })
  })
  const summaries = ev.flatMap((e, i) => {
    if (e['type'] !== 'compaction/summary' || typeof dataOf(e)['compactionId'] !== 'string' || i < seedLength) return []
    const d = dataOf(e)
    const usage = usageOf(d['usage'])
    const rates = oracleRates(
      card as Card,
      typeof d['provider'] === 'string' ? d['provider'] : null,
      typeof d['model'] === 'string' ? d['model'] : null,
      timeOf(e),
      currency,
    )
    const cost = usage === null || rates === null ? null : price(usage, rates.rates)
    if (cost !== null) total += cost
    return [{ seq: seqOf(i), total: cost }]
  })
  return { steps: out, summaries, total, breakCost: breakTotal }
}
