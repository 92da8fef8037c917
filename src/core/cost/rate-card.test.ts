/**
 * The shipped rate card and the checks every card (and every rates file) must pass: each row names its source and
 * the day it was read, versions of one model never overlap, a version with peak windows has peak rates, and a
 * malformed file is refused with one sentence naming its line and field.
 */

import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { applyRatesFile, builtInRateCard, parseRateCard, RateCardError } from './rate-card.ts'
import { parseJsonWithLines } from './json-lines.ts'
import CARD_JSON from './rate-card.json' with { type: 'json' }

const card = builtInRateCard()

describe('the shipped rate card', () => {
  it('passes its own checks', () => {
    expect(() => parseRateCard(JSON.stringify(CARD_JSON, null, 2), 'rate-card.json')).not.toThrow()
    expect(card.rates.length).toBeGreaterThanOrEqual(9)
  })

  it('says for every row where it was read and when', () => {
    for (const row of [...card.rates, ...card.renames, ...card.holidays]) {
      expect(row.source.length).toBeGreaterThan(0)
      for (const url of row.source) expect(url).toMatch(/^https:\/\//)
      expect(row.read).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
  })

  it("takes DeepSeek's figures from DeepSeek's own pages (or an archive of them)", () => {
    for (const row of card.rates) expect(row.source.some((url) => url.includes('api-docs.deepseek.com'))).toBe(true)
  })

  it('bills off-peak at half the peak rate from 2026-08-16 16:00 UTC, Beijing 09:00-12:00 and 14:00-18:00', () => {
    const peakRows = card.rates.filter((r) => r.peak !== undefined)
    expect(peakRows.map((r) => r.effectiveFrom).sort()[0]).toBe('2026-08-16T16:00:00Z')
    for (const row of peakRows) {
      expect(row.peak?.timeZone).toBe('+08:00')
      expect(row.peak?.hours).toStrictEqual([
        ['09:00', '12:00'],
        ['14:00', '18:00'],
      ])
      for (const currency of ['CNY', 'USD'] as const) {
        const entry = row[currency]
        if (entry === undefined) continue
        if (!('peak' in entry)) throw new Error('a peak row without peak rates')
        for (const key of ['inputMiss', 'inputHit', 'output'] as const)
          expect(entry.offPeak[key] * 2).toBeCloseTo(entry.peak[key], 12)
      }
    }
    // Every version since has peak windows: none of them is flat.
    for (const row of card.rates)
      if (Date.parse(row.effectiveFrom) >= Date.parse('2026-08-16T16:00:00Z')) expect(row.peak).toBeDefined()
  })

  it('lists the 2026 statutory holidays of the State Council notice', () => {
    const cn = card.holidays.find((h) => h.calendar === 'CN' && h.year === 2026)
    expect(cn?.dates).toHaveLength(33)
    for (const day of [
      '2026-01-01',
      '2026-02-15',
      '2026-02-23',
      '2026-04-06',
      '2026-05-05',
      '2026-06-19',
      '2026-09-25',
      '2026-10-07',
    ])
      expect(cn?.dates).toContain(day)
    expect(cn?.dates).not.toContain('2026-10-10') // a make-up working day (a Saturday)
  })
})

const VALID = {
  schema: 1,
  version: 'mine',
  checked: '2026-12-01',
  rates: [
    {
      provider: 'local',
      model: 'qwen',
      effectiveFrom: '2026-01-01T00:00:00Z',
      USD: { inputMiss: 1, inputHit: 0.1, output: 2 },
      source: ['https://example.com/my-prices'],
      read: '2026-12-01',
    },
  ],
}

/** The refusal sentence for a file, or null when it is accepted. */
function refusal(value: unknown): string | null {
  try {
    parseRateCard(typeof value === 'string' ? value : JSON.stringify(value, null, 2), 'rates.json')
    return null
  } catch (error) {
    if (error instanceof RateCardError) return error.message
    throw error
  }
}

describe('a rates file', () => {
  it('is accepted when well formed, as an extension by default', () => {
    expect(refusal(VALID)).toBeNull()
    const { card: file, mode } = parseRateCard(JSON.stringify(VALID), 'rates.json')
    expect(mode).toBe('extend')
    const merged = applyRatesFile(card, file, mode, 'rates.json')
    expect(merged.rates).toHaveLength(card.rates.length + 1)
    expect(merged.version).toBe(`${card.version} + mine (rates.json)`)
    expect(applyRatesFile(card, file, 'replace', 'rates.json').rates).toHaveLength(1)
  })

  it('is refused when two versions of one model overlap (same instant, or an until past the next one)', () => {
    const twice = { ...VALID, rates: [VALID.rates[0], { ...VALID.rates[0] }] }
    // The sentence names the line of the second version's effectiveFrom.
    const line =
      JSON.stringify(twice, null, 2)
        .split('\n')
        .findLastIndex((l) => l.includes('"effectiveFrom"')) + 1
    expect(refusal(twice)).toBe(
      `rates.json line ${line}: rates[1].effectiveFrom overlaps rates[0]: two versions of qwen at local would be in force at 2026-01-01T00:00:00Z`,
    )
    const until = {
      ...VALID,
      rates: [
        { ...VALID.rates[0], until: '2026-03-01T00:00:00Z' },
        { ...VALID.rates[0], effectiveFrom: '2026-02-01T00:00:00Z' },
      ],
    }
    expect(refusal(until)).toMatch(/^rates\.json line \d+: rates\[1\]\.effectiveFrom overlaps rates\[0\]/)
    const renames = {
      ...VALID,
      renames: [0, 1].map(() => ({
        provider: 'local',
        from: 'a',
        to: 'b',
        effectiveFrom: '2026-01-01T00:00Z',
        source: ['https://x.test'],
        read: '2026-12-01',
      })),
    }
    expect(refusal(renames)).toMatch(/renames\[1\]\.effectiveFrom overlaps renames\[0\]: two versions of the name a at local/)
  })

  it('is refused when a version with peak windows has no peak rate', () => {
    const row = { ...VALID.rates[0], peak: { timeZone: '+08:00', days: [1], hours: [['09:00', '12:00']], holidays: null } }
    expect(refusal({ ...VALID, rates: [row] })).toBe(
      'rates.json line 10: rates[0].USD.peak must give the peak rates: this version has peak windows',
    )
    const noOffPeak = { ...row, USD: { peak: { inputMiss: 1, inputHit: 0.1, output: 2 } } }
    expect(refusal({ ...VALID, rates: [noOffPeak] })).toMatch(/rates\[0\]\.USD\.offPeak must give the off-peak rates/)
  })

  it('is refused when a row has no source or read date', () => {
    const { source: _, ...unsourced } = VALID.rates[0] as Record<string, unknown>
    expect(refusal({ ...VALID, rates: [unsourced] })).toMatch(
      /^rates\.json line 6: rates\[0\]\.source must list at least one URL/,
    )
    expect(refusal({ ...VALID, rates: [{ ...VALID.rates[0], read: 'yesterday' }] })).toMatch(
      /rates\[0\]\.read must be the date the source was read/,
    )
  })

  it('names the line and the field of a wrong value, and the line of a syntax error', () => {
    const text = JSON.stringify(
      { ...VALID, rates: [{ ...VALID.rates[0], USD: { inputMiss: -1, inputHit: 0.1, output: 2 } }] },
      null,
      2,
    )
    const line = text.split('\n').findIndex((l) => l.includes('"inputMiss": -1')) + 1
    expect(refusal(text)).toBe(`rates.json line ${line}: rates[0].USD.inputMiss must be a number ≥ 0 (per 1M tokens)`)
    expect(refusal('{\n  "schema": 1,\n  "version": "x"\n  "checked": "2026-12-01"\n}')).toBe(
      'rates.json line 4: not JSON: expected "," or "}" after the value of "version", found "checked"',
    )
    expect(refusal({ ...VALID, colour: 'red' })).toMatch(/^rates\.json line \d+: colour is not a field this card knows/)
    expect(refusal({ ...VALID, schema: 2 })).toBe('rates.json line 2: schema must be 1 (the card format this dsh-lens reads)')
    expect(refusal({ ...VALID, rates: [{ ...VALID.rates[0], effectiveFrom: '2026-01-01' }] })).toMatch(
      /rates\[0\]\.effectiveFrom must be an instant like 2026-08-16T16:00:00Z/,
    )
  })

  it("may name the extended card's holiday calendar, not one nobody lists", () => {
    const peak = {
      ...VALID.rates[0],
      peak: { timeZone: '+08:00', days: [1], hours: [['09:00', '12:00']], holidays: 'CN' },
      USD: { peak: VALID.rates[0]?.USD, offPeak: VALID.rates[0]?.USD },
    }
    const text = JSON.stringify({ ...VALID, rates: [peak] })
    expect(() => parseRateCard(text, 'rates.json', card)).not.toThrow()
    expect(() => parseRateCard(JSON.stringify({ ...VALID, mode: 'replace', rates: [peak] }), 'rates.json', card)).toThrow(
      'rates.json line 1: rates[0].peak.holidays must be null or a holiday calendar the card lists (none)',
    )
  })

  it('cannot extend the card into an overlap', () => {
    // A version of the file's that runs past the start of the card's next version of the same model.
    const clash = {
      ...VALID.rates[0],
      provider: 'deepseek-official',
      model: 'deepseek-flash',
      effectiveFrom: '2026-09-01T00:00:00Z',
      until: '2026-10-01T00:00:00Z',
    }
    const { card: file } = parseRateCard(JSON.stringify({ ...VALID, rates: [clash] }), 'rates.json')
    expect(() => applyRatesFile(card, file, 'extend', 'rates.json')).toThrow(
      'rates.json cannot extend the built-in card: two versions of deepseek-flash at deepseek-official would be in force at 2026-09-09T16:00:00Z',
    )
  })
})

describe('JSON with lines', () => {
  it('reads what JSON.parse reads (fast-check; replay with FC_SEED)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const text = JSON.stringify(value, null, indent)
        expect(parseJsonWithLines(text).value).toStrictEqual(JSON.parse(text))
      }),
    )
  })

  it('keeps a __proto__ field as data', () => {
    const parsed = parseJsonWithLines('{"__proto__": {"x": 1}}').value as Record<string, unknown>
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(Object.keys(parsed)).toStrictEqual(['__proto__'])
  })
})
