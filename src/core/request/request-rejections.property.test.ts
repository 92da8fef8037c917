/**
 * The provider rules each step's request breaks, on 1,200 generated logs per run with orphaned results,
 * unanswered calls, duplicated and empty call ids, lone surrogates and user messages between calls and results
 * injected (brokenRequestLogArb), read through JSONL bytes:
 *  (a) every step's `rejected` (code, message index, seq) equals a direct check of the harness's own request for
 *      that step (`foldSurface` + `deriveEventMessage` of the prefix through `atSeq`, judged on the DeepSeek wire
 *      by request-rejection-oracle.ts), and `stepList`'s codes (one replay of the whole log) are its codes;
 *  (b) after a compaction of the whole surface, followed by clean steps only, every request is clean again (the
 *      broken pairing is in every request until then).
 * Each code must turn up in the run, or the injection broke and (a) proves little. A failing run prints its seed;
 * FC_SEED replays it.
 */

import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  brokenRequestLogArb,
  repairedRequestLogArb,
  type BrokenRequestLog,
} from '../../test-support/broken-request-log-arbitrary.ts'
import { packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { oracleRejections } from '../../test-support/request-rejection-oracle.ts'
import { harnessRequest } from '../../test-support/request-oracle.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { REJECTION_CODES } from './request-rejections.ts'
import { stepList, stepRequest, type StepRequestJson } from './step-request.ts'

const checksum = await loadContentChecksum()

function load(r: BrokenRequestLog, packed: boolean): LensLog {
  const log = new LensLog({ checksum })
  log.push(toJsonlBytes(packed ? packRecords(r.events) : r.events))
  log.finish()
  // The harness's fold accepts every one of these logs: only a provider refuses them.
  expect(log.strictLength).toBe(r.events.length)
  return log
}

const seen = new Set<string>()
let repairedBroken = 0

describe('per-step provider rejections on generated broken logs', () => {
  it('(a) rejected equals a direct check of each harness request; stepList gives its codes', () => {
    fc.assert(
      fc.property(brokenRequestLogArb, fc.boolean(), (r, packed) => {
        const log = load(r, packed)
        const list = stepList(log)
        list.forEach((entry, p) => {
          const request = stepRequest(log, p) as StepRequestJson
          const harness = harnessRequest(r.events, request.atSeq)
          expect(request.messages).toEqual(harness.messages)
          const expected = oracleRejections(harness.messages)
          expect(request.rejected.map(({ code, index, seq }) => ({ code, index, seq }))).toStrictEqual(expected)
          for (const rejection of request.rejected) expect(rejection.message).toContain(`(seq ${rejection.seq})`)
          const codes = REJECTION_CODES.filter((code) => expected.some((e) => e.code === code))
          expect(entry.rejected).toStrictEqual(codes)
          for (const code of codes) seen.add(code)
        })
      }),
      { numRuns: 1200 },
    )
  })

  it('(b) a compaction of the whole surface repairs the pairing: every later request is clean', () => {
    fc.assert(
      fc.property(repairedRequestLogArb, (r) => {
        const log = load(r, false)
        const repair = r.repairs.at(-1) as number
        const list = stepList(log)
        list.forEach((entry, p) => {
          const request = stepRequest(log, p) as StepRequestJson
          if (request.atSeq > repair) {
            expect(request.rejected).toStrictEqual([])
            expect(entry.rejected).toStrictEqual([])
          } else if (request.rejected.length > 0) repairedBroken++
        })
      }),
      { numRuns: 300 },
    )
  })

  afterAll(() => {
    // The generators reach every rule, and (b) repairs requests that were broken.
    expect([...seen].sort()).toStrictEqual([...REJECTION_CODES].sort())
    expect(repairedBroken).toBeGreaterThan(0)
  })
})
