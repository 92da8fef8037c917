/**
 * The log prefix (`logPrefix`, what "Save prefix" and `lens slice` write) against the harness's own fold: decode
 * the prefix's lines independently (JSON.parse, packed rows expanded member by member), fold them with the oracle
 * `foldSurface`, and the result must be our surface at the cursor of the original log (or the same first violation
 * when the original is rejected before the cursor). On every fixture (plain and zstd) at several cuts, including
 * cuts inside packed rows, and on generated logs with packed rows cut anywhere.
 */

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { expandPackedRow, isPackedRowTag, validatePackedRow } from '../decode/packed-rows.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { logPrefix } from './log-prefix.ts'

const checksum = await loadContentChecksum()
const available = fixturesAvailable()

function read(bytes: Uint8Array): LensLog {
  const log = new LensLog({ checksum, upgradeLegacy: false })
  log.push(bytes)
  log.finish()
  return log
}

/** The prefix's text decoded without our decoder: header, then each line parsed, packed rows expanded. */
function decodeIndependently(text: string): { header: unknown; events: unknown[] } {
  expect(text.endsWith('\n')).toBe(true)
  const [first, ...lines] = text.slice(0, -1).split('\n')
  const events: unknown[] = []
  for (const line of lines) {
    const value = JSON.parse(line) as Record<string, unknown>
    if (isPackedRowTag(value['type'])) events.push(...expandPackedRow(validatePackedRow(value, value['type'])))
    else events.push(value)
  }
  return { header: JSON.parse(first as string), events }
}

/** Slice `log` through `cut` and check the harness's fold of the slice against ours at the cursor. */
function expectPrefixFoldsLikeCursor(log: LensLog, cut: number): void {
  const prefix = logPrefix(log, cut)
  const text = prefix.parts.join('')
  const { header, events } = decodeIndependently(text)
  expect(header).toStrictEqual(log.header)
  expect(events.length).toBe(cut + 1)
  expect(prefix.events).toBe(cut + 1)
  for (let i = 0; i <= cut; i++) expect(events[i]).toStrictEqual(log.rawEvent(i))
  const oracle = harnessVerdict(events)
  if (cut < log.strictLength) {
    expect(oracle.error).toBeNull()
    expect(oracle.nodes).toStrictEqual(log.surfaceSeqsAfter(cut))
    expect(oracle.replacements.map((r) => r.seq)).toStrictEqual(log.replacementsAfter(cut).map((r) => r.seq))
  } else {
    expect(oracle.error?.index).toBe(log.fold.firstViolation?.index)
    expect(oracle.error?.message).toBe(log.fold.firstViolation?.message)
    expect(oracle.nodes).toStrictEqual(log.surfaceSeqsAfter(log.strictLength - 1))
  }
  // Re-read by our own decoder: no new defect beyond an open turn at the cut.
  const again = read(new TextEncoder().encode(text))
  expect(again.length).toBe(cut + 1)
  expect(again.surfaceSeqsAfter(cut)).toStrictEqual(log.surfaceSeqsAfter(cut))
}

/** Cuts worth checking: the ends, quarters, and the middle of the first and last packed row. */
function cutsOf(log: LensLog): number[] {
  const n = log.length
  const cuts = new Set([0, 1, Math.floor(n / 4), Math.floor(n / 2), Math.floor((3 * n) / 4), n - 2, n - 1])
  const packed = Array.from({ length: n }, (_, i) => i).filter((i) => log.isPacked(i))
  for (const i of [packed[1], packed.at(-2)]) if (i !== undefined) cuts.add(i)
  return [...cuts].filter((c) => c >= 0 && c < n).sort((a, b) => a - b)
}

describe.runIf(available)('log prefix on the harness fixtures', () => {
  const all = available ? [...listFixtures(), ...listZstdFixtures()] : []

  it.each(all.map((f) => [f.name, f.path] as const))('%s: the harness folds every prefix as we fold at the cut', (_n, path) => {
    const log = read(readFileSync(path))
    if (log.header === null || log.length === 0) return
    for (const cut of cutsOf(log)) expectPrefixFoldsLikeCursor(log, cut)
  })

  it('a cut inside a packed row writes a shorter valid row (packed-chunks fixture)', () => {
    const log = read(readFileSync(all.find((f) => f.name === 'acp--packed-chunks--session.jsonl')?.path ?? ''))
    const inRow = Array.from({ length: log.length }, (_, i) => i).filter((i) => log.isPacked(i) && log.isPacked(i + 1))
    expect(inRow.length).toBeGreaterThan(0)
    const prefix = logPrefix(log, inRow[0] as number)
    expect(prefix.cutRows).toBe(1)
    expectPrefixFoldsLikeCursor(log, inRow[0] as number)
  })
})

describe('log prefix on generated logs', () => {
  it('packed rows cut anywhere fold like the cursor (oracle foldSurface)', () => {
    fc.assert(
      fc.property(validLogArb, fc.double({ min: 0, max: 1, noNaN: true }), (events, at) => {
        const log = read(toJsonlBytes(packRecords(events)))
        const cut = Math.min(log.length - 1, Math.floor(at * log.length))
        expectPrefixFoldsLikeCursor(log, cut)
      }),
      { numRuns: 300 },
    )
  })

  it('a log without a valid header cannot be sliced', () => {
    const log = read(new TextEncoder().encode('{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}\n'))
    expect(() => logPrefix(log, 0)).toThrow(/no valid session header/)
  })
})
