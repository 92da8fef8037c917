/**
 * The byte path, differentially: generated logs (packed as the harness packs
 * them) serialized to JSONL and to multi-frame zstd, decoded and folded by
 * LensLog, give the harness's nodes, replacements and first error on the same
 * events. Also: the strict prefix never depends on how the bytes were sliced.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { mutatedJsonLogArb, validLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { zstdFrames } from '../../test-support/zstd-frames.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from './lens-log.ts'

const checksum = await loadContentChecksum()

function fold(bytes: Uint8Array, slice: number) {
  const log = new LensLog({ checksum })
  for (let i = 0; i < bytes.length; i += slice) log.push(bytes.subarray(i, i + slice))
  log.finish()
  const last = log.strictLength - 1
  const first = log.fold.firstViolation
  return {
    log,
    nodes: log.surfaceSeqsAfter(last),
    replacements: log
      .replacementsAfter(last)
      .map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] })),
    error: first === undefined ? null : { index: first.index, message: first.message },
  }
}

describe('LensLog over bytes against the harness', () => {
  it('packed JSONL, any slicing', () => {
    fc.assert(
      fc.property(validLogArb, fc.integer({ min: 1, max: 4096 }), (events, slice) => {
        const bytes = toJsonlBytes(packRecords(events))
        const harness = harnessVerdict(events)
        const ours = fold(bytes, slice)
        expect(ours.log.length).toBe(events.length)
        expect(ours.nodes).toStrictEqual(harness.nodes)
        expect(ours.replacements).toStrictEqual(harness.replacements)
        expect(ours.error).toBeNull()
        expect(ours.log.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([])
      }),
      { numRuns: 1000 },
    )
  })

  it('mutated logs through JSON: the same first error', () => {
    fc.assert(
      fc.property(mutatedJsonLogArb, ({ events }) => {
        // JSON drops what it cannot carry (undefined, holes): compare on what survives the trip.
        const onDisk = JSON.parse(JSON.stringify(events)) as unknown[]
        const ours = fold(toJsonlBytes(onDisk), 1 << 16)
        const harness = harnessVerdict(onDisk)
        expect(ours.error).toStrictEqual(harness.error)
        expect(ours.nodes).toStrictEqual(harness.nodes)
        expect(ours.replacements).toStrictEqual(harness.replacements)
      }),
      { numRuns: 1000 },
    )
  })

  it('multi-frame zstd equals the plain JSONL', () => {
    fc.assert(
      fc.property(validLogArb, fc.integer({ min: 1, max: 5 }), (events, batches) => {
        const records = packRecords(events)
        const per = Math.ceil(records.length / batches)
        const frames = ['{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}\n']
        for (let i = 0; i < records.length; i += per)
          frames.push(
            records
              .slice(i, i + per)
              .map((r) => JSON.stringify(r) + '\n')
              .join(''),
          )
        const ours = fold(zstdFrames(frames), 999)
        const plain = fold(toJsonlBytes(records), 1 << 20)
        expect(ours.log.encoding).toBe('zstd')
        expect(ours.nodes).toStrictEqual(plain.nodes)
        expect(ours.log.length).toBe(plain.log.length)
        expect(ours.log.diagnostics.filter((d) => d.code !== 'open-turn')).toStrictEqual(
          plain.log.diagnostics.filter((d) => d.code !== 'open-turn'),
        )
        expect(ours.log.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([])
      }),
      { numRuns: 60 },
    )
  })
})
