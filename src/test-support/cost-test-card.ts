/**
 * A rate card for the cost tests, in the shipped card's shape, with round figures (1 per cache-miss token, 0.1 per
 * hit, 2 per output token, in USD; seven times that in CNY) so an amount is known by construction; a flat version,
 * then peak windows in Beijing time from the instant the real card's peak billing starts, a holiday and a rename.
 */

import type { RateCard } from '../core/index.ts'

const SOURCE = { source: ['https://example.test/pricing'], read: '2026-12-01' }
const per1M = (miss: number, hit: number, out: number) => ({ inputMiss: miss * 1e6, inputHit: hit * 1e6, output: out * 1e6 })

export const TEST_CARD: RateCard = {
  schema: 1,
  version: 'test-1',
  checked: '2026-12-01',
  holidays: [{ calendar: 'CN', year: 2026, dates: ['2026-10-01'], ...SOURCE }],
  rates: [
    {
      provider: 'p',
      model: 'm',
      effectiveFrom: '2026-01-01T00:00:00Z',
      USD: per1M(1, 0.1, 2),
      CNY: per1M(7, 0.7, 14),
      ...SOURCE,
    },
    {
      provider: 'p',
      model: 'm',
      effectiveFrom: '2026-08-16T16:00:00Z',
      peak: {
        timeZone: '+08:00',
        days: [1, 2, 3, 4, 5],
        hours: [
          ['09:00', '12:00'],
          ['14:00', '18:00'],
        ],
        holidays: 'CN',
      },
      USD: { peak: per1M(2, 0.2, 4), offPeak: per1M(1, 0.1, 2) },
      CNY: { peak: per1M(14, 1.4, 28), offPeak: per1M(7, 0.7, 14) },
      ...SOURCE,
    },
  ],
  renames: [{ provider: 'p', from: 'old', to: 'm', effectiveFrom: '2026-01-01T00:00:00Z', ...SOURCE }],
}

/** Beijing wall-clock time to an instant: `beijing('2026-09-14 09:00:00')` (UTC+8, no daylight saving). */
export function beijing(local: string): number {
  return Date.parse(`${local.replace(' ', 'T')}+08:00`)
}

/** An amount in USD as the cost answers give it: its parts and their total. */
export const usd = (input: number, cacheRead: number, output: number) => ({
  currency: 'USD',
  input,
  cacheRead,
  output,
  total: input + cacheRead + output,
})

/** Token counts as the cost answers give them (no cache writes). */
export const tokenCounts = (input: number, cacheRead: number, output: number, reasoning: number | null = null) => ({
  input,
  cacheRead,
  cacheWrite: 0,
  output,
  reasoning,
})
