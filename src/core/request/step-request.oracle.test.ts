/**
 * Request reconstruction against the harness's own code, on every real fixture: for each step, the messages
 * must be exactly what `foldSurface` of the prefix through the request point gives, each derived with the
 * harness's `deriveEventMessage` (nodes deriving nothing listed as skipped), and the diff's first difference
 * must equal a direct comparison of the two requests' messages. The provider rules each request breaks must equal
 * a direct check of the harness's request (request-rejection-oracle.ts): none on any fixture as logged; on a copy
 * with its first tool result removed, exactly the call it answered, unanswered in every later request.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dropEvent, firstToolResultSeq } from '../../test-support/drop-event.ts'
import { directFirstDifference, harnessRequest } from '../../test-support/request-oracle.ts'
import { oracleRejections } from '../../test-support/request-rejection-oracle.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { rejectionCodes, type RejectionCode } from './request-rejections.ts'
import { stepList, stepRequest } from './step-request.ts'

const checksum = await loadContentChecksum()

function load(path: string): LensLog {
  return loadBytes(readFileSync(path))
}

function loadBytes(bytes: Uint8Array): LensLog {
  const log = new LensLog({ checksum })
  log.push(bytes)
  log.finish()
  return log
}

describe.runIf(fixturesAvailable())('step requests against the harness on every fixture', () => {
  const fixtures = listFixtures()
  it('covers fixtures that have steps', () => {
    const withSteps = fixtures.filter((f) => stepList(load(f.path)).length > 0)
    expect(withSteps.length).toBeGreaterThan(50)
  })

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const log = load(fixture.path)
      const steps = stepList(log)
      let previous: ReturnType<typeof stepRequest>
      for (let p = 0; p < steps.length; p++) {
        const request = stepRequest(log, p)
        expect(request).toBeDefined()
        if (request === undefined) continue
        const at = steps[p]?.atSeq as number
        expect(request.atSeq).toBe(at)
        // Only where the harness's fold accepts the prefix (seq === index there).
        if (at < log.strictLength) {
          const harness = harnessRequest(
            Array.from({ length: at + 1 }, (_, i) => log.event(i)),
            at,
          )
          expect(request.messages).toStrictEqual(harness.messages)
          expect(request.skippedNodes).toStrictEqual(harness.skipped)
          expect(steps[p]?.messageCount).toBe(harness.messages.length)
          const rejected = oracleRejections(harness.messages)
          expect(request.rejected.map(({ code, index, seq }) => ({ code, index, seq }))).toStrictEqual(rejected)
          expect(steps[p]?.rejected).toStrictEqual(rejectionCodes(rejected as { code: RejectionCode }[]))
        }
        if (previous !== undefined && request.diff.headerChanged.length === 0)
          expect(request.diff.firstDifference).toBe(directFirstDifference(previous.messages, request.messages))
        previous = request
      }
    })
  }

  it('a copy with one tool result removed: every later request leaves its call unanswered, and only that', () => {
    let broken = 0
    for (const fixture of fixtures) {
      const text = readFileSync(fixture.path, 'utf8')
      const removed = firstToolResultSeq(text)
      // Replacements could take the call off the surface again; only agent-instructions has one, and it is covered above.
      if (removed === undefined || text.includes('"op":"replace"')) continue
      const original = load(fixture.path)
      const callId = (original.event(removed)?.data as { message: { source: { callId: string } } }).message.source.callId
      const log = loadBytes(new TextEncoder().encode(dropEvent(text, removed)))
      expect(log.strictLength).toBe(log.length)
      for (const [p, entry] of stepList(log).entries()) {
        const request = stepRequest(log, p)
        if (request === undefined || entry.atSeq < removed) {
          expect(entry.rejected).toStrictEqual([])
          continue
        }
        const where = `${fixture.name} step ${entry.turn}.${entry.step}`
        expect(entry.rejected, where).toStrictEqual(['unanswered-tool-call'])
        const [rejection] = request.rejected
        expect(request.rejected.length, where).toBe(1)
        const message = request.messages[rejection?.index ?? -1]?.message as { content: { id?: string }[] }
        expect(
          message.content.some((block) => block.id === callId),
          where,
        ).toBe(true)
        expect(rejection?.message).toContain(`tool call ${callId} of message`)
        broken++
      }
    }
    expect(broken).toBeGreaterThan(20)
  })
})
