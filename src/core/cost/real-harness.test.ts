/**
 * Cost on what the real harness writes and reads: its own DeepSeek adapter maps the provider's wire usage
 * (`prompt_cache_hit_tokens`, `prompt_cache_miss_tokens`, `completion_tokens`, reasoning tokens) onto the usage it logs,
 * and a step priced from that usage costs what the wire counts cost at the card's rates; and sessions the harness
 * writes (../shared/real-dsh, a private DSH_HOME each), with and without --compact, cost the same read as a folded
 * log, read line by line, and read by the oracle.
 */

import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { directCost } from '../../test-support/cost-oracle.ts'
import { eventsOfJsonl } from '../../test-support/expanded-events.ts'
import { ensureRealDsh, realDshAvailable, realHarnessLog } from '../../test-support/real-dsh.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { CostDigestCollector } from './cost-digest.ts'
import { tokenCountsOf } from './cost-facts.ts'
import { costFactsOfLog } from './log-facts.ts'
import { logCost } from './log-cost.ts'
import { builtInRateCard } from './rate-card.ts'
import { ratesAt, type PricedAt } from './rates-at.ts'
import { priceTokens } from './session-cost.ts'

const checksum = await loadContentChecksum()
const RUN_TIMEOUT_MS = 240_000
const REAL_DSH_DIR = process.env['REAL_DSH_DIR'] ?? join(homedir(), '.cache', 'dsh-lens', 'real-dsh')
const DRIVER = fileURLToPath(new URL('../../test-support/deepseek-adapter-usage.mjs', import.meta.url))

/** The usage the harness's DeepSeek adapter yields for one wire usage object. */
function adapterUsage(wire: Record<string, unknown>): unknown[] {
  const node = ['x64', 'arm64'].map((arch) => join(REAL_DSH_DIR, `node_modules/node-linux-${arch}/bin/node`)).find(existsSync)
  if (node === undefined) throw new Error(`no harness Node in ${REAL_DSH_DIR}`)
  return JSON.parse(
    execFileSync(node, [DRIVER, JSON.stringify(wire)], { env: { ...process.env, REAL_DSH_DIR }, encoding: 'utf8' }),
  ) as unknown[]
}

describe.runIf(realDshAvailable())("the harness's DeepSeek adapter: wire usage to logged usage to money", () => {
  const at = Date.parse('2026-09-14T01:30:00Z') // 09:30 Beijing, a Monday: peak
  const wires = [
    {
      prompt_tokens: 283,
      completion_tokens: 69,
      prompt_cache_hit_tokens: 256,
      prompt_cache_miss_tokens: 27,
      completion_tokens_details: { reasoning_tokens: 24 },
    },
    { prompt_tokens: 120_000, completion_tokens: 900, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 120_000 },
    {
      prompt_tokens: 50_000,
      completion_tokens: 10,
      prompt_cache_hit_tokens: 49_990,
      prompt_cache_miss_tokens: 10,
      prompt_tokens_details: { cached_tokens: 49_990 },
    },
  ]
  it(
    'bills misses, hits and output (reasoning inside it) as the wire counts them',
    async () => {
      await ensureRealDsh()
      for (const wire of wires) {
        const [usage, ...more] = adapterUsage(wire)
        expect(more).toStrictEqual([])
        const tokens = tokenCountsOf(usage)
        // The harness's counts are disjoint: input is the misses alone; no cache-write count from DeepSeek.
        expect(tokens).toStrictEqual({
          input: wire.prompt_cache_miss_tokens,
          cacheRead: wire.prompt_cache_hit_tokens,
          cacheWrite: 0,
          output: wire.completion_tokens,
          reasoning: wire.completion_tokens_details?.reasoning_tokens ?? null,
        })
        for (const currency of ['CNY', 'USD'] as const) {
          const { rates } = ratesAt(builtInRateCard(), 'deepseek-official', 'deepseek-flash', at, currency) as PricedAt
          const wireCost =
            (wire.prompt_cache_miss_tokens * rates.inputMiss +
              wire.prompt_cache_hit_tokens * rates.inputHit +
              wire.completion_tokens * rates.output) /
            1e6
          expect(priceTokens(tokens as NonNullable<typeof tokens>, rates, currency).total).toBeCloseTo(wireCost, 12)
        }
      }
    },
    RUN_TIMEOUT_MS,
  )
})

describe.runIf(realDshAvailable())('cost on real-harness sessions', () => {
  const cases = [
    { prompt: 'LOOP2 count', compact: false },
    { prompt: 'SPAWN hello', compact: false },
    { prompt: 'BIG LOOP2 summarize', compact: true },
  ]
  for (const c of cases) {
    it(
      `${c.compact ? '--compact ' : ''}"${c.prompt}"`,
      () => {
        const real = realHarnessLog(c.prompt, { compact: c.compact })
        const log = new LensLog({ checksum })
        log.push(real.zstd)
        log.finish()
        const digest = new CostDigestCollector()
        const lines = real.jsonl.trimEnd().split('\n')
        digest.observeHeader(lines[0] as string)
        for (const line of lines.slice(1)) digest.observeLine(line)
        expect(digest.facts()).toStrictEqual(costFactsOfLog(log))
        for (const currency of ['CNY', 'USD'] as const) {
          const cost = logCost(log, currency)
          const oracle = directCost(eventsOfJsonl(real.jsonl), builtInRateCard() as never, currency)
          expect(cost.steps.map((s) => s.period)).toStrictEqual(oracle.steps.map((s) => s.period))
          cost.steps.forEach((s, i) => expect(s.cost?.total).toBeCloseTo(oracle.steps[i]?.total as number, 12))
          expect(cost.totals.cost.total).toBeCloseTo(oracle.total, 10)
          expect(cost.totals.breakCost).toBeCloseTo(oracle.breakCost, 10)
          // Written today with deepseek-v4-flash: billed as deepseek-flash, every step priced.
          expect(cost.totals.unpricedSteps).toBe(0)
          expect(cost.byModel.map((m) => [m.model, m.billedAs])).toStrictEqual([['deepseek-v4-flash', ['deepseek-flash']]])
        }
        // Every logged usage is the harness's TokenUsage: these fields and no others.
        for (const event of eventsOfJsonl(real.jsonl) as { type: string; data?: { usage?: object } }[])
          if (event.type === 'assistant/message' && event.data?.usage !== undefined)
            for (const key of Object.keys(event.data.usage))
              expect(['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens']).toContain(key)
        const cost = logCost(log, 'CNY')
        if (c.compact) {
          expect(cost.summaries.length).toBeGreaterThan(0)
          expect(cost.summaries.every((s) => s.cost !== null && s.provider === 'deepseek-official')).toBe(true)
          expect(cost.compactions.length).toBe(cost.summaries.length)
          expect(cost.totals.breaks).toBeGreaterThan(0)
          expect(cost.compactions.every((p) => p.balance !== null)).toBe(true)
        } else expect(cost.totals.breaks).toBe(0)
      },
      RUN_TIMEOUT_MS,
    )
  }
})
