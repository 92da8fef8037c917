/**
 * The cost answer against a direct reading of the log and the card (test-support/cost-oracle.ts, which shares no code
 * with src/core/cost), on every harness fixture and on generated logs that cross a rate-version boundary, a peak
 * window's edges, a Saturday and a listed holiday; and the line-by-line digest (what `usage` reads) against the
 * folded log's facts: a session costs the same whichever way it was read.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { generateSession, toJsonl } from '../../generate/index.ts'
import { CostLogBuilder } from '../../test-support/cost-log-builder.ts'
import { TEST_CARD } from '../../test-support/cost-test-card.ts'
import { directCost } from '../../test-support/cost-oracle.ts'
import { eventsOfJsonl } from '../../test-support/expanded-events.ts'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { CostDigestCollector } from './cost-digest.ts'
import { costFactsOfLog } from './log-facts.ts'
import { logCost } from './log-cost.ts'
import { builtInRateCard, type RateCard } from './rate-card.ts'
import type { SessionCost } from './session-cost.ts'

const checksum = await loadContentChecksum()

function load(bytes: Uint8Array): LensLog {
  const log = new LensLog({ checksum })
  log.push(bytes)
  log.finish()
  return log
}

/** The plain JSONL of a log: the file itself, or its frames decoded through a LensLog's own records. */
function plainOf(log: LensLog, header: string): string {
  const lines = [header]
  for (const record of log.recordsThrough(log.length - 1)) lines.push(record.text)
  return lines.join('\n') + '\n'
}

function digestFacts(jsonl: string) {
  const collector = new CostDigestCollector()
  const lines = jsonl.trimEnd().split('\n')
  collector.observeHeader(lines[0] as string)
  for (const line of lines.slice(1)) collector.observeLine(line)
  return collector.facts()
}

/** Every amount of the answer equals the oracle's (to float noise), step by step. */
function expectOracle(cost: SessionCost, jsonl: string, card: RateCard) {
  const seed = (JSON.parse(jsonl.slice(0, jsonl.indexOf('\n'))) as { seedLength?: number }).seedLength ?? 0
  const oracle = directCost(eventsOfJsonl(jsonl), card as never, cost.currency, seed)
  expect(
    cost.steps.map((s) => ({
      label: s.label,
      atSeq: s.atSeq,
      model: s.model,
      period: s.period,
      tokens: s.tokens && { ...s.tokens, reasoning: undefined },
    })),
  ).toStrictEqual(
    oracle.steps.map((s) => ({
      label: s.label,
      atSeq: s.atSeq,
      model: s.model,
      period: s.period,
      tokens: s.tokens && { ...s.tokens, reasoning: undefined },
    })),
  )
  cost.steps.forEach((s, i) => {
    const o = oracle.steps[i]
    if (o?.total == null) expect(s.cost, `step ${s.label}`).toBeNull()
    else expect(s.cost?.total, `step ${s.label}`).toBeCloseTo(o.total, 12)
    if (o?.breakCost === null) expect(s.breakCost, `break of ${s.label}`).toBeNull()
    else expect(s.breakCost, `break of ${s.label}`).toBeCloseTo(o?.breakCost as number, 12)
  })
  expect(cost.summaries.map((s) => s.seq)).toStrictEqual(oracle.summaries.map((s) => s.seq))
  cost.summaries.forEach((s, i) => {
    const o = oracle.summaries[i]?.total
    if (o == null) expect(s.cost).toBeNull()
    else expect(s.cost?.total).toBeCloseTo(o, 12)
  })
  expect(cost.totals.cost.total).toBeCloseTo(oracle.total, 10)
  expect(cost.totals.breakCost).toBeCloseTo(oracle.breakCost, 10)
}

/** The fixtures' own provider and model, priced with round figures in both currencies across the test card's versions. */
const FIXTURE_CARD: RateCard = {
  ...TEST_CARD,
  rates: TEST_CARD.rates.map((r) => ({ ...r, provider: 'deepseek-official', model: 'deepseek-v4-flash' })),
  renames: [],
}

describe.runIf(fixturesAvailable())('cost on every harness fixture', () => {
  for (const fixture of listFixtures()) {
    it(fixture.name, () => {
      const bytes = readFileSync(fixture.path)
      const jsonl = bytes.toString('utf8')
      const log = load(bytes)
      expect(digestFacts(jsonl)).toStrictEqual(costFactsOfLog(log))
      for (const currency of ['CNY', 'USD'] as const) {
        expectOracle(logCost(log, currency), jsonl, builtInRateCard())
        expectOracle(logCost(log, currency, FIXTURE_CARD), jsonl, FIXTURE_CARD)
      }
    })
  }

  it('is the same read from zstd frames', () => {
    for (const fixture of listZstdFixtures()) {
      const log = load(readFileSync(fixture.path))
      const plain = readFileSync(fixture.path.replace('/zstd/', '/').replace(/\.zstd$/, ''), 'utf8')
      expect(costFactsOfLog(log)).toStrictEqual(costFactsOfLog(load(Buffer.from(plain))))
      expect(digestFacts(plainOf(log, plain.slice(0, plain.indexOf('\n'))))).toStrictEqual(costFactsOfLog(log))
    }
  })

  it('prices the fixtures (July 2026) in USD, and says CNY has no rates for them', () => {
    const log = load(readFileSync(listFixtures().find((f) => f.name.startsWith('acp--multi-turn'))?.path as string))
    const usd = logCost(log, 'USD')
    expect(usd.totals.pricedSteps).toBe(2)
    expect(usd.steps.map((s) => s.period)).toStrictEqual(['flat', 'flat'])
    const cny = logCost(log, 'CNY')
    expect(cny.totals.pricedSteps).toBe(0)
    expect(cny.unpriced).toStrictEqual([
      {
        model: 'deepseek-v4-flash',
        provider: 'deepseek-official',
        steps: ['1.1', '2.1'],
        summaries: [],
        reason: expect.stringMatching(
          /^no CNY price for model deepseek-v4-flash at provider deepseek-official from 2026-04-26 12:15 UTC until 2026-08-16 16:00 UTC: the card has only USD rates for that version$/,
        ),
      },
    ])
  })
})

describe('the digest reads a message for its usage alone only when a named header is in force', () => {
  it("takes the model from the message's source when no header names one, as the loaded log does", () => {
    const b = new CostLogBuilder(Date.parse('2026-09-14T02:00:00Z'))
    b.turnStart()
    b.step({ inputTokens: 10, outputTokens: 1 }, { prompt: 'a', model: { provider: 'x', model: 'from-source-1' } })
    b.step(
      { inputTokens: 20, outputTokens: 2 },
      { header: { provider: 'p', model: 'm' }, model: { provider: 'x', model: 'unused' } },
    )
    b.step(
      { inputTokens: 30, outputTokens: 3 },
      { header: { provider: 'p', model: null as unknown as string }, model: { provider: 'x', model: 'from-source-3' } },
    )
    b.step(
      { inputTokens: 40, outputTokens: 4 },
      { header: { provider: 'p', model: 'm' }, model: { provider: 'x', model: 'unused' } },
    )
    b.turnEnd()
    const jsonl = b.jsonl()
    const facts = costFactsOfLog(load(Buffer.from(jsonl)))
    expect(digestFacts(jsonl)).toStrictEqual(facts)
    expect(facts.steps.map((s) => `${s.provider}/${s.model}`)).toStrictEqual(['x/from-source-1', 'p/m', 'x/from-source-3', 'p/m'])
    expect(facts.steps.map((s) => s.usage?.input)).toStrictEqual([10, 20, 30, 40])
  })
})

/** The generator's provider and models, priced like the test card, the reasoner at twice the chat's rates. */
const GENERATED_CARD: RateCard = {
  ...TEST_CARD,
  rates: TEST_CARD.rates.flatMap((r) => [
    { ...r, provider: 'deepseek', model: 'deepseek-chat' },
    {
      ...r,
      provider: 'deepseek',
      model: 'deepseek-reasoner',
      USD: JSON.parse(JSON.stringify(r.USD, (_, v) => (typeof v === 'number' ? v * 2 : v))),
    },
  ]),
  renames: [],
}

describe('cost on generated logs (compactions, prunes, header changes, retries)', () => {
  const starts: [string, string, string[]][] = [
    ['across the rate-version boundary (2026-08-16 16:00 UTC)', '2026-08-16T15:45:00Z', ['flat', 'off-peak']],
    ['across 09:00 Beijing on a Monday', '2026-09-14T00:50:00Z', ['off-peak', 'peak']],
    ['across 12:00 Beijing', '2026-09-14T03:50:00Z', ['off-peak', 'peak']],
    ['on a Saturday', '2026-09-19T02:00:00Z', ['off-peak']],
    ['on a listed holiday (2026-10-01)', '2026-10-01T02:00:00Z', ['off-peak']],
  ]
  for (const [what, start, periods] of starts) {
    it(what, () => {
      const session = generateSession({
        seed: Date.parse(start) % 997,
        targetEvents: 20_000,
        createdAt: Date.parse(start),
        retryEverySteps: 7,
        compactionEveryTurns: 5,
        pruneEveryTurns: 3,
        headerChangeEveryTurns: 4,
      })
      const jsonl = toJsonl(session)
      const log = load(Buffer.from(jsonl))
      const cost = logCost(log, 'USD', GENERATED_CARD)
      expect(digestFacts(jsonl)).toStrictEqual(costFactsOfLog(log))
      expectOracle(cost, jsonl, GENERATED_CARD)
      expect(cost.totals.unpricedSteps).toBe(0)
      expect(cost.totals.breaks).toBeGreaterThan(0)
      expect(cost.compactions.length).toBeGreaterThan(0)
      expect([...new Set(cost.steps.map((s) => s.period))].sort()).toStrictEqual(periods)
    })
  }
})
