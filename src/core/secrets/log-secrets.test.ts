/**
 * The scan of a whole log: no finding on the harness's fixtures or the demo (false positives are a cost); every
 * planted secret found at its seq in every place agent logs carry one (user text, tool results, tool-call arguments,
 * assistant text streamed as plain deltas or packed rows, reasoning, compaction summaries; JSONL and zstd); and
 * "seen by the model" equal to what search reports for the same text.
 */

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { searchJson } from '../../cli/search-json.ts'
import { demoFiles } from '../../generate/index.ts'
import { validLogArb } from '../../test-support/log-arbitrary.ts'
import { plantedValues } from '../../test-support/planted-secrets.ts'
import { decodeLog } from '../../test-support/redaction-oracle.ts'
import { corpusLog, plantSecrets, plantedJsonl, plantedZstd, type PlantPlace } from '../../test-support/secret-log.ts'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { escapedForms, scanSecrets, secretHash } from './index.ts'

const available = fixturesAvailable()

describe.runIf(available)('no finding on the fixtures', () => {
  it.each([...listFixtures(), ...listZstdFixtures()].map((f) => [f.name, f.path]))('%s', (_, path) => {
    const scan = scanSecrets(decodeLog(readFileSync(path)))
    expect(scan.findings.map((f) => `${f.seq} ${f.field} ${f.kind} ${f.masked}`)).toStrictEqual([])
  })
})

describe('no finding on the demo', () => {
  it.each(demoFiles().map((f) => [f.path, f.text]))('%s', (_, text) => {
    expect(scanSecrets(decodeLog(new TextEncoder().encode(text))).findings).toStrictEqual([])
  })
})

/** A seeded chooser for plantSecrets. */
function chooser(seed: number): (max: number) => number {
  let s = seed >>> 0
  return (max) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return s % (max + 1)
  }
}

/** The union of search's `visible` for every escaped form of `value`, as seq ranges. */
function searchVisible(log: ReturnType<typeof decodeLog>, value: string): { from: number; to: number }[] {
  const ranges = escapedForms(value).flatMap((form) => searchJson(log, form, { regex: false, filters: {}, limit: 0 }).visible)
  return merge(ranges)
}

function merge(ranges: readonly { from: number; to: number }[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = []
  for (const r of [...ranges].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1)
    if (last !== undefined && r.from <= last.to + 1) last.to = Math.max(last.to, r.to)
    else out.push({ ...r })
  }
  return out
}

describe('the planted corpus', () => {
  const places: PlantPlace[] = ['user', 'tool-result', 'tool-arguments', 'assistant-text', 'reasoning', 'summary']
  for (const place of places)
    for (const pack of [false, true])
      for (const zstd of [false, true]) {
        it(`every kind is found in ${place} (${pack ? 'packed rows' : 'plain deltas'}, ${zstd ? 'zstd' : 'JSONL'})`, () => {
          const { events, plants } = corpusLog(place, 11)
          const jsonl = plantedJsonl(events, pack)
          const log = decodeLog(zstd ? plantedZstd(jsonl) : new TextEncoder().encode(jsonl))
          expect(log.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([])
          const scan = scanSecrets(log)
          const missed: string[] = []
          for (const plant of plants)
            for (const v of plantedValues(plant.secret)) {
              const hash = secretHash(v.value)
              const at = scan.findings.filter((f) => f.hash === hash && f.seq === plant.seq && f.kind === v.kind)
              if (at.length === 0) missed.push(`${v.kind} at seq ${plant.seq}`)
              // Streamed text is found in its deltas too, from the delta where it starts.
              if (place === 'assistant-text' || place === 'reasoning') {
                const streamed = scan.findings.filter((f) => f.hash === hash && f.field === 'data.chunk.text')
                if (streamed.length === 0) missed.push(`${v.kind} in the stream of seq ${plant.seq}`)
              }
            }
          expect(missed).toStrictEqual([])
          // Nothing else: every finding is one of the planted values.
          const planted = new Set(plants.flatMap((p) => plantedValues(p.secret).map((v) => secretHash(v.value))))
          expect(scan.findings.filter((f) => !planted.has(f.hash)).map((f) => `${f.seq} ${f.kind}`)).toStrictEqual([])
        })
      }
})

describe('generated logs with secrets at known seqs', () => {
  it('are found exactly there, seen by the model when search says', () => {
    fc.assert(
      fc.property(validLogArb, fc.integer({ min: 1, max: 1_000_000 }), (events, seed) => {
        const { events: planted, plants } = plantSecrets(events, chooser(seed), seed)
        const log = decodeLog(new TextEncoder().encode(plantedJsonl(planted, seed % 2 === 0)))
        const scan = scanSecrets(log)
        const plantedHashes = new Set(plants.flatMap((p) => plantedValues(p.secret).map((v) => secretHash(v.value))))
        expect(scan.findings.filter((f) => !plantedHashes.has(f.hash)).map((f) => f.kind)).toStrictEqual([])
        for (const plant of plants)
          for (const v of plantedValues(plant.secret)) {
            const hash = secretHash(v.value)
            const mine = scan.findings.filter((f) => f.hash === hash)
            expect(mine.some((f) => f.seq === plant.seq)).toBe(true)
            const seqOf = (i: number): number => log.seqOf(i) as number
            const ours = merge(mine.flatMap((f) => f.visible.map((r) => ({ from: seqOf(r.from), to: seqOf(r.to) }))))
            expect(ours).toStrictEqual(searchVisible(log, v.value))
          }
      }),
      { numRuns: 150 },
    )
  })
})
