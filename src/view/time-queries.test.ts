/**
 * The Time mode's queries through the real protocol (the in-thread client runs the worker's host): the lanes are the
 * core's timings laid out (and built once per log state), the Request view's answer carries its step's entry of
 * `lens timing --json`, event times and the stream so far are the core's; a growing log gets new lanes.
 */

import { afterEach, describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, streamSoFar, stepTimings, timingJson } from '../core/index.ts'
import { generateSession, presetOptions, toJsonl } from '../generate/index.ts'
import type { LensClient } from '../protocol/lens-client.ts'
import { streamInto } from '../test-support/worker-stream.ts'
import { createInThreadClient } from '../worker/in-thread-client.ts'
import { stepInfo, timeLanes } from './time-lanes.ts'
import { STREAM_PREVIEW_CHARS } from './time-queries.ts'

const checksum = await loadContentChecksum()
const BYTES = new TextEncoder().encode(
  toJsonl(generateSession({ ...presetOptions('demo', 3), retryEverySteps: 3, parallelTools: true, clockJumpEveryTurns: 3 })),
)
const log = new LensLog({ checksum })
log.push(BYTES)
log.finish()

let client: LensClient | undefined
afterEach(() => client?.dispose())

async function loaded(chunks: Uint8Array[], end = true): Promise<LensClient & { loadId: number }> {
  const c = createInThreadClient()
  client = c
  const loadId = await streamInto(c, chunks, !end, end)
  return Object.assign(c, { loadId })
}

describe('time queries', () => {
  it('time-lanes: the core timings laid out, with the totals and clock warnings', async () => {
    const c = await loaded([BYTES])
    const answer = await c.query('time-lanes', {})
    const { totals, warnings } = timingJson(log)
    const expected = timeLanes(stepTimings(log), totals, warnings).answer
    expect(answer).toStrictEqual(expected)
    expect(answer.steps).toBe(timingJson(log).steps.length)
    // Asked again: the same answer, from the kept one.
    expect(await c.query('time-lanes', {})).toStrictEqual(expected)
    // A step's figures, asked on hover.
    const steps = stepTimings(log)
    for (const p of [0, 5, steps.length - 1])
      expect(await c.query('time-step', { position: p })).toStrictEqual(stepInfo(steps[p] as (typeof steps)[number]))
    expect(await c.query('time-step', { position: steps.length })).toBeNull()
  })

  it("the Request view's answer carries its step's timing", async () => {
    const c = await loaded([BYTES])
    const json = timingJson(log)
    for (const p of [0, 3, json.steps.length - 1]) {
      const step = json.steps[p] as (typeof json.steps)[number]
      const answer = await c.query('step-request', { target: { turn: step.turn, step: step.step }, have: null })
      expect(answer.timing).toStrictEqual(step)
    }
  })

  it('event-times and stream-so-far are the core answers (the stream capped to its end)', async () => {
    const c = await loaded([BYTES])
    const times = await c.query('event-times', { from: 40, count: 500 })
    expect(times.from).toBe(40)
    expect(times.times.length).toBe(Math.min(500, log.length - 40))
    let streaming = 0
    for (let i = 0; i < log.length; i += 7) {
      const answer = await c.query('stream-so-far', { index: i })
      const core = streamSoFar(log, i)
      if (core === null) {
        expect(answer).toBeNull()
        continue
      }
      streaming++
      expect(answer).toMatchObject({ turn: core.turn, step: core.step, index: i, deltas: core.deltas })
      expect(answer?.text).toBe(core.text.slice(-STREAM_PREVIEW_CHARS))
      expect(answer?.cutText).toBe(Math.max(0, core.text.length - STREAM_PREVIEW_CHARS))
      expect(answer?.reasoning).toBe(core.reasoning.slice(-STREAM_PREVIEW_CHARS))
    }
    expect(streaming).toBeGreaterThan(10)
  })

  it('a growing log: the lanes follow it', async () => {
    const cut = Math.floor(BYTES.length / 2)
    const newline = BYTES.indexOf(10, cut) + 1
    const c = await loaded([BYTES.subarray(0, newline)], false)
    const first = await c.query('time-lanes', {})
    const half = new LensLog({ checksum })
    half.push(BYTES.subarray(0, newline))
    expect(first.steps).toBe(stepTimings(half).length)
    const grown = new Promise<void>((resolve) => {
      const off = c.subscribe((event) => {
        if (event.type === 'summary' && event.summary.length === log.length) {
          off()
          resolve()
        }
      })
    })
    c.pushChunk(c.loadId, BYTES.slice(newline))
    await grown
    expect((await c.query('time-lanes', {})).steps).toBe(stepTimings(log).length)
  })
})
