/**
 * The cost queries through the real protocol (the in-thread client runs the worker's host), on the bundled demo: the
 * whole session, one step and one compaction are the core's `logCost` in the asked currency; the strip's running
 * total adds every priced call in log order; a compaction is found by its checkpoint or its summary event; a custom
 * card is used until the built-in one is asked back, and a malformed one is refused with the reason.
 */

import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, logCost, payBackSentence, roundAmount } from '../core/index.ts'
import { demoSessionJsonl } from '../generate/index.ts'
import type { LensClient } from '../protocol/lens-client.ts'
import { streamInto } from '../test-support/worker-stream.ts'
import { createInThreadClient } from '../worker/in-thread-client.ts'

// The bundled demo, generated (a fresh clone has no public/demo/ until `npm run demo`).
const BYTES = new TextEncoder().encode(demoSessionJsonl())
const log = new LensLog({ checksum: await loadContentChecksum() })
log.push(BYTES)
log.finish()

let client: LensClient | undefined
afterEach(() => client?.dispose())

async function loaded(): Promise<LensClient> {
  const c = createInThreadClient()
  client = c
  await streamInto(c, [BYTES], false, true)
  return c
}

describe('cost queries', () => {
  it('cost: the core totals, every call in log order with its running total, the other currency', async () => {
    const c = await loaded()
    for (const currency of ['CNY', 'USD'] as const) {
      const answer = await c.query('cost', { currency })
      const core = logCost(log, currency)
      expect(answer.currency).toBe(currency)
      expect(answer.totals).toStrictEqual(core.totals)
      expect(answer.unpriced).toStrictEqual(core.unpriced)
      expect(answer.calls.labels.length).toBe(core.steps.length + core.summaries.length)
      const index = [...answer.calls.index]
      expect(index).toStrictEqual([...index].sort((a, b) => a - b))
      const spent = answer.calls.total[answer.calls.total.length - 1] ?? 0
      expect(roundAmount(spent)).toBe(roundAmount(core.totals.cost.total))
      expect(answer.compactions.map((m) => [m.seq, m.sentence])).toStrictEqual(
        core.compactions.map((m) => [m.seq, payBackSentence(m, currency)]),
      )
      // Breaks that are no compaction's: the demo's prune at step 2.1.
      expect(answer.breaks.map((b) => b.label)).toContain('2.1')
      const other = logCost(log, currency === 'CNY' ? 'USD' : 'CNY')
      expect(answer.other.total).toBe(other.totals.cost.total)
    }
  })

  it('step-cost: one step as the core prices it, null for a step the log does not have', async () => {
    const c = await loaded()
    const core = logCost(log, 'USD')
    const step = core.steps.find((s) => s.label === '3.1')
    expect(step?.breakCauses.some((b) => b.kind === 'compaction')).toBe(true)
    const answer = await c.query('step-cost', { turn: 3, step: 1, currency: 'USD' })
    expect(answer.step).toStrictEqual(step)
    expect(answer.otherPrices).toBe(false)
    expect((await c.query('step-cost', { turn: 99, step: 1, currency: 'USD' })).step).toBeNull()
  })

  it('compaction-cost: found by its checkpoint and by its summary event; null elsewhere', async () => {
    const c = await loaded()
    const core = logCost(log, 'CNY')
    const first = core.compactions[0]
    if (first === undefined || first.summarySeq === null) throw new Error('the demo has a compaction with a summary call')
    const byCheckpoint = await c.query('compaction-cost', { seq: first.seq, currency: 'CNY' })
    const bySummary = await c.query('compaction-cost', { seq: first.summarySeq, currency: 'CNY' })
    expect(byCheckpoint.compaction?.sentence).toBe(payBackSentence(first, 'CNY'))
    expect(bySummary).toStrictEqual(byCheckpoint)
    expect((await c.query('compaction-cost', { seq: 0, currency: 'CNY' })).compaction).toBeNull()
  })

  it('rate-card: a custom card prices until the built-in one is asked back; a malformed one is refused', async () => {
    const c = await loaded()
    const builtIn = await c.query('cost', { currency: 'CNY' })
    const card = JSON.parse(readFileSync(new URL('../core/cost/rate-card.json', import.meta.url), 'utf8')) as {
      version: string
    }
    const info = await c.query('rate-card', { card: JSON.stringify({ ...card, version: 'custom-1' }) })
    expect(info).toStrictEqual({ version: 'custom-1', checked: builtIn.rateCard.checked, custom: true })
    expect((await c.query('cost', { currency: 'CNY' })).rateCard.version).toBe('custom-1')
    await expect(c.query('rate-card', { card: '{"schema":' })).rejects.toThrow(/rate card/)
    expect((await c.query('rate-card', { card: null })).custom).toBe(false)
    expect((await c.query('cost', { currency: 'CNY' })).rateCard).toStrictEqual(builtIn.rateCard)
  })
})
