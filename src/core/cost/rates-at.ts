/**
 * What a call cost per 1M tokens at one instant: the model as billed then (a retired name billed as its successor),
 * the card's version in force, and the period (peak, off-peak, or flat for a version without peak windows) in the
 * version's own local time. Or, when the card cannot price it, why, in one sentence: never a made-up price.
 */

import {
  instantMs,
  minutesOf,
  offsetMinutes,
  type Currency,
  type HolidayYear,
  type PeakWindows,
  type RateCard,
  type RateRow,
  type Rates,
  type Rename,
} from './rate-card.ts'

export type Period = 'peak' | 'off-peak' | 'flat'

export interface PeriodAt {
  readonly period: 'peak' | 'off-peak'
  /** The local date (`YYYY-MM-DD`) when the windows say peak on a weekday whose year no holiday list covers. */
  readonly uncoveredDate: string | null
}

const DAY_MS = 86_400_000

/** Peak windows with their times in minutes and their offset parsed once per card row (priced per step). */
interface Compiled {
  readonly offsetMs: number
  readonly days: readonly boolean[]
  readonly windows: readonly (readonly [number, number])[]
}

const compiled = new WeakMap<PeakWindows, Compiled>()

function compile(peak: PeakWindows): Compiled {
  let c = compiled.get(peak)
  if (c === undefined) {
    const days = Array.from({ length: 8 }, (_, d) => peak.days.includes(d))
    c = {
      offsetMs: offsetMinutes(peak.timeZone) * 60_000,
      days,
      windows: peak.hours.map(([from, to]) => [minutesOf(from), minutesOf(to)] as const),
    }
    compiled.set(peak, c)
  }
  return c
}

/**
 * Peak or off-peak at instant `at` (ms): a listed weekday, not a listed holiday, inside a `[from, to)` window of local
 * wall-clock time. A day in a year no holiday list of the calendar covers is priced as a working day, and said.
 */
export function periodAt(peak: PeakWindows, at: number, holidays: readonly HolidayYear[]): PeriodAt {
  const { offsetMs, days, windows } = compile(peak)
  const local = at + offsetMs
  const weekday = ((((Math.floor(local / DAY_MS) + 3) % 7) + 7) % 7) + 1 // 1970-01-01 was a Thursday (ISO 4).
  if (days[weekday] !== true) return { period: 'off-peak', uncoveredDate: null }
  const minute = Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / 60_000)
  if (!windows.some(([from, to]) => minute >= from && minute < to)) return { period: 'off-peak', uncoveredDate: null }
  if (peak.holidays === null) return { period: 'peak', uncoveredDate: null }
  const date = new Date(local).toISOString().slice(0, 10)
  const year = Number(date.slice(0, 4))
  const list = holidays.find((h) => h.calendar === peak.holidays && h.year === year)
  if (list === undefined) return { period: 'peak', uncoveredDate: date }
  return { period: list.dates.includes(date) ? 'off-peak' : 'peak', uncoveredDate: null }
}

export interface PricedAt {
  readonly billedModel: string
  /** The version's `effectiveFrom`: the rate version used. */
  readonly version: string
  readonly period: Period
  readonly rates: Rates
  readonly uncoveredDate: string | null
}

export interface UnpricedAt {
  /** One sentence: why the card has no price for this call. */
  readonly unpriced: string
}

interface Indexed<T> {
  readonly row: T
  readonly from: number
  readonly until: number
}

interface CardIndex {
  readonly rows: Map<string, Indexed<RateRow>[]>
  readonly renames: Map<string, Indexed<Rename>[]>
}

const indexes = new WeakMap<RateCard, CardIndex>()
const keyOf = (provider: string, model: string): string => `${provider}\u0000${model}`

/** Sorted versions per key; each runs until the next one starts (or its own `until`). */
function spans<T extends { effectiveFrom: string; until?: string }>(
  list: readonly T[],
  key: (t: T) => string,
): Map<string, Indexed<T>[]> {
  const out = new Map<string, Indexed<T>[]>()
  for (const row of list) {
    const k = key(row)
    out.set(k, [
      ...(out.get(k) ?? []),
      { row, from: instantMs(row.effectiveFrom), until: row.until === undefined ? Infinity : instantMs(row.until) },
    ])
  }
  for (const versions of out.values()) {
    versions.sort((a, b) => a.from - b.from)
    for (let i = 0; i + 1 < versions.length; i++) {
      const next = versions[i + 1] as Indexed<T>
      const cur = versions[i] as Indexed<T>
      if (next.from < cur.until) versions[i] = { ...cur, until: next.from }
    }
  }
  return out
}

function indexOf(card: RateCard): CardIndex {
  let index = indexes.get(card)
  if (index === undefined) {
    index = {
      rows: spans(card.rates, (r) => keyOf(r.provider, r.model)),
      renames: spans(card.renames, (r) => keyOf(r.provider, r.from)),
    }
    indexes.set(card, index)
  }
  return index
}

function inForce<T>(versions: readonly Indexed<T>[] | undefined, at: number): T | undefined {
  if (versions === undefined) return undefined
  for (let i = versions.length - 1; i >= 0; i--) {
    const v = versions[i] as Indexed<T>
    if (v.from <= at) return at < v.until ? v.row : undefined
  }
  return undefined
}

const day = (at: number): string => new Date(at).toISOString().slice(0, 16).replace('T', ' ') + ' UTC'

/** The model a name is billed as at `at`, through renames (a few hops at most: a chain of retirements). */
export function billedModelAt(card: RateCard, provider: string, model: string, at: number): string {
  let name = model
  for (let hop = 0; hop < 4; hop++) {
    const rename = inForce(indexOf(card).renames.get(keyOf(provider, name)), at)
    if (rename === undefined) break
    name = rename.to
  }
  return name
}

/**
 * The rates of a call of `model` at `provider` at instant `at` in `currency`, or why there are none: in a sentence
 * that names the card's spans, not the call's time, so the calls of one cause say it alike (and are listed together).
 */
export function ratesAt(
  card: RateCard,
  provider: string | null,
  model: string | null,
  at: number | null,
  currency: Currency,
): PricedAt | UnpricedAt {
  if (provider === null || model === null) return { unpriced: 'the log does not say which model answered' }
  if (at === null) return { unpriced: `no time is logged for the call, so no version of the card applies` }
  const billedModel = billedModelAt(card, provider, model, at)
  const as = billedModel === model ? '' : ` (billed as ${billedModel})`
  const versions = indexOf(card).rows.get(keyOf(provider, billedModel))
  if (versions === undefined) {
    const renamed = indexOf(card).renames.get(keyOf(provider, model))?.[0]
    if (renamed !== undefined && billedModel === model)
      return {
        unpriced: `no price for model ${model} at provider ${provider} but ${span(renamed)}, when the card bills it as ${renamed.row.to}`,
      }
    return { unpriced: `no price for model ${model}${as} at provider ${provider}` }
  }
  const found = versionAt(versions, at)
  if (found === undefined) {
    const first = versions[0] as Indexed<RateRow>
    const last = versions[versions.length - 1] as Indexed<RateRow>
    return {
      unpriced:
        at < first.from
          ? `no price for model ${model}${as} at provider ${provider} before ${day(first.from)}: the card's rates for it start then`
          : `no price for model ${model}${as} at provider ${provider} after ${day(last.until)}: the card's last version for it ends then`,
    }
  }
  const row = found.row
  const entry = row[currency]
  if (entry === undefined) {
    const other = currency === 'CNY' ? 'USD' : 'CNY'
    return {
      unpriced: `no ${currency} price for model ${model}${as} at provider ${provider} ${span(found)}: the card has only ${other} rates for that version`,
    }
  }
  if (row.peak === undefined || !('peak' in entry)) {
    return { billedModel, version: row.effectiveFrom, period: 'flat', rates: entry as Rates, uncoveredDate: null }
  }
  const { period, uncoveredDate } = periodAt(row.peak, at, card.holidays)
  return { billedModel, version: row.effectiveFrom, period, rates: period === 'peak' ? entry.peak : entry.offPeak, uncoveredDate }
}

/** `from 2026-08-16 16:00 UTC until 2026-09-09 16:00 UTC`, or `from … on`. */
function span(v: Indexed<unknown>): string {
  return `from ${day(v.from)}${v.until === Infinity ? ' on' : ` until ${day(v.until)}`}`
}

function versionAt<T>(versions: readonly Indexed<T>[], at: number): Indexed<T> | undefined {
  for (let i = versions.length - 1; i >= 0; i--) {
    const v = versions[i] as Indexed<T>
    if (v.from <= at) return at < v.until ? v : undefined
  }
  return undefined
}

/** The instants around `at` where a list of versions can change: [the last boundary at or before it, the next after]. */
function boundsAround(versions: readonly Indexed<unknown>[] | undefined, at: number, into: [number, number]): void {
  for (const v of versions ?? [])
    for (const edge of [v.from, v.until]) {
      if (edge <= at && edge > into[0]) into[0] = edge
      if (edge > at && edge < into[1]) into[1] = edge
    }
}

/** The local-day segment between window edges that holds `at`: the period cannot change inside it. */
function periodBlock(peak: PeakWindows, at: number, into: [number, number]): void {
  const { offsetMs, windows } = compile(peak)
  const local = at + offsetMs
  const dayStart = local - (((local % DAY_MS) + DAY_MS) % DAY_MS)
  const edges = [0, DAY_MS, ...windows.flatMap(([from, to]) => [from * 60_000, to * 60_000])]
  let lo = 0
  let hi = DAY_MS
  for (const e of edges) {
    if (e <= local - dayStart && e > lo) lo = e
    if (e > local - dayStart && e < hi) hi = e
  }
  into[0] = Math.max(into[0], dayStart + lo - offsetMs)
  into[1] = Math.min(into[1], dayStart + hi - offsetMs)
}

/**
 * `ratesAt` for many calls in a row (a session's steps, a home's sessions): each answer is kept with the span of
 * instants over which it cannot change (the versions and renames in force, the peak block), so the next call of the
 * same model in that span costs a map lookup. A big home prices tens of thousands of calls this way.
 */
export class RatePricer {
  private readonly memo = new Map<string, { from: number; until: number; answer: PricedAt | UnpricedAt }>()

  constructor(
    readonly card: RateCard,
    readonly currency: Currency,
  ) {}

  at(provider: string | null, model: string | null, at: number | null): PricedAt | UnpricedAt {
    if (provider === null || model === null || at === null) return ratesAt(this.card, provider, model, at, this.currency)
    const key = keyOf(provider, model)
    const hit = this.memo.get(key)
    if (hit !== undefined && at >= hit.from && at < hit.until) return hit.answer
    const answer = ratesAt(this.card, provider, model, at, this.currency)
    const bounds: [number, number] = [-Infinity, Infinity]
    const index = indexOf(this.card)
    let name = model
    for (let hop = 0; hop < 5; hop++) {
      const renames = index.renames.get(keyOf(provider, name))
      boundsAround(renames, at, bounds)
      const rename = inForce(renames, at)
      if (rename === undefined) break
      name = rename.to
    }
    const versions = index.rows.get(keyOf(provider, name))
    boundsAround(versions, at, bounds)
    const peak = versions === undefined ? undefined : inForce(versions, at)?.peak
    if (peak !== undefined) periodBlock(peak, at, bounds)
    this.memo.set(key, { from: bounds[0], until: bounds[1], answer })
    return answer
  }
}
