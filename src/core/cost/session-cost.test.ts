/**
 * The cost answer on logs whose figures are known by construction (test-support/cost-log-builder.ts, the test card's
 * round rates: 1 per cache-miss token, 0.1 per hit, 2 per output token): a compaction that pays back at a known step
 * and one that never does, what a break re-bills, retried attempts, a fork's seed, a model the card does not know.
 */

import { describe, expect, it } from 'vitest'
import { CostLogBuilder } from '../../test-support/cost-log-builder.ts'
import { TEST_CARD } from '../../test-support/cost-test-card.ts'
import { LensLog } from '../log/lens-log.ts'
import { logCost } from './log-cost.ts'

const JUNE = Date.parse('2026-06-01T00:00:00Z') // the test card's flat version
const HEADER = { provider: 'p', model: 'm' }

function costOf(b: CostLogBuilder, currency: 'CNY' | 'USD' = 'USD') {
  const log = new LensLog()
  log.push(new TextEncoder().encode(b.jsonl()))
  log.finish()
  expect(log.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([])
  return logCost(log, currency, TEST_CARD)
}

/**
 * Two steps (the second's prompt 30,000 tokens: 10,000 missed, 20,000 read), a compaction taking off 20,000 logged
 * tokens with a summary call of 1,000 in and 100 out (cost 1,200), then a first request that read 2,000 from the
 * cache and missed 6,000: 30,000 - 20,000 - 2,000 = 8,000 of its previous request's tokens came after the break, at
 * most its 6,000 misses, re-billed at 1 - 0.1: a break of 5,400. Then `later` more steps, each saving the ~20,000
 * tokens taken off at the hit rate (~2,000).
 */
function compacted(later: number): CostLogBuilder & { checkpoint: number } {
  const b = new CostLogBuilder(JUNE).at(JUNE) as CostLogBuilder & { checkpoint: number }
  b.turnStart()
  b.step({ inputTokens: 9_000, cacheReadTokens: 0, outputTokens: 100 }, { prompt: 'task', header: HEADER, resultSize: 400 })
  b.step({ inputTokens: 10_000, cacheReadTokens: 20_000, outputTokens: 100 }, { resultSize: 400 })
  b.checkpoint = b.compaction(0, 2, 20_000, { inputTokens: 1_000, outputTokens: 100 })
  b.step({ inputTokens: 6_000, cacheReadTokens: 2_000, outputTokens: 50 }, { resultSize: 10 })
  for (let i = 0; i < later; i++) b.step({ inputTokens: 100, cacheReadTokens: 10_000, outputTokens: 50 }, { resultSize: 10 })
  b.turnEnd()
  return b
}

describe('a compaction pays back', () => {
  it('at the step where its savings first reach its summary call and its break', () => {
    const b = compacted(6)
    const cost = costOf(b)
    const [c] = cost.compactions
    expect(c).toMatchObject({
      seq: b.checkpoint,
      summarySeq: b.checkpoint - 1,
      compactionId: 'compaction-1',
      summaryCost: 1_200,
      firstStep: '1.3',
    })
    expect(c?.breakCost).toBeCloseTo(5_400, 9)
    // The summary's own few tokens are not taken off: a little under 20,000 saved on each later request.
    expect(c?.savedTokens).toBeGreaterThan(19_900)
    expect(c?.savedTokens).toBeLessThan(20_000)
    const perStep = ((c?.savedTokens as number) * 0.1 * 1e6) / 1e6
    expect(c?.savedPerStep).toBeCloseTo(perStep, 9)
    // 1.3, 1.4, 1.5 save ~5,990 < 6,600; with 1.6 ~7,990 >= 6,600.
    expect(c?.paidBackAtStep).toBe('1.6')
    expect(c?.balance).toBeCloseTo(7 * perStep - 6_600, 9)
    expect(cost.steps[2]).toMatchObject({ breakTokens: 6_000, breakCause: `compaction summary (seq ${b.checkpoint})` })
  })

  it('never, when the session ends first: the balance is what is still owed', () => {
    const cost = costOf(compacted(1))
    const [c] = cost.compactions
    expect(c?.paidBackAtStep).toBeNull()
    expect(c?.balance).toBeCloseTo(2 * (c?.savedPerStep as number) - 6_600, 9)
    expect(c?.balance).toBeLessThan(-2_000)
  })

  it('stops saving where a later compaction takes its summary off', () => {
    const b = compacted(1)
    b.turnStart()
    b.compaction(0, 1, 500, { inputTokens: 10, outputTokens: 10 }) // the first summary and the step after it
    for (let i = 0; i < 10; i++) b.step({ inputTokens: 100, cacheReadTokens: 1_000, outputTokens: 10 }, { resultSize: 10 })
    b.turnEnd()
    const [first] = costOf(b).compactions
    expect(first?.paidBackAtStep).toBeNull()
    expect(first?.balance).toBeCloseTo(2 * (first?.savedPerStep as number) - 6_600, 9)
  })
})

describe('steps', () => {
  it('are priced at their request instant: every attempt that logged usage, output with its reasoning', () => {
    const b = new CostLogBuilder(JUNE).at(JUNE)
    b.turnStart()
    const failed = { inputTokens: 500, outputTokens: 0 }
    b.step(
      { inputTokens: 1_000, cacheReadTokens: 3_000, cacheWriteTokens: 10, outputTokens: 200, reasoningTokens: 150 },
      { prompt: 'x', header: HEADER, retries: [failed] },
    )
    b.turnEnd()
    const [step] = costOf(b).steps
    expect(step?.tokens).toStrictEqual({ input: 1_500, cacheRead: 3_000, cacheWrite: 10, output: 200, reasoning: 150 })
    // Misses and writes at 1, hits at 0.1, output (reasoning inside it) at 2.
    expect(step?.cost).toStrictEqual({ currency: 'USD', input: 1_510, cacheRead: 300, output: 400, total: 2_210 })
    expect(costOf(b, 'CNY').steps[0]?.cost?.total).toBeCloseTo(7 * 2_210, 9)
    expect(costOf(b).notes).toContain('1 step was retried after an attempt that logged usage: every attempt is counted')
  })

  it('re-bill the previous request after a header change or a prune, not after appends', () => {
    const b = new CostLogBuilder(JUNE).at(JUNE)
    b.turnStart()
    b.step({ inputTokens: 1_000, outputTokens: 10 }, { prompt: 'x', header: HEADER, resultSize: 9_000 })
    b.step({ inputTokens: 2_400, cacheReadTokens: 1_000, outputTokens: 10 }, { resultSize: 10 })
    const pruned = b.prune(2, 2_250) // the first step's big result, in the previous request
    b.step({ inputTokens: 1_000, cacheReadTokens: 900, outputTokens: 10 })
    b.step({ inputTokens: 2_000, cacheReadTokens: 0, outputTokens: 10 }, { header: { ...HEADER, model: 'old' } })
    b.turnEnd()
    const steps = costOf(b).steps
    expect(steps.map((s) => [s.breakCause, s.breakTokens])).toStrictEqual([
      [null, null],
      [null, null],
      // 3,400 - 2,250 taken off - 900 read = 250 re-billed.
      [`prune (seq ${pruned})`, 250],
      // The model changed: nothing of the previous 1,900 was cached for the new one, at most its 2,000 misses.
      ['header changed: model', 1_900],
    ])
    expect(steps[2]?.breakCost).toBeCloseTo(225, 9)
    // `old` is billed as `m` by the card's rename.
    expect(steps[3]).toMatchObject({ model: 'old', billedModel: 'm', breakCost: 1_710 })
  })

  it('of a model the card does not know keep their tokens and get no price, said in words', () => {
    const b = new CostLogBuilder(JUNE).at(JUNE)
    b.turnStart()
    b.step({ inputTokens: 1_000, outputTokens: 10 }, { prompt: 'x', header: { provider: 'local', model: 'qwen3' } })
    b.step(null)
    b.turnEnd()
    const cost = costOf(b)
    expect(cost.steps[0]).toMatchObject({
      cost: null,
      tokens: { input: 1_000 },
      unpriced: 'no price for model qwen3 at provider local',
    })
    expect(cost.unpriced).toStrictEqual([
      { model: 'qwen3', provider: 'local', steps: ['1.1'], summaries: [], reason: 'no price for model qwen3 at provider local' },
    ])
    expect(cost.notes).toStrictEqual([
      'no price for model qwen3 at provider local',
      '1 step logged no usage (1.2): no tokens, no cost',
    ])
    expect(cost.totals).toMatchObject({ pricedSteps: 0, unpricedSteps: 2, cost: { total: 0 } })
  })

  it("of a fork's seed are the parent's: not counted", () => {
    const parent = new CostLogBuilder(JUNE).at(JUNE)
    parent.turnStart()
    parent.step({ inputTokens: 1_000, outputTokens: 10 }, { prompt: 'x', header: HEADER })
    parent.turnEnd()
    const seedLength = parent.events.length
    const fork = new CostLogBuilder(JUNE, { id: 'fork', cwd: '/w', parentSession: 'session-cost-test', seedLength })
    fork.events.push(...parent.events)
    fork.at(JUNE + 60_000).turnStart()
    fork.step({ inputTokens: 50, cacheReadTokens: 1_010, outputTokens: 5 }, { prompt: 'y' })
    fork.turnEnd()
    const cost = costOf(fork)
    expect(cost.steps.map((s) => [s.label, s.atSeq])).toStrictEqual([['1.1', seedLength + 3]])
    expect(cost.totals.cost.total).toBeCloseTo(50 + 101 + 10, 9)
    expect(cost.notes).toContain("1 call in the seed this session copied from its parent: the parent's spend, not counted")
  })
})
