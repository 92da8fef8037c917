// The generator's contract: logs the harness's own fold accepts, that our LensLog folds identically,
// with the replace shapes the demo must show and the chunk share of real sessions.
import { describe, expect, it } from 'vitest'
import { foldSurface } from '@deepseek-ai/dsh-session/surface'
import { LensLog, loadContentChecksum } from '../core/index.ts'
import {
  demoSessionJsonl,
  generatePreset,
  generateSession,
  presetOptions,
  toJsonl,
  type GeneratedEvent,
  type GeneratedSession,
} from './index.ts'
import { expandGeneratedSession as expand } from '../test-support/expanded-events.ts'

async function lensLogOf(session: GeneratedSession): Promise<LensLog> {
  const log = new LensLog({ checksum: await loadContentChecksum() })
  log.push(new TextEncoder().encode(toJsonl(session)))
  log.finish()
  return log
}

type HarnessEvents = Parameters<typeof foldSurface>[0]

const cases = [
  ['demo', 1],
  ['demo', 7],
  ['demo', 42],
  ['10k', 1],
  ['10k', 2],
] as const

describe('generateSession', () => {
  for (const [preset, seed] of cases) {
    it(`${preset} seed ${seed}: the harness accepts it and LensLog folds it identically`, async () => {
      const session = generatePreset(preset, seed)
      const events = expand(session)
      expect(events.map((e) => e.seq)).toStrictEqual(events.map((_, i) => i))
      expect(session.eventCount).toBe(events.length)
      const harness = foldSurface(events as unknown as HarnessEvents)
      const log = await lensLogOf(session)
      expect(log.diagnostics).toStrictEqual([])
      expect(log.fold.firstViolation).toBeUndefined()
      expect(log.length).toBe(events.length)
      expect(log.strictLength).toBe(events.length)
      expect(log.surfaceSeqsAfter(log.length - 1)).toStrictEqual(harness.nodes)
      const ours = log
        .replacementsAfter(log.length - 1)
        .map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] }))
      expect(ours).toStrictEqual(harness.replacements)
      expect(harness.replacements.length).toBeGreaterThan(0)
    })
  }

  it('packing is lossless: packed rows expand to exactly the unpacked events', () => {
    for (const preset of ['demo', '10k'] as const) {
      const packed = generatePreset(preset, 3)
      const plain = generateSession({ ...presetOptions(preset, 3), pack: false })
      expect(plain.batches.flat().some((r) => 'seq0' in r)).toBe(false)
      expect(JSON.stringify(expand(packed))).toBe(JSON.stringify(expand(plain)))
      expect(packed.batches.length).toBe(plain.batches.length)
    }
  })

  it('is reproducible from its seed', () => {
    expect(demoSessionJsonl()).toBe(demoSessionJsonl())
    expect(toJsonl(generatePreset('demo', 1))).not.toBe(toJsonl(generatePreset('demo', 2)))
  })

  it('writes the header and envelopes with the harness key order', () => {
    const session = generatePreset('demo', 7)
    expect(Object.keys(session.header)).toStrictEqual(['type', 'version', 'id', 'createdAt', 'cwd', 'delegationDepth'])
    for (const record of session.batches.flat()) {
      const keys = Object.keys(record)
      if ('seq0' in record) {
        expect(keys).toStrictEqual(['type', 'seq0', 'time0', 'data'])
        const dataKeys = Object.keys(record.data)
        expect(dataKeys.slice(0, 4)).toStrictEqual(['turn', 'step', 'index', 'dt'])
      } else {
        const order = ['type', 'seq', 'time', 'data', 'sourceEventSeqs', 'surfaceOp']
        expect(keys).toStrictEqual(order.filter((k) => keys.includes(k)))
      }
    }
    expect(session.batches.every((b) => b.length > 0)).toBe(true)
  })

  it('the demo has nested summaries, a manual /compact, prunes and an empty max-tokens message', () => {
    const session = generatePreset('demo', 7)
    const events = expand(session)
    const { replacements } = foldSurface(events as unknown as HarnessEvents)
    expect(replacements.length).toBeGreaterThanOrEqual(3)
    const replacementSeqs = new Set(replacements.map((r) => r.seq))
    expect(replacements.some((r) => r.shadowedSeqs.some((s) => replacementSeqs.has(s)))).toBe(true)
    const byType = (type: string): GeneratedEvent[] => events.filter((e) => e.type === type)
    const prunes = byType('compaction/prune')
    expect(prunes.length).toBeGreaterThanOrEqual(1)
    for (const prune of prunes) {
      const next = events[prune.seq + 1] as GeneratedEvent
      expect(next.type).toBe('tool/result')
      expect(next.surfaceOp).toMatchObject({ op: 'replace' })
    }
    for (const summary of byType('compaction/summary')) {
      const checkpoint = events[summary.seq + 1] as GeneratedEvent
      expect(checkpoint.type).toBe('user/message')
      expect(checkpoint.sourceEventSeqs?.[1]).toBe(summary.seq)
      expect(events[summary.seq + 2]?.type).toBe('compaction/end')
    }
    const done = byType('command/done')[0]?.data as { sourceEventSeq?: number } | undefined
    expect(events[done?.sourceEventSeq ?? -1]?.type).toBe('compaction/summary')
    expect(events[done?.sourceEventSeq ?? -1]?.data).toMatchObject({ sourceCommandId: expect.any(String) })
    const empty = byType('assistant/message').filter(
      (e) => (e.data as { message: { content: unknown[] } }).message.content.length === 0,
    )
    expect(empty.length).toBeGreaterThanOrEqual(1)
    const after = events.slice((empty[0] as GeneratedEvent).seq).find((e) => e.type === 'turn/end')
    expect(after?.data).toMatchObject({ reason: { kind: 'max-tokens' } })
    expect(events.length).toBeGreaterThan(200)
    expect(events.length).toBeLessThan(1500)
  })

  it('10k: about 96% of events are delta chunks, and a few tool results are large', () => {
    const session = generatePreset('10k', 1)
    const events = expand(session)
    const deltas = events.filter((e) => {
      if (e.type !== 'assistant/chunk') return false
      const kind = (e.data as { chunk: { type: string } }).chunk.type
      return kind === 'text-delta' || kind === 'reasoning-delta' || kind === 'tool-call-delta'
    }).length
    const share = deltas / events.length
    expect(share).toBeGreaterThan(0.93)
    expect(share).toBeLessThan(0.985)
    const resultBytes = events.filter((e) => e.type === 'tool/result').map((e) => JSON.stringify(e.data).length)
    expect(Math.max(...resultBytes)).toBeGreaterThan(500_000)
  })

  it("280k-short: short turns with a request header each and a compaction every fourth, still the harness's log", async () => {
    // The preset's knobs on a 20k-event log (the bench checks the full log against the harness the same way).
    const session = generateSession({ ...presetOptions('280k-short', 1), targetEvents: 20_000 })
    const events = expand(session)
    const harness = foldSurface(events as unknown as HarnessEvents)
    const log = await lensLogOf(session)
    expect(log.diagnostics).toStrictEqual([])
    expect(log.surfaceSeqsAfter(log.length - 1)).toStrictEqual(harness.nodes)
    const count = (type: string): number => events.filter((e) => e.type === type).length
    const turns = count('turn/start')
    expect(count('request/header')).toBe(turns)
    expect(count('step/start') / turns).toBeGreaterThan(1.7)
    expect(count('step/start') / turns).toBeLessThan(2.3)
    expect(count('compaction/summary')).toBe(Math.floor(turns / 4))
    expect(events.length / count('step/start')).toBeLessThan(60)
    expect(session.batches.flat().some((r) => 'seq0' in r)).toBe(true)
  })

  it('timing shapes: retries, parallel calls, clock jumps and a crash in a tool call stay logs the harness accepts', async () => {
    const options = {
      ...presetOptions('demo', 5),
      retryEverySteps: 2,
      parallelTools: true,
      clockJumpEveryTurns: 2,
      endInToolCall: true,
    }
    const session = generateSession(options)
    const events = expand(session)
    const harness = foldSurface(events as unknown as HarnessEvents)
    const log = await lensLogOf(session)
    expect(log.fold.firstViolation).toBeUndefined()
    expect(log.surfaceSeqsAfter(log.length - 1)).toEqual(harness.nodes)
    // The only finding: the log ends inside the turn whose tool call never returned.
    expect(log.diagnostics.map((d) => d.code)).toEqual(['open-turn'])
    const byType = (type: string) => events.filter((e) => e.type === type)
    expect(byType('llm/retry').length).toBe(byType('llm/retry-started').length)
    expect(byType('llm/retry').length).toBeGreaterThan(3)
    expect(events.at(-1)?.type).toBe('tool/call')
    // Parallel: some step dispatches a second call before the first result.
    expect(events.some((e, i) => e.type === 'tool/call' && events[i - 1]?.type === 'tool/call')).toBe(true)
    // The clock steps back somewhere (never by the batching alone: those logs only move forward).
    expect(events.some((e, i) => i > 0 && e.time < (events[i - 1] as GeneratedEvent).time)).toBe(true)
    const plain = expand(generatePreset('demo', 5))
    expect(plain.every((e, i) => i === 0 || e.time >= (plain[i - 1] as GeneratedEvent).time)).toBe(true)
  })
})
