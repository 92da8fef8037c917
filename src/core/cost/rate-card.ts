/**
 * The rate card: what a provider charges per 1M tokens, per model and per version (`effectiveFrom`, an instant), with
 * peak windows where a version has them, model renames, and the Chinese statutory holidays (off-peak all day). The
 * card shipped in the repository is `rate-card.json`; a rates file (`--rates FILE`, `DSH_LENS_RATES`) has the same
 * shape and replaces or extends it. Every row names where it was read and when; a row that cannot be sourced is not
 * on the card, so a step it would price is said to have no price, never given a made-up one.
 *
 * A file is checked as a whole before use and refused with one sentence that names the line and the field.
 */

import BUILT_IN from './rate-card.json' with { type: 'json' }
import { JsonSyntaxError, parseJsonWithLines, pathText, type JsonPath } from './json-lines.ts'

export const RATE_CARD_SCHEMA = 1

export type Currency = 'CNY' | 'USD'
export const CURRENCIES: readonly Currency[] = ['CNY', 'USD']

/** Prices per 1M tokens. Cache writes are billed as misses unless a row says otherwise (docs/cost.md says why). */
export interface Rates {
  readonly inputMiss: number
  readonly inputHit: number
  readonly output: number
  readonly cacheWrite?: number
}

export type CurrencyRates = Rates | { readonly peak: Rates; readonly offPeak: Rates }

/** Peak hours of a version: local wall-clock windows on some weekdays, in a fixed offset from UTC. */
export interface PeakWindows {
  /** `+08:00`: a fixed offset (Beijing time has had no daylight saving since 1991). */
  readonly timeZone: string
  /** ISO weekdays the windows apply on: 1 Monday … 7 Sunday. */
  readonly days: readonly number[]
  /** `[from, to)` local times, `HH:MM`. */
  readonly hours: readonly (readonly [string, string])[]
  /** A holiday calendar whose days are off-peak all day, or null. */
  readonly holidays: string | null
}

interface Sourced {
  /** Where the figures were read (URLs). */
  readonly source: readonly string[]
  /** Where the instant was read when the figures' page does not date it. */
  readonly instantSource?: readonly string[]
  /** The day the sources were read, `YYYY-MM-DD`. */
  readonly read: string
  readonly note?: string
}

export interface RateRow extends Sourced {
  readonly provider: string
  readonly model: string
  /** ISO instant the version takes effect; it runs until the next version of the same model (or `until`). */
  readonly effectiveFrom: string
  readonly until?: string
  readonly peak?: PeakWindows
  readonly CNY?: CurrencyRates
  readonly USD?: CurrencyRates
}

/** A model name billed as another from an instant (a retired name served by its successor). */
export interface Rename extends Sourced {
  readonly provider: string
  readonly from: string
  readonly to: string
  readonly effectiveFrom: string
  readonly until?: string
}

export interface HolidayYear extends Sourced {
  readonly calendar: string
  readonly year: number
  /** Local dates, `YYYY-MM-DD`. */
  readonly dates: readonly string[]
}

export interface RateCard {
  readonly schema: number
  readonly version: string
  readonly checked: string
  readonly about?: string
  readonly holidays: readonly HolidayYear[]
  readonly rates: readonly RateRow[]
  readonly renames: readonly Rename[]
}

/** A rates file's `mode`: `extend` adds its rows to the card's (a row for the same model and instant wins), `replace` drops the card's. */
export type RatesMode = 'extend' | 'replace'

export class RateCardError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/
const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/
const OFFSET = /^[+-](?:0\d|1[0-4]):[0-5]\d$/

/** Milliseconds of an instant the card accepts (`INSTANT`), or NaN. */
export function instantMs(text: string): number {
  return INSTANT.test(text) ? Date.parse(text) : Number.NaN
}

/** Minutes east of UTC of `+08:00`. */
export function offsetMinutes(timeZone: string): number {
  const sign = timeZone.startsWith('-') ? -1 : 1
  return sign * (Number(timeZone.slice(1, 3)) * 60 + Number(timeZone.slice(4, 6)))
}

export function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
}

type Problem = { path: JsonPath; says: string }

/**
 * Checks a parsed card; returns the first problem (its field and what is wrong), or null. `calendars`: holiday
 * calendars a row may name besides the card's own (the card a rates file extends).
 */
function firstProblem(card: unknown, calendars: ReadonlySet<string> = new Set()): Problem | null {
  const problems: Problem[] = []
  const add = (path: JsonPath, says: string): void => {
    if (problems.length === 0) problems.push({ path, says })
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
  const text = (v: unknown, path: JsonPath, what = 'a non-empty string'): v is string => {
    if (typeof v === 'string' && v.trim() !== '') return true
    add(path, `must be ${what}`)
    return false
  }
  const fields = (v: Record<string, unknown>, path: JsonPath, allowed: readonly string[]): void => {
    for (const name of Object.keys(v))
      if (!allowed.includes(name)) add([...path, name], `is not a field this card knows (${allowed.join(', ')})`)
  }
  const sourced = (v: Record<string, unknown>, path: JsonPath): void => {
    for (const name of ['source', 'instantSource'] as const) {
      const list = v[name]
      if (list === undefined && name === 'instantSource') continue
      if (!Array.isArray(list) || list.length === 0) {
        add([...path, name], 'must list at least one URL the figures were read from')
        continue
      }
      list.forEach((url, i) => {
        if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)) add([...path, name, i], 'must be an http(s) URL')
      })
    }
    if (typeof v['read'] !== 'string' || !DATE.test(v['read']) || Number.isNaN(Date.parse(v['read'])))
      add([...path, 'read'], 'must be the date the source was read, YYYY-MM-DD')
    if (v['note'] !== undefined) text(v['note'], [...path, 'note'])
  }
  const instant = (v: unknown, path: JsonPath): void => {
    if (typeof v !== 'string' || Number.isNaN(instantMs(v))) add(path, 'must be an instant like 2026-08-16T16:00:00Z')
  }
  const rates = (v: unknown, path: JsonPath): void => {
    if (!isObject(v)) return add(path, 'must be an object of inputMiss, inputHit and output per 1M tokens')
    fields(v, path, ['inputMiss', 'inputHit', 'output', 'cacheWrite'])
    for (const name of ['inputMiss', 'inputHit', 'output', 'cacheWrite']) {
      const n = v[name]
      if (n === undefined && name === 'cacheWrite') continue
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) add([...path, name], 'must be a number ≥ 0 (per 1M tokens)')
    }
  }
  if (!isObject(card)) {
    add([], 'must be an object with schema, version, checked, holidays, rates and renames')
    return problems[0] ?? null
  }
  fields(card, [], ['schema', 'mode', 'version', 'checked', 'about', 'holidays', 'rates', 'renames'])
  if (card['schema'] !== RATE_CARD_SCHEMA) add(['schema'], `must be ${RATE_CARD_SCHEMA} (the card format this dsh-lens reads)`)
  if (card['mode'] !== undefined && card['mode'] !== 'extend' && card['mode'] !== 'replace')
    add(['mode'], 'must be "extend" or "replace"')
  text(card['version'], ['version'])
  if (typeof card['checked'] !== 'string' || !DATE.test(card['checked'])) add(['checked'], 'must be a date, YYYY-MM-DD')
  if (card['about'] !== undefined) text(card['about'], ['about'])
  for (const name of ['holidays', 'rates', 'renames'] as const)
    if (card[name] !== undefined && !Array.isArray(card[name])) add([name], 'must be a list')
  const holidays = Array.isArray(card['holidays']) ? card['holidays'] : []
  const known = new Set<string>(card['mode'] === 'replace' ? [] : calendars)
  const years = new Set<string>()
  holidays.forEach((h: unknown, i) => {
    const path = ['holidays', i]
    if (!isObject(h)) return add(path, 'must be an object of calendar, year and dates')
    fields(h, path, ['calendar', 'year', 'dates', 'source', 'read', 'note'])
    if (text(h['calendar'], [...path, 'calendar'])) known.add(h['calendar'])
    const year = h['year']
    if (typeof year !== 'number' || !Number.isInteger(year) || year < 1970 || year > 9999)
      add([...path, 'year'], 'must be a year like 2026')
    else if (years.has(`${String(h['calendar'])}/${year}`))
      add([...path, 'year'], `lists ${year} a second time for this calendar`)
    else years.add(`${String(h['calendar'])}/${year}`)
    if (!Array.isArray(h['dates'])) add([...path, 'dates'], 'must be a list of dates, YYYY-MM-DD')
    else
      h['dates'].forEach((d: unknown, k) => {
        if (typeof d !== 'string' || !DATE.test(d) || Number.isNaN(Date.parse(d)) || !d.startsWith(`${String(year)}-`))
          add([...path, 'dates', k], `must be a date of ${String(year)}, YYYY-MM-DD`)
      })
    sourced(h, path)
  })
  const rows = Array.isArray(card['rates']) ? card['rates'] : []
  rows.forEach((row: unknown, i) => {
    const path = ['rates', i]
    if (!isObject(row)) return add(path, 'must be an object of provider, model, effectiveFrom and rates')
    fields(row, path, [
      'provider',
      'model',
      'effectiveFrom',
      'until',
      'peak',
      'CNY',
      'USD',
      'source',
      'instantSource',
      'read',
      'note',
    ])
    text(row['provider'], [...path, 'provider'])
    text(row['model'], [...path, 'model'])
    instant(row['effectiveFrom'], [...path, 'effectiveFrom'])
    if (row['until'] !== undefined) {
      instant(row['until'], [...path, 'until'])
      if (instantMs(String(row['until'])) <= instantMs(String(row['effectiveFrom'])))
        add([...path, 'until'], 'must come after effectiveFrom')
    }
    const peak = row['peak']
    if (peak !== undefined) {
      const p = [...path, 'peak']
      if (!isObject(peak)) add(p, 'must be an object of timeZone, days, hours and holidays')
      else {
        fields(peak, p, ['timeZone', 'days', 'hours', 'holidays'])
        if (typeof peak['timeZone'] !== 'string' || !OFFSET.test(peak['timeZone']))
          add([...p, 'timeZone'], 'must be a fixed offset like +08:00')
        if (!Array.isArray(peak['days']) || peak['days'].length === 0)
          add([...p, 'days'], 'must list weekdays, 1 (Monday) to 7 (Sunday)')
        else
          peak['days'].forEach((d: unknown, k) => {
            if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > 7)
              add([...p, 'days', k], 'must be a weekday, 1 (Monday) to 7 (Sunday)')
          })
        if (!Array.isArray(peak['hours']) || peak['hours'].length === 0)
          add([...p, 'hours'], 'must list ["HH:MM", "HH:MM"] windows')
        else
          peak['hours'].forEach((w: unknown, k) => {
            const ok = Array.isArray(w) && w.length === 2 && w.every((t) => typeof t === 'string' && HHMM.test(t))
            if (!ok || minutesOf((w as string[])[0] as string) >= minutesOf((w as string[])[1] as string))
              add([...p, 'hours', k], 'must be a window ["HH:MM", "HH:MM"] that ends after it starts')
          })
        if (peak['holidays'] !== null && (typeof peak['holidays'] !== 'string' || !known.has(peak['holidays'])))
          add([...p, 'holidays'], `must be null or a holiday calendar the card lists (${[...known].join(', ') || 'none'})`)
      }
    }
    let priced = false
    for (const currency of CURRENCIES) {
      const entry = row[currency]
      if (entry === undefined) continue
      priced = true
      const p = [...path, currency]
      if (peak !== undefined) {
        // A version with peak windows must say what peak and off-peak cost, in every currency it prices.
        if (!isObject(entry) || entry['peak'] === undefined)
          add([...p, 'peak'], 'must give the peak rates: this version has peak windows')
        else if (entry['offPeak'] === undefined)
          add([...p, 'offPeak'], 'must give the off-peak rates: this version has peak windows')
        else {
          fields(entry, p, ['peak', 'offPeak'])
          rates(entry['peak'], [...p, 'peak'])
          rates(entry['offPeak'], [...p, 'offPeak'])
        }
      } else if (isObject(entry) && (entry['peak'] !== undefined || entry['offPeak'] !== undefined)) {
        add(p, 'gives peak rates but the version has no peak windows ("peak")')
      } else rates(entry, p)
    }
    if (!priced) add(path, 'must give rates in CNY or USD')
    sourced(row, path)
  })
  const renames = Array.isArray(card['renames']) ? card['renames'] : []
  renames.forEach((r: unknown, i) => {
    const path = ['renames', i]
    if (!isObject(r)) return add(path, 'must be an object of provider, from, to and effectiveFrom')
    fields(r, path, ['provider', 'from', 'to', 'effectiveFrom', 'until', 'source', 'instantSource', 'read', 'note'])
    text(r['provider'], [...path, 'provider'])
    text(r['from'], [...path, 'from'])
    text(r['to'], [...path, 'to'])
    if (r['from'] === r['to']) add([...path, 'to'], 'must name another model than from')
    instant(r['effectiveFrom'], [...path, 'effectiveFrom'])
    if (r['until'] !== undefined) instant(r['until'], [...path, 'until'])
    sourced(r, path)
  })
  if (problems.length > 0) return problems[0] ?? null
  return overlap(rows as RateRow[], renames as Rename[])
}

/** Two versions of one model (or two renames of one name) that are both in force at some instant. */
function overlap(rows: readonly RateRow[], renames: readonly Rename[]): (Problem & { what: string }) | null {
  const spans = <T extends { effectiveFrom: string; until?: string }>(
    list: readonly T[],
    keyOf: (t: T) => string,
    kind: string,
  ) => {
    const byKey = new Map<string, number[]>()
    list.forEach((t, i) => byKey.set(keyOf(t), [...(byKey.get(keyOf(t)) ?? []), i]))
    for (const [name, indices] of byKey) {
      const at = (i: number) => list[i] as T
      const sorted = [...indices].sort((a, b) => instantMs(at(a).effectiveFrom) - instantMs(at(b).effectiveFrom))
      for (let k = 1; k < sorted.length; k++) {
        const prev = at(sorted[k - 1] as number)
        const cur = at(sorted[k] as number)
        const from = instantMs(cur.effectiveFrom)
        if (from === instantMs(prev.effectiveFrom) || (prev.until !== undefined && instantMs(prev.until) > from)) {
          const what = `two versions of ${name} would be in force at ${cur.effectiveFrom}`
          return { path: [kind, sorted[k] as number, 'effectiveFrom'], says: `overlaps ${kind}[${sorted[k - 1]}]: ${what}`, what }
        }
      }
    }
    return null
  }
  return (
    spans(rows, (r) => `${r.model} at ${r.provider}`, 'rates') ??
    spans(renames, (r) => `the name ${r.from} at ${r.provider}`, 'renames')
  )
}

/**
 * The card in a rates file's text, or a RateCardError whose message is one sentence naming the line and field.
 * `base`: the card the file extends (its holiday calendars may be named).
 */
export function parseRateCard(text: string, name: string, base?: RateCard): { card: RateCard; mode: RatesMode } {
  let parsed
  try {
    parsed = parseJsonWithLines(text)
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new RateCardError(`${name} line ${error.line}: not JSON: ${error.reason}`)
    throw error
  }
  const problem = firstProblem(parsed.value, new Set(base?.holidays.map((h) => h.calendar)))
  if (problem !== null)
    throw new RateCardError(`${name} line ${parsed.lineOf(problem.path)}: ${pathText(problem.path)} ${problem.says}`)
  const value = parsed.value as RateCard & { mode?: RatesMode }
  return { card: normalized(value), mode: value.mode ?? 'extend' }
}

function normalized(card: RateCard): RateCard {
  return {
    schema: card.schema,
    version: card.version,
    checked: card.checked,
    ...(card.about === undefined ? {} : { about: card.about }),
    holidays: card.holidays ?? [],
    rates: card.rates ?? [],
    renames: card.renames ?? [],
  }
}

let builtIn: RateCard | undefined

/** The card shipped in the repository (`rate-card.json`), checked once on first use. */
export function builtInRateCard(): RateCard {
  if (builtIn !== undefined) return builtIn
  const problem = firstProblem(BUILT_IN)
  if (problem !== null) throw new RateCardError(`rate-card.json: ${pathText(problem.path)} ${problem.says}`)
  builtIn = normalized(BUILT_IN as unknown as RateCard)
  return builtIn
}

/**
 * A card with a rates file applied: `replace` is the file alone; `extend` is the card plus the file's rows, where a
 * file's row for the same model (or rename of the same name, or holiday year) at the same instant replaces the card's.
 * The result is checked again (a file may make two versions overlap).
 */
export function applyRatesFile(card: RateCard, file: RateCard, mode: RatesMode, name: string): RateCard {
  if (mode === 'replace') return { ...file, version: `${file.version} (${name}, replacing the card)` }
  const rowKey = (r: RateRow) => `${r.provider}\u0000${r.model}\u0000${instantMs(r.effectiveFrom)}`
  const renameKey = (r: Rename) => `${r.provider}\u0000${r.from}\u0000${instantMs(r.effectiveFrom)}`
  const yearKey = (h: HolidayYear) => `${h.calendar}\u0000${h.year}`
  const merge = <T>(base: readonly T[], extra: readonly T[], keyOf: (t: T) => string): T[] => {
    const replaced = new Set(extra.map(keyOf))
    return [...base.filter((t) => !replaced.has(keyOf(t))), ...extra]
  }
  const merged: RateCard = {
    schema: card.schema,
    version: `${card.version} + ${file.version} (${name})`,
    checked: file.checked > card.checked ? file.checked : card.checked,
    holidays: merge(card.holidays, file.holidays, yearKey),
    rates: merge(card.rates, file.rates, rowKey),
    renames: merge(card.renames, file.renames, renameKey),
  }
  const problem = overlap(merged.rates, merged.renames)
  if (problem !== null) throw new RateCardError(`${name} cannot extend the built-in card: ${problem.what}`)
  return merged
}
