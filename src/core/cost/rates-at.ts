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

/** The rates of a call of `model` at `provider` at instant `at` in `currency`, or why there are none. */
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
        unpriced: `no price for model ${model} at provider ${provider} on ${day(at)}: the card bills that name as ${renamed.row.to} only from ${day(renamed.from)}${renamed.until === Infinity ? '' : ` until ${day(renamed.until)}`}`,
      }
    return { unpriced: `no price for model ${model}${as} at provider ${provider}` }
  }
  const row = inForce(versions, at)
  if (row === undefined) {
    const first = versions[0] as Indexed<RateRow>
    return {
      unpriced:
        at < first.from
          ? `no price for model ${model}${as} at provider ${provider} on ${day(at)}: the card's rates start ${day(first.from)}`
          : `no price for model ${model}${as} at provider ${provider} on ${day(at)}: the card's last version ended before`,
    }
  }
  const entry = row[currency]
  if (entry === undefined) {
    const other = currency === 'CNY' ? 'USD' : 'CNY'
    return {
      unpriced: `no ${currency} price for model ${model}${as} at provider ${provider} on ${day(at)}: the card has only ${other} rates for that version`,
    }
  }
  if (row.peak === undefined || !('peak' in entry)) {
    return { billedModel, version: row.effectiveFrom, period: 'flat', rates: entry as Rates, uncoveredDate: null }
  }
  const { period, uncoveredDate } = periodAt(row.peak, at, card.holidays)
  return { billedModel, version: row.effectiveFrom, period, rates: period === 'peak' ? entry.peak : entry.offPeak, uncoveredDate }
}
