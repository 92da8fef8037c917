/**
 * Request reconstruction against the harness's own code, on every real fixture: for each step, the messages
 * must be exactly what `foldSurface` of the prefix through the request point gives, each derived with the
 * harness's `deriveEventMessage` (nodes deriving nothing listed as skipped), and the diff's first difference
 * must equal a direct comparison of the two requests' messages.
 */

import { deriveEventMessage, foldSurface } from '@deepseek-ai/dsh-session/surface'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { isDeepEqualJson } from '../fold/surface-checks.ts'
import { LensLog } from '../session/lens-log.ts'
import { stepList, stepRequest } from './step-request.ts'

type OracleEvent = Parameters<typeof foldSurface>[0][number]
const checksum = await loadContentChecksum()

function load(path: string): LensLog {
  const log = new LensLog({ checksum })
  log.push(readFileSync(path))
  log.finish()
  return log
}

/** The harness's request messages at event index `at`: fold the prefix, derive every node. */
function harnessRequest(log: LensLog, at: number) {
  const events = Array.from({ length: at + 1 }, (_, i) => log.event(i) as OracleEvent)
  const { nodes } = foldSurface(events)
  const messages: { seq: number; message: unknown }[] = []
  const skipped: number[] = []
  for (const seq of nodes) {
    const message = deriveEventMessage(events[seq] as OracleEvent)
    if (message === null) skipped.push(seq)
    else messages.push({ seq, message })
  }
  return { messages, skipped }
}

function directFirstDifference(a: readonly { message: unknown }[], b: readonly { message: unknown }[]): number | null {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (!isDeepEqualJson(a[i]?.message, b[i]?.message)) return i
  return a.length === b.length ? null : n
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
          const harness = harnessRequest(log, at)
          expect(request.messages).toEqual(harness.messages)
          expect(request.skippedNodes).toEqual(harness.skipped)
          expect(steps[p]?.messageCount).toBe(harness.messages.length)
        }
        if (previous !== undefined && request.diff.headerChanged.length === 0)
          expect(request.diff.firstDifference).toBe(directFirstDifference(previous.messages, request.messages))
        previous = request
      }
    })
  }
})
