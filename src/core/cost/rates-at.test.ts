/**
 * Which rates a call is billed at: the version in force at its instant, peak or off-peak in Beijing time at the
 * window edges, weekends and listed holidays off-peak, a day no holiday list covers said, renames, and a model or a
 * currency the card cannot price said in words. On the shipped card and on the test card (round figures).
 */

import { describe, expect, it } from 'vitest'
import { beijing, TEST_CARD } from '../../test-support/cost-test-card.ts'
import { oracleRates } from '../../test-support/cost-oracle.ts'
import { builtInRateCard } from './rate-card.ts'
import { RatePricer, ratesAt, type PricedAt, type UnpricedAt } from './rates-at.ts'

const card = builtInRateCard()
const priced = (model: string, at: number, currency: 'CNY' | 'USD' = 'CNY', provider = 'deepseek-official') =>
  ratesAt(card, provider, model, at, currency) as PricedAt

describe('peak and off-peak, Beijing time', () => {
  // 2026-09-14 is a Monday; 2026-09-19 a Saturday; 2026-10-01 (Thursday) the National Day holiday.
  const cases: [string, 'peak' | 'off-peak'][] = [
    ['2026-09-14 08:59:59', 'off-peak'],
    ['2026-09-14 09:00:00', 'peak'],
    ['2026-09-14 11:59:59', 'peak'],
    ['2026-09-14 12:00:00', 'off-peak'],
    ['2026-09-14 13:59:59', 'off-peak'],
    ['2026-09-14 14:00:00', 'peak'],
    ['2026-09-14 17:59:59', 'peak'],
    ['2026-09-14 18:00:00', 'off-peak'],
    ['2026-09-19 10:00:00', 'off-peak'],
    ['2026-09-20 10:00:00', 'off-peak'], // a make-up working Sunday: still a weekend to DeepSeek
    ['2026-10-01 10:00:00', 'off-peak'],
    ['2026-10-08 10:00:00', 'peak'],
  ]
  for (const [local, period] of cases)
    it(`${local} is ${period}`, () => {
      const at = beijing(local)
      expect(priced('deepseek-flash', at).period).toBe(period)
      expect(ratesAt(TEST_CARD, 'p', 'm', at, 'USD')).toMatchObject({ period })
      // The oracle reads the wall clock from the time-zone database, not from an offset.
      expect(oracleRates(TEST_CARD as never, 'p', 'm', at, 'USD')?.period).toBe(period)
    })

  it('bills peak at double the off-peak rate', () => {
    const peak = priced('deepseek-flash', beijing('2026-09-14 09:00:00')).rates
    const off = priced('deepseek-flash', beijing('2026-09-14 08:59:59')).rates
    expect(peak).toStrictEqual({ inputMiss: 2, inputHit: 0.04, output: 8 })
    expect(off).toStrictEqual({ inputMiss: 1, inputHit: 0.02, output: 4 })
  })

  it('priced weekends at peak in the first week, when the windows had no weekday rule', () => {
    // Saturday 2026-08-22 10:00 Beijing, before the weekend rule (2026-08-23 00:00 Beijing).
    expect(priced('deepseek-v4-flash', beijing('2026-08-22 10:00:00'), 'USD').period).toBe('peak')
    expect(priced('deepseek-v4-flash', beijing('2026-08-23 10:00:00'), 'USD').period).toBe('off-peak')
  })

  it('says when a day is in a year no holiday list covers', () => {
    const at = beijing('2027-01-04 10:00:00') // a Monday
    expect(priced('deepseek-flash', at)).toMatchObject({ period: 'peak', uncoveredDate: '2027-01-04' })
    expect(priced('deepseek-flash', beijing('2027-01-04 08:00:00')).uncoveredDate).toBeNull()
  })
})

describe('versions and renames', () => {
  it('switches version at the instant: flat until 2026-08-16 16:00 UTC, peak windows from it', () => {
    const before = priced('deepseek-v4-pro', Date.parse('2026-08-16T15:59:59.999Z'), 'USD')
    const after = priced('deepseek-v4-pro', Date.parse('2026-08-16T16:00:00Z'), 'USD') // 00:00 Beijing, a Monday: off-peak
    expect(before).toMatchObject({
      period: 'flat',
      version: '2026-04-26T12:15:00Z',
      rates: { inputMiss: 0.435, inputHit: 0.003625, output: 0.87 },
    })
    expect(after).toMatchObject({
      period: 'off-peak',
      version: '2026-08-16T16:00:00Z',
      rates: { inputMiss: 0.66, inputHit: 0.022, output: 1.98 },
    })
  })

  it('bills a retired name as its successor from the rename', () => {
    expect(priced('deepseek-v4-flash', Date.parse('2026-09-09T15:59:59Z'), 'USD')).toMatchObject({
      billedModel: 'deepseek-v4-flash',
    })
    expect(priced('deepseek-v4-flash', Date.parse('2026-09-09T16:00:00Z'), 'USD')).toMatchObject({
      billedModel: 'deepseek-flash',
    })
    expect(priced('deepseek-chat', Date.parse('2026-06-01T00:00:00Z'), 'USD')).toMatchObject({
      billedModel: 'deepseek-v4-flash',
      period: 'flat',
    })
  })

  it('says why the card has no price, never makes one up', () => {
    const at = beijing('2026-09-14 10:00:00')
    expect(ratesAt(card, 'local', 'qwen3', at, 'CNY')).toStrictEqual({ unpriced: 'no price for model qwen3 at provider local' })
    expect(ratesAt(card, 'deepseek-official', 'deepseek-chat', at, 'CNY')).toStrictEqual({
      unpriced:
        'no price for model deepseek-chat at provider deepseek-official but from 2026-04-26 12:15 UTC until 2026-07-24 15:59 UTC, when the card bills it as deepseek-v4-flash',
    })
    expect(ratesAt(card, 'deepseek-official', 'deepseek-v4-flash', Date.parse('2026-08-20T02:00:00Z'), 'CNY')).toStrictEqual({
      unpriced:
        'no CNY price for model deepseek-v4-flash at provider deepseek-official from 2026-08-16 16:00 UTC until 2026-08-22 16:00 UTC: the card has only USD rates for that version',
    })
    expect(ratesAt(card, 'deepseek-official', 'deepseek-v4-pro', Date.parse('2026-01-01T00:00:00Z'), 'USD')).toStrictEqual({
      unpriced:
        "no price for model deepseek-v4-pro at provider deepseek-official before 2026-04-26 12:15 UTC: the card's rates for it start then",
    })
    expect(ratesAt(card, null, null, at, 'CNY')).toStrictEqual({ unpriced: 'the log does not say which model answered' })
    expect(ratesAt(card, 'deepseek-official', 'deepseek-flash', null, 'CNY')).toStrictEqual({
      unpriced: 'no time is logged for the call, so no version of the card applies',
    })
  })
})

/** The same answer: the same sentence, or the same version, period and rates (the card's own objects). */
const same = (a: PricedAt | UnpricedAt, b: PricedAt | UnpricedAt): boolean =>
  'unpriced' in a
    ? 'unpriced' in b && a.unpriced === b.unpriced
    : !('unpriced' in b) &&
      a.rates === b.rates &&
      a.period === b.period &&
      a.version === b.version &&
      a.billedModel === b.billedModel &&
      a.uncoveredDate === b.uncoveredDate

describe('RatePricer', () => {
  it('answers as ratesAt at every instant, in order or not, for every model and currency', () => {
    // Every 2 hours 13 minutes from April to December 2026 (every version, rename and holiday crossed), a millisecond
    // either side of each version's start and of each day's window edges and midnight (Beijing time) from August to
    // mid-October, then the same instants shuffled: a kept answer is only reused inside the span where it cannot change.
    const instants: number[] = []
    for (let at = Date.parse('2026-04-20T00:00:00Z'); at < Date.parse('2026-12-31T00:00:00Z'); at += 7_980_000) instants.push(at)
    const edges = [...card.rates, ...card.renames].map((r) => Date.parse(r.effectiveFrom))
    for (let day = Date.parse('2026-08-10T00:00:00+08:00'); day < Date.parse('2026-10-12T00:00:00+08:00'); day += 86_400_000)
      for (const hour of [0, 9, 12, 14, 18]) edges.push(day + hour * 3_600_000)
    for (const edge of edges) instants.push(edge - 1, edge)
    const shuffled = instants.map((at, i) => instants[(i * 7_919) % instants.length] as number)
    const models: [string | null, string | null][] = [
      ['deepseek-official', 'deepseek-v4-flash'],
      ['deepseek-official', 'deepseek-chat'],
      ['deepseek-official', 'deepseek-v4-pro'],
      ['deepseek-official', 'deepseek-flash'],
      ['local', 'qwen3'],
    ]
    for (const c of [card, TEST_CARD])
      for (const currency of ['CNY', 'USD'] as const) {
        const pricer = new RatePricer(c, currency)
        for (const order of [instants, shuffled])
          for (const at of order)
            for (const [provider, model] of [...models, ['p', 'm'] as const, ['p', 'old'] as const]) {
              const got = pricer.at(provider, model, at)
              const want = ratesAt(c, provider, model, at, currency)
              if (!same(got, want))
                expect(got, `${provider}/${model} at ${new Date(at).toISOString()} in ${currency}`).toStrictEqual(want)
            }
      }
  })
})
