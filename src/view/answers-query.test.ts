/** The worker's rejected-step and summary-forgot answers against the core's own per-step and per-summary facts. */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LensLog, compactionsForgot, loadContentChecksum, stepList } from '../core/index.ts'
import { demoSessionJsonl } from '../generate/index.ts'
import { dropEvent, firstToolResultSeq } from '../test-support/drop-event.ts'
import { FIXTURE_DIR, fixturesAvailable } from '../test-support/shared-fixtures.ts'
import { firstRejectingStep, summaryForgot } from './answers-query.ts'

const checksum = await loadContentChecksum()
const load = (text: string): LensLog => {
  const log = new LensLog({ checksum })
  log.push(new TextEncoder().encode(text))
  log.finish()
  return log
}

describe('answers', () => {
  it.runIf(fixturesAvailable())('the first step whose request breaks a rule, at or after a diagnostic', () => {
    const text = readFileSync(`${FIXTURE_DIR}acp--session-sandbox-root--session.jsonl`, 'utf8')
    const log = load(dropEvent(text, firstToolResultSeq(text) as number))
    const diagnostic = log.diagnostics.find((d) => d.code === 'unanswered-tool-call')
    const expected = stepList(log).find((s) => s.rejected.includes('unanswered-tool-call'))
    expect(expected).toBeDefined()
    expect(firstRejectingStep(log, 'unanswered-tool-call', diagnostic?.seq as number)).toStrictEqual({
      turn: expected?.turn,
      step: expected?.step,
    })
    expect(firstRejectingStep(log, 'lone-surrogate', 0)).toBeNull()
    expect(firstRejectingStep(log, 'unanswered-tool-call', log.length)).toBeNull()
  })

  it("a summary's forgotten facts, and null for a seq that is no summary", () => {
    const log = load(demoSessionJsonl())
    const all = compactionsForgot(log)
    expect(all.length).toBe(2)
    for (const c of all) expect(summaryForgot(log, c.seq)).toStrictEqual(c)
    expect(summaryForgot(log, 0)).toBeNull()
  })
})
