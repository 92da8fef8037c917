/**
 * Timing against a direct reading of the events' times (src/test-support/timing-oracle.ts): on every real fixture
 * (plain and zstd), on generated logs with retries, parallel tool calls, clock jumps and a call never answered
 * (packed and unpacked), and on small hand-made logs for the rules one at a time. The steps are the Request view's:
 * the same `atSeq` and the same usage as `stepList`.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { eventsOfJsonl, expandGeneratedSession } from '../../test-support/expanded-events.ts'
import { toJsonlBytes } from '../../test-support/log-builder.ts'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { directTiming } from '../../test-support/timing-oracle.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { generateSession, presetOptions, toJsonl, type GenerateOptions } from '../../generate/index.ts'
import { stepList } from '../request/step-request.ts'
import { LensLog } from '../log/lens-log.ts'
import { stepTimings, timingJson, type TimingJson } from './step-timing.ts'

const checksum = await loadContentChecksum()

function load(bytes: Uint8Array, slices = 1): LensLog {
  const log = new LensLog({ checksum })
  const size = Math.ceil(bytes.length / slices)
  for (let at = 0; at < bytes.length; at += size) log.push(bytes.subarray(at, at + size))
  log.finish()
  return log
}

/** Timing must equal the direct reading, and its steps be the Request view's. */
function expectDirect(log: LensLog, events: readonly unknown[]): TimingJson {
  const steps = stepList(log)
  const timing = timingJson(log)
  expect(timing).toStrictEqual(
    directTiming(
      events,
      steps.map((s) => s.usage),
    ),
  )
  expect(timing.steps.map((s) => s.atSeq)).toStrictEqual(steps.map((s) => s.atSeq))
  return timing
}

describe.runIf(fixturesAvailable())('timing on every real fixture equals a direct reading of its times', () => {
  const fixtures = listFixtures()
  it('the fixtures have timed steps, tools, a retry and clock oddities to check', () => {
    const all = fixtures.map((f) => timingJson(load(readFileSync(f.path))))
    expect(all.filter((t) => t.steps.some((s) => s.ttftMs !== null)).length).toBeGreaterThan(20)
    expect(all.filter((t) => t.steps.some((s) => s.tools.some((tool) => tool.ms !== null))).length).toBeGreaterThan(20)
    expect(all.some((t) => t.totals.retries > 0)).toBe(true)
    expect(all.some((t) => t.warnings.some((w) => w.code === 'clock-backwards'))).toBe(true)
    expect(all.some((t) => t.warnings.some((w) => w.code === 'clock-zero'))).toBe(true)
  })
  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const bytes = readFileSync(fixture.path)
      expectDirect(load(bytes, 3), eventsOfJsonl(bytes.toString('utf8')))
    })
  }
  for (const fixture of listZstdFixtures()) {
    it(`zstd/${fixture.name}: as its plain twin`, () => {
      const plain = readFileSync(fixture.path.replace('/zstd/', '/').replace(/\.zstd$/, ''))
      expect(timingJson(load(readFileSync(fixture.path), 2))).toStrictEqual(timingJson(load(plain)))
    })
  }
})

describe('timing on generated logs with retries, parallel calls, clock jumps and an unanswered call', () => {
  const options: GenerateOptions = {
    ...presetOptions('demo', 1),
    targetEvents: 3_000,
    stepsPerTurn: [1, 4],
    retryEverySteps: 3,
    parallelTools: true,
    clockJumpEveryTurns: 2,
    endInToolCall: true,
  }
  for (const seed of [1, 2, 3]) {
    for (const pack of [true, false]) {
      it(`seed ${seed}${pack ? ', packed' : ', unpacked'}`, () => {
        const session = generateSession({ ...options, seed, pack })
        const events = expandGeneratedSession(session)
        const timing = expectDirect(load(new TextEncoder().encode(toJsonl(session)), 4), events)
        const steps = timing.steps
        // The shapes are really there, so the equality above covers them.
        expect(timing.totals.retries).toBeGreaterThan(5)
        expect(steps.some((s) => s.retries.length > 0 && s.ttftMs !== null)).toBe(true)
        expect(timing.warnings.find((w) => w.code === 'clock-backwards')?.count).toBeGreaterThan(3)
        // A backward jump before the first token, inside a tool call: those durations are unknown, not negative.
        expect(steps.some((s) => s.requestAt !== null && s.firstOutputAt !== null && s.ttftMs === null)).toBe(true)
        expect(steps.some((s) => s.tools.some((t) => t.ms === null))).toBe(true)
        expect(
          steps.every((s) => [s.ttftMs, s.generationMs, ...s.tools.map((t) => t.ms)].every((ms) => ms === null || ms >= 0)),
        ).toBe(true)
        // The session ends inside its last tool call: unanswered.
        expect(steps.at(-1)?.tools.at(-1)?.ms).toBeNull()
        // Parallel calls: the second was dispatched before the first one's result.
        const timed = stepTimings(load(new TextEncoder().encode(toJsonl(session))))
        expect(timed.some((s) => s.tools.length > 1 && (s.tools[1]?.callIndex ?? 0) < (s.tools[0]?.resultIndex ?? 0))).toBe(true)
      })
    }
  }
})

/** A tiny log: one turn, one step, built line by line with explicit times. */
function tinyLog(body: Record<string, unknown>[]): LensLog {
  return load(toJsonlBytes(body))
}

const msg = (seq: number, time: number, usage?: Record<string, number>, content: unknown[] = [{ type: 'text', text: 'hi' }]) => ({
  type: 'assistant/message',
  seq,
  time,
  data: {
    turn: 1,
    step: 1,
    message: { id: `m${seq}`, role: 'assistant', content, source: { kind: 'model', provider: 'p', model: 'm' } },
    ...(usage === undefined ? {} : { usage }),
  },
  surfaceOp: 'append',
})

describe('timing rules', () => {
  it('a step whose first output is a packed row: the first output is the row time0, requestAt the event before', () => {
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 1010, data: { turn: 1, step: 1 } },
      { type: 'request/context', seq: 2, time: 1020, data: { provider: 'p', model: 'm' } },
      { type: 'text-chunks', seq0: 3, time0: 1500, data: { turn: 1, step: 1, index: 0, dt: [100, 250], texts: ['a', 'b', 'c'] } },
      msg(6, 2850, { inputTokens: 100, outputTokens: 27, cacheReadTokens: 300 }),
      { type: 'step/end', seq: 7, time: 2860, data: { turn: 1, step: 1 } },
      { type: 'turn/end', seq: 8, time: 2870, data: { turn: 1, reason: { kind: 'completed' } } },
    ])
    const { steps, totals, warnings } = timingJson(log)
    expect(steps).toStrictEqual([
      {
        turn: 1,
        step: 1,
        atSeq: 2,
        requestAt: 1020,
        firstOutputAt: 1500,
        lastOutputAt: 2850,
        ttftMs: 480,
        generationMs: 1350,
        outputTokens: 27,
        tokensPerSecond: 20,
        cacheHit: 0.75,
        tools: [],
        retries: [],
      },
    ])
    expect(totals).toStrictEqual({
      turns: 1,
      steps: 1,
      modelMs: 1830,
      toolMs: null,
      ttftMedianMs: 480,
      ttftP95Ms: 480,
      tokensPerSecond: 20,
      cacheHit: 0.75,
      inputTokens: 100,
      outputTokens: 27,
      cacheReadTokens: 300,
      cacheWriteTokens: null,
      retries: 0,
      retryWaitMs: null,
    })
    expect(warnings).toStrictEqual([])
  })

  it('a packed row whose members go back in time is a backward clock step, at the member', () => {
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 1010, data: { turn: 1, step: 1 } },
      { type: 'text-chunks', seq0: 2, time0: 1500, data: { turn: 1, step: 1, index: 0, dt: [10, -400], texts: ['a', 'b', 'c'] } },
      msg(5, 1200),
    ])
    const { steps, warnings } = timingJson(log)
    expect(warnings).toStrictEqual([
      {
        code: 'clock-backwards',
        seq: 4,
        count: 1,
        message: 'the clock goes backwards once, first at seq 4 (by 400 ms): durations that span a backward step are left out',
      },
    ])
    // The message came before the first output by the clock: generation is unknown, not -300 ms, and not 0.
    expect(steps[0]).toMatchObject({ firstOutputAt: 1500, lastOutputAt: 1200, generationMs: null, tokensPerSecond: null })
  })

  it('a clock stepped back and forward again inside a span: that span is no duration (not 252 hours)', () => {
    // As the harness fixture acp--session-sandbox-root: the first output is early by the clock, the message late.
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 5000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 5010, data: { turn: 1, step: 1 } },
      { type: 'request/context', seq: 2, time: 5020, data: { provider: 'p', model: 'm' } },
      {
        type: 'text-chunks',
        seq0: 3,
        time0: 5100,
        data: { turn: 1, step: 1, index: 0, dt: [-4000, 4100], texts: ['a', 'b', 'c'] },
      },
      msg(6, 5300, { inputTokens: 10, outputTokens: 50 }),
      { type: 'step/end', seq: 7, time: 5310, data: { turn: 1, step: 1 } },
    ])
    const { steps, totals } = timingJson(log)
    // 5100 -> 1100 (back at seq 4) -> 5200 -> 5300: the first output and the message look 200 ms apart, but the
    // clock stepped back between them, so neither the generation nor the model time is known.
    expect(steps[0]).toMatchObject({ ttftMs: 80, generationMs: null, tokensPerSecond: null })
    expect(totals.modelMs).toBeNull()
    expect(totals.tokensPerSecond).toBeNull()
  })

  it('nothing streamed: first output is the message, generation 0 ms, no tokens per second', () => {
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 1010, data: { turn: 1, step: 1 } },
      msg(2, 1300, { inputTokens: 10, outputTokens: 5 }),
    ])
    expect(timingJson(log).steps[0]).toMatchObject({
      atSeq: 1,
      requestAt: 1010,
      firstOutputAt: 1300,
      lastOutputAt: 1300,
      ttftMs: 290,
      generationMs: 0,
      tokensPerSecond: null,
      cacheHit: null,
    })
  })

  it('time 0 is no reading: the durations from it are null and it is warned about', () => {
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 0, data: { turn: 1, step: 1 } },
      msg(2, 1300),
    ])
    const { steps, warnings, totals } = timingJson(log)
    expect(steps[0]).toMatchObject({ requestAt: null, ttftMs: null, generationMs: 0 })
    expect(totals.modelMs).toBeNull()
    expect(warnings.map((w) => [w.code, w.seq, w.count])).toStrictEqual([['clock-zero', 1, 1]])
  })

  it('tools: answered after the step ended in the same turn count; a result after turn/end does not; a retry keeps its wait', () => {
    const call = (seq: number, time: number, callId: string) => ({
      type: 'tool/call',
      seq,
      time,
      data: { turn: 1, step: 1, callId, name: 'bash', arguments: '{}' },
    })
    const result = (seq: number, time: number, callId: string) => ({
      type: 'tool/result',
      seq,
      time,
      data: {
        turn: 1,
        step: 1,
        message: {
          id: `r${seq}`,
          role: 'user',
          content: [{ type: 'tool-result', toolCallId: callId, content: [], isError: false }],
          source: { kind: 'tool', callId },
        },
      },
      surfaceOp: 'append',
    })
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 1010, data: { turn: 1, step: 1 } },
      { type: 'llm/retry', seq: 2, time: 1020, data: { retryId: 'r', turn: 1, step: 1, retry: 1, delayMs: 750 } },
      msg(3, 1900, undefined, [
        { type: 'tool-call', id: 'a', name: 'bash', arguments: '{}' },
        { type: 'tool-call', id: 'b', name: 'bash', arguments: '{}' },
      ]),
      call(4, 1910, 'a'),
      call(5, 1915, 'b'),
      { type: 'step/end', seq: 6, time: 1920, data: { turn: 1, step: 1 } },
      result(7, 2500, 'a'),
      { type: 'turn/end', seq: 8, time: 2600, data: { turn: 1, reason: { kind: 'completed' } } },
      result(9, 2700, 'b'),
    ])
    const { steps, totals } = timingJson(log)
    expect(steps[0]?.tools).toStrictEqual([
      { callId: 'a', name: 'bash', ms: 590 },
      { callId: 'b', name: 'bash', ms: null },
    ])
    expect(steps[0]?.retries).toStrictEqual([{ seq: 2, waitMs: 750 }])
    expect(totals).toMatchObject({ toolMs: 590, retries: 1, retryWaitMs: 750 })
  })

  it("usage is the Request view's: the first assistant/message on the surface that carries one", () => {
    const offSurface = { ...msg(2, 1100, { inputTokens: 1, outputTokens: 1 }) } as Record<string, unknown>
    delete offSurface['surfaceOp']
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 1010, data: { turn: 1, step: 1 } },
      offSurface,
      msg(3, 1200, { inputTokens: 2, outputTokens: 2 }),
      msg(4, 1300, { inputTokens: 3, outputTokens: 3 }),
    ])
    expect(stepList(log)[0]?.usage).toMatchObject({ outputTokens: 2 })
    expect(timingJson(log).steps[0]).toMatchObject({ lastOutputAt: 1100, outputTokens: 2 })
  })

  it('a live log: an open step without output has its request at the last event so far', () => {
    const log = tinyLog([
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 1010, data: { turn: 1, step: 1 } },
      { type: 'request/context', seq: 2, time: 1030, data: { provider: 'p', model: 'm' } },
    ])
    expect(timingJson(log).steps[0]).toMatchObject({ atSeq: 2, requestAt: 1030, firstOutputAt: null, ttftMs: null })
  })
})
