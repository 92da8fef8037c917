/**
 * Request reconstruction against the harness's own code, on every real fixture: for each step, the messages
 * must be exactly what `foldSurface` of the prefix through the request point gives, each derived with the
 * harness's `deriveEventMessage` (nodes deriving nothing listed as skipped), and the diff's first difference
 * must equal a direct comparison of the two requests' messages.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { directFirstDifference, harnessRequest } from '../../test-support/request-oracle.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { stepList, stepRequest } from './step-request.ts'

const checksum = await loadContentChecksum()

function load(path: string): LensLog {
  const log = new LensLog({ checksum })
  log.push(readFileSync(path))
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
        }
        if (previous !== undefined && request.diff.headerChanged.length === 0)
          expect(request.diff.firstDifference).toBe(directFirstDifference(previous.messages, request.messages))
        previous = request
      }
    })
  }
})
