/**
 * The request-log arbitrary itself: its values survive a JSON round trip unchanged (the suite reads them through
 * JSONL bytes), the same seed gives the same logs, the harness accepts every log, and it reaches what the request
 * properties are about (each request boundary, packed chunk rows, replacements after a step's request point, nested
 * replacements, prunes of pruned results, nodes deriving nothing, prefix and non-prefix header changes).
 */

import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from './harness-oracle.ts'
import { packRecords } from './log-builder.ts'
import { requestLogArb } from './request-log-arbitrary.ts'

const samples = fc.sample(requestLogArb, { numRuns: 400, seed: 8 })

describe('requestLogArb', () => {
  it('produces only plain JSON, the same for the same seed, and logs the harness accepts', () => {
    const again = fc.sample(requestLogArb, { numRuns: 400, seed: 8 })
    samples.forEach((r, i) => {
      expect(JSON.parse(JSON.stringify(r.events))).toStrictEqual(r.events)
      expect(JSON.stringify(again[i]?.events)).toBe(JSON.stringify(r.events))
      expect(harnessVerdict(r.events).error).toBeNull()
    })
  })

  it('reaches every case the request properties are about', () => {
    const seen = new Set<string>()
    for (const r of samples) {
      for (const s of r.steps) seen.add(`boundary:${s.boundary}`)
      if (r.packed && packRecords(r.events).length < r.events.length) seen.add('packed rows')
      if (r.derivesNothing.size > 0) seen.add('a node deriving nothing')
      const type = (seq: number) => r.events[seq]?.['type']
      for (const [seq, by] of r.left) {
        if (r.left.has(by)) seen.add('nested replacement')
        if (type(seq) === 'tool/result' && type(by) === 'tool/result' && [...r.left.values()].includes(seq))
          seen.add('prune of a prune')
        const k = r.steps.findIndex((s) => s.atIndex < by)
        if (k >= 0 && r.steps.slice(k + 1).some((s) => s.atIndex >= by)) seen.add('replacement between two requests')
        if (
          r.steps.some((s, i) => s.atIndex < by && (r.steps[i + 1]?.startIndex ?? Infinity) > by && s.boundary === 'first-output')
        )
          seen.add('replacement after a request point')
      }
      r.steps.forEach((s, i) => {
        const before = r.steps[i - 1]
        if (before === undefined) return
        if (before.prefixKey !== s.prefixKey) seen.add('prefix header change')
        else if (!isDeepStrictEqual(before.header, s.header)) seen.add('non-prefix header change')
      })
    }
    expect([...seen].sort()).toStrictEqual(
      [
        'boundary:first-output',
        'boundary:step-end',
        'boundary:open',
        'packed rows',
        'a node deriving nothing',
        'nested replacement',
        'prune of a prune',
        'replacement between two requests',
        'replacement after a request point',
        'prefix header change',
        'non-prefix header change',
      ].sort(),
    )
  })
})
