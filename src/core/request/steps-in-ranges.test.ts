/**
 * The steps a visibility span carried: on generated logs, a step is in a span's list exactly when its request's
 * messages hold the span's event (a search match, a lifespan), checked against the requests themselves.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toJsonlBytes } from '../../test-support/log-builder.ts'
import { requestLogArb } from '../../test-support/request-log-arbitrary.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { stepRequest } from './step-request.ts'
import { stepMarks, stepsInRanges } from './steps-in-ranges.ts'

const checksum = await loadContentChecksum()

describe('stepsInRanges', () => {
  it("each surface node's lifespan carries exactly the steps whose request holds it", () => {
    fc.assert(
      fc.property(requestLogArb, (r) => {
        const log = new LensLog({ checksum })
        log.push(toJsonlBytes(r.events))
        log.finish()
        const marks = stepMarks(log)
        const requests = marks.map((_, p) => stepRequest(log, p))
        const timeline = log.fold.timeline
        for (let node = 0; node < timeline.nodeCount; node++) {
          const by = timeline.shadowedBy(node)
          const from = timeline.indexOf(node)
          const to = by === -1 ? log.length - 1 : timeline.indexOf(by) - 1
          const [span] = stepsInRanges(log, [{ from, to }], marks)
          const seq = timeline.seqOf(node)
          const holding = requests
            .filter((q) => q !== undefined && [...q.messages.map((m) => m.seq), ...q.skippedNodes].includes(seq))
            .map((q) => `${q?.turn}.${q?.step}`)
          expect(span?.stepCount).toBe(holding.length)
          expect(span?.firstStep === null ? null : `${span?.firstStep.turn}.${span?.firstStep.step}`).toBe(holding[0] ?? null)
          expect(span?.lastStep === null ? null : `${span?.lastStep.turn}.${span?.lastStep.step}`).toBe(holding.at(-1) ?? null)
          expect([span?.fromSeq, span?.toSeq]).toStrictEqual([from, to])
        }
      }),
      { numRuns: 200 },
    )
  })
})
