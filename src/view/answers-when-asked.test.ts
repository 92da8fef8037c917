/**
 * What a viewer's load builds (issue 35): the transcript's indexes, and nothing a pane does not ask for. The queries
 * every page makes while it loads and after (the first window, rows, the cursor's state, the summary, the stream so
 * far at each cursor, the transcript asks it at every one) leave the step timing, the request shapes and the state
 * events unbuilt; the Time mode's first question builds the timing, the Request view's step list the request shapes.
 */

import { describe, expect, it } from 'vitest'
import { generateSession, presetOptions, toJsonl } from '../generate/index.ts'
import { stateAt } from './cursor-query.ts'
import { OpenLog } from './open-log.ts'
import { firstWindow } from './rows-query.ts'
import { stepListAnswer } from './step-request-query.ts'
import { TimeQueries } from './time-queries.ts'

const BYTES = new TextEncoder().encode(
  toJsonl(generateSession({ ...presetOptions('demo', 4), retryEverySteps: 3, parallelTools: true })),
)

describe('a viewer load pays for what the panes ask', () => {
  it('keeps the transcript, compactions and turns; the stream at every cursor builds no timing', async () => {
    const open = await OpenLog.create()
    open.begin('demo.jsonl', BYTES.length)
    const half = Math.floor(BYTES.length / 2)
    open.push(BYTES.subarray(0, half))
    const times = new TimeQueries()
    // While it loads: the summary, the first window, the cursor's state and the stream at the last event.
    open.summary()
    firstWindow(open, 48)
    const log = open.lensLog
    times.streamSoFar(log, log.length - 1)
    open.push(BYTES.subarray(half))
    open.finish()
    open.summary()
    let streaming = 0
    for (let i = 0; i < log.length; i++) {
      stateAt(open, i)
      if (times.streamSoFar(log, i) !== null) streaming++
    }
    expect(streaming).toBeGreaterThan(100)
    expect(['transcript', 'compactions', 'turns'].every((w) => log.holds(w as 'turns'))).toBe(true)
    expect(log.holds('timing')).toBe(false)
    expect(log.holds('requests')).toBe(false)
    expect(log.holds('state')).toBe(false)
    // The Time mode asks: the timing is built; the Request view's list: the request shapes.
    times.timeLanes(log)
    expect(log.holds('timing')).toBe(true)
    expect(stepListAnswer(log).steps.length).toBeGreaterThan(0)
    expect(log.holds('requests')).toBe(true)
    expect(log.holds('state')).toBe(false)
  })
})
