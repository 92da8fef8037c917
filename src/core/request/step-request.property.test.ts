/**
 * Request reconstruction on generated logs with realistic steps (requestLogArb), 2,100 logs per run, read through
 * JSONL bytes (packed chunk rows half the time, pushed in two slices):
 *  (a) every step's messages and skipped nodes are what the harness's `foldSurface` of the prefix through `atSeq`
 *      gives, each node derived with its `deriveEventMessage`;
 *  (b) against the script's own model (never our fold): where the request is taken, the header in force, the usage,
 *      the surface in order; every appended message is in the request of its step and of every later one until a
 *      replacement takes it off, is gone exactly from the first step after that replacement, and what stands for it
 *      there is in that request;
 *  (c) the diff: `firstDifference` equals a plain element-wise comparison of the two harness requests (0 when a
 *      prefix header field changed), `appended` / `replacedBy` / `removed` equal the script's replacement record,
 *      the token estimates follow the documented rule (docs/cli.md) and the cache warning is set exactly when it says;
 *  (d) `stepList` agrees with `stepRequest` for every step;
 *  (e) a live log, cut anywhere: each step so far is requested where the script says for that prefix (an open
 *      step's request is everything so far), with the harness's messages.
 * A failing run prints its seed; FC_SEED replays it (src/test-support/fast-check-setup.ts).
 */

import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { requestLogArb, type RequestLog } from '../../test-support/request-log-arbitrary.ts'
import type { ModelStep } from '../../test-support/request-log-builder.ts'
import { directFirstDifference, harnessRequest } from '../../test-support/request-oracle.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { rejectionCodes } from './request-rejections.ts'
import { stepList, stepRequest, type StepRequestJson } from './step-request.ts'

const checksum = await loadContentChecksum()

function bytesOf(r: RequestLog): { bytes: Uint8Array; cut: number } {
  const bytes = toJsonlBytes(r.packed ? packRecords(r.events) : r.events)
  return { bytes, cut: Math.floor(r.cut * bytes.length) }
}

function load(r: RequestLog): LensLog {
  const { bytes, cut } = bytesOf(r)
  const log = new LensLog({ checksum })
  log.push(bytes.subarray(0, cut))
  log.push(bytes.subarray(cut))
  log.finish()
  // Generated logs are valid: the harness's fold accepts every event.
  expect(log.length).toBe(r.events.length)
  expect(log.strictLength).toBe(r.events.length)
  return log
}

function requests(log: LensLog, count: number): StepRequestJson[] {
  return Array.from({ length: count }, (_, p) => {
    const request = stepRequest(log, p)
    expect(request).toBeDefined()
    return request as StepRequestJson
  })
}

/** Where the script says a step's request is taken when the log so far is its first `n` events (a live log). */
function pointInPrefix(s: ModelStep, n: number): { atSeq: number; boundary: ModelStep['boundary'] } {
  if (s.boundary === 'first-output' && s.atIndex + 1 < n) return { atSeq: s.atIndex, boundary: 'first-output' }
  if (s.endIndex !== null && s.endIndex < n) return { atSeq: s.endIndex, boundary: 'step-end' }
  return { atSeq: n - 1, boundary: 'open' }
}

const tokens = (value: unknown): number => (value === undefined ? 0 : Math.ceil(Buffer.byteLength(JSON.stringify(value)) / 4))
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)

const seqs = (messages: readonly { seq: number }[]) => messages.map((m) => m.seq)

describe('step requests on generated logs with realistic steps', () => {
  it('(a) messages and skipped nodes equal the harness fold of the prefix through atSeq; (d) stepList agrees', () => {
    fc.assert(
      fc.property(requestLogArb, (r) => {
        const log = load(r)
        const list = stepList(log)
        expect(list.length).toBe(r.steps.length)
        requests(log, list.length).forEach((request, p) => {
          const harness = harnessRequest(r.events, request.atSeq)
          expect(request.messages).toStrictEqual(harness.messages)
          expect(request.skippedNodes).toStrictEqual(harness.skipped)
          expect(request.deriveErrors).toStrictEqual([])
          expect(list[p]).toStrictEqual({
            turn: request.turn,
            step: request.step,
            atSeq: request.atSeq,
            messageCount: request.messages.length,
            usage: request.usage,
            rejected: rejectionCodes(request.rejected),
          })
        })
      }),
      { numRuns: 700 },
    )
  })

  it('(b) every appended message appears, and vanishes exactly at the first step after the replacement, as the script says', () => {
    fc.assert(
      fc.property(requestLogArb, (r) => {
        const log = load(r)
        const all = requests(log, stepList(log).length)
        expect(all.length).toBe(r.steps.length)
        const visible = all.map((request) => new Set([...seqs(request.messages), ...request.skippedNodes]))
        r.steps.forEach((model, k) => {
          const request = all[k] as StepRequestJson
          expect({
            turn: request.turn,
            step: request.step,
            startSeq: request.startSeq,
            atSeq: request.atSeq,
            boundary: request.boundary,
          }).toStrictEqual({
            turn: model.turn,
            step: model.step,
            startSeq: model.startIndex,
            atSeq: model.atIndex,
            boundary: model.boundary,
          })
          expect(request.header).toStrictEqual(model.header)
          expect(request.usage).toStrictEqual(model.usage)
          expect(seqs(request.messages)).toStrictEqual(model.surface.filter((seq) => !r.derivesNothing.has(seq)))
          expect(request.skippedNodes).toStrictEqual(model.surface.filter((seq) => r.derivesNothing.has(seq)))
        })
        // Each node's life from the script's record of entries and replacements: the step positions whose request
        // holds it, and what stands for it at the first step after its replacement (collected, then compared once).
        const at = r.steps.map((s) => s.atIndex)
        const expectedLives: string[] = []
        const actualLives: string[] = []
        for (const [seq, entered] of r.entered) {
          const by = r.left.get(seq)
          const gone = by === undefined ? -1 : at.findIndex((a) => a >= by)
          const inRequests = (has: (k: number) => boolean) => `seq ${seq} in steps [${at.flatMap((_, k) => (has(k) ? [k] : []))}]`
          expectedLives.push(inRequests((k) => (at[k] as number) >= entered && (gone === -1 || k < gone)))
          actualLives.push(inRequests((k) => visible[k]?.has(seq) === true))
          if (by === undefined || gone === -1) continue
          // Its replacement, or the one that replaced that before the step's request point.
          let standIn = by
          for (let next = r.left.get(standIn); next !== undefined && next <= (at[gone] as number); next = r.left.get(standIn))
            standIn = next
          expectedLives.push(`seq ${seq} stood for by ${standIn} at step ${gone}`)
          actualLives.push(
            `seq ${seq} stood for by ${visible[gone]?.has(standIn) === true ? standIn : 'nothing'} at step ${gone}`,
          )
        }
        expect(actualLives).toStrictEqual(expectedLives)
      }),
      { numRuns: 600 },
    )
  })

  it('(c) the diff: first difference by direct comparison, appended / replacedBy / removed from the script, token estimates, cache warning', () => {
    // Replacement seq -> the seqs it took off, in surface order (inverted from the script's record).
    const shadowsOf = (r: RequestLog) => {
      const shadows = new Map<number, number[]>()
      for (const [seq, by] of r.left) shadows.set(by, [...(shadows.get(by) ?? []), seq])
      return shadows
    }
    fc.assert(
      fc.property(requestLogArb, (r) => {
        const log = load(r)
        const all = requests(log, stepList(log).length)
        const shadows = shadowsOf(r)
        let previous: { messages: { seq: number; message: unknown }[] } | undefined
        all.forEach((request, k) => {
          const model = r.steps[k] as (typeof r.steps)[number]
          const harness = harnessRequest(r.events, request.atSeq)
          const diff = request.diff
          if (previous === undefined) {
            expect(diff.previous).toBeNull()
            expect(diff.firstDifference).toBe(harness.messages.length > 0 || model.header !== null ? 0 : null)
            expect(diff.appended).toStrictEqual(seqs(harness.messages))
            expect(diff.removed).toStrictEqual([])
            expect(diff.replacedBy).toStrictEqual([])
          } else {
            const before = r.steps[k - 1] as (typeof r.steps)[number]
            expect(diff.previous).toBe(`${before.turn}.${before.step}`)
            const headerChanged = !isDeepStrictEqual(before.header, model.header)
            expect(diff.headerChanged.length > 0).toBe(headerChanged)
            const direct = directFirstDifference(previous.messages, harness.messages)
            const expected =
              before.prefixKey !== model.prefixKey ? 0 : (direct ?? (headerChanged ? harness.messages.length : null))
            expect(diff.firstDifference).toBe(expected)
            // New seqs are appended, or replacements standing for seqs of the previous request (through nested ones).
            const was = new Set(seqs(previous.messages))
            const cover = (seq: number, out: number[]): number[] => {
              for (const s of shadows.get(seq) ?? []) {
                if (was.has(s)) out.push(s)
                else cover(s, out)
              }
              return out
            }
            const fresh = seqs(harness.messages).filter((seq) => !was.has(seq))
            const replacedBy = fresh
              .map((seq) => ({ seq, shadowedSeqs: cover(seq, []) }))
              .filter((x) => x.shadowedSeqs.length > 0)
            expect(diff.replacedBy).toStrictEqual(replacedBy)
            expect(diff.appended).toStrictEqual(fresh.filter((seq) => !replacedBy.some((x) => x.seq === seq)))
            // In a valid log nothing leaves the surface but through a replacement, so nothing is merely removed.
            const covered = new Set(replacedBy.flatMap((x) => x.shadowedSeqs))
            const now = new Set(seqs(harness.messages))
            expect(seqs(previous.messages).filter((seq) => !now.has(seq) && !covered.has(seq))).toStrictEqual([])
            expect(diff.removed).toStrictEqual([])
          }
          // Token estimates by the documented rule (docs/cli.md) (ceil of the JSON's UTF-8 bytes / 4), counted here with Buffer.
          const header = model.header ?? {}
          const headerTokens = tokens(header['system']) + tokens(header['tools'])
          const messageTokens = harness.messages.map((m) => tokens(m.message))
          expect(request.estimatedTokens).toBe(headerTokens + sum(messageTokens))
          const prefixKept = k > 0 && r.steps[k - 1]?.prefixKey === model.prefixKey
          const unchanged = prefixKept ? headerTokens + sum(messageTokens.slice(0, diff.firstDifference ?? undefined)) : 0
          expect(diff.tokensBeforeFirstDifference).toBe(unchanged)
          // A cache warning exactly when the logged cache reads and that estimate are more than 256 tokens and 2x apart.
          const read = model.usage?.['cacheReadTokens']
          const far =
            typeof read === 'number' && Math.abs(read - unchanged) > 256 && (read > 2 * unchanged || 2 * read < unchanged)
          // Its text says which way it misses: fewer cached tokens read than unchanged is a cache miss.
          const message =
            read === undefined || !far
              ? ''
              : read < unchanged
                ? `the provider read ${read} cached tokens, but about ${unchanged} tokens of this request are unchanged since the previous step: the cache missed (expired, evicted, or keyed differently)`
                : `the provider read ${read} cached tokens, more than the about ${unchanged} tokens unchanged since the previous step: the request differs from this reconstruction, or the cache matched an older request`
          expect(diff.cacheWarning).toStrictEqual(
            far ? { cacheReadTokens: read, estimatedPrefixTokens: unchanged, message } : null,
          )
          previous = harness
        })
      }),
      { numRuns: 500 },
    )
  })

  it('(e) a live log: after the first slice of its bytes, each step so far is requested where the script says, as the harness folds it', () => {
    fc.assert(
      fc.property(requestLogArb, (r) => {
        const { bytes, cut } = bytesOf(r)
        const log = new LensLog({ checksum })
        log.push(bytes.subarray(0, cut))
        const n = log.length
        expect(log.strictLength).toBe(n)
        const expected = r.steps
          .filter((s) => s.startIndex < n)
          .map((s) => ({ turn: s.turn, step: s.step, ...pointInPrefix(s, n) }))
        const got = requests(log, stepList(log).length)
        expect(got.map(({ turn, step, atSeq, boundary }) => ({ turn, step, atSeq, boundary }))).toStrictEqual(expected)
        for (const request of got) {
          const harness = harnessRequest(r.events, request.atSeq)
          expect(request.messages).toStrictEqual(harness.messages)
          expect(request.skippedNodes).toStrictEqual(harness.skipped)
        }
      }),
      { numRuns: 300 },
    )
  })
})
