/**
 * Replays the fuzz seed corpus (fuzz-corpus/: the worst inputs found, a few KB each) on every run: each file is
 * read in three slicings; none may throw, every slicing must give the same events and diagnostics, the
 * diagnostic codes must stay those recorded in expected.json (a change there is a decision, not drift), and the
 * strict results must equal the harness's fold of the events that were kept. `UPDATE_CORPUS=1` rewrites
 * expected.json after a deliberate change.
 */

import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadContentChecksum } from '../core/decode/xxh64.ts'
import { LensLog } from '../core/log/lens-log.ts'
import { strictResults } from './fuzz-kit.ts'
import { harnessVerdict } from './harness-oracle.ts'

const DIR = new URL('./fuzz-corpus/', import.meta.url)
const EXPECTED = new URL('expected.json', DIR)
const checksum = await loadContentChecksum()
const files = readdirSync(DIR)
  .filter((name) => name !== 'expected.json')
  .sort()
const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as Record<string, { events: number; codes: string[] }>
const update = process.env['UPDATE_CORPUS'] === '1'
const recorded: Record<string, { events: number; codes: string[] }> = {}

function read(bytes: Uint8Array, slice: number): LensLog {
  const log = new LensLog({ checksum })
  for (let i = 0; i < bytes.length; i += slice) log.push(bytes.subarray(i, i + slice))
  log.finish()
  return log
}

describe('fuzz seed corpus', () => {
  it('holds the worst cases', () => {
    expect(files.length).toBeGreaterThanOrEqual(8)
  })

  for (const name of files) {
    it(name, () => {
      const bytes = readFileSync(new URL(name, DIR))
      const logs = [1, 7, 1 << 16].map((slice) => read(bytes, slice))
      const facts = logs.map((log) => ({
        events: log.length,
        diagnostics: log.diagnostics.map((d) => [d.code, d.line, d.seq, d.message]),
        strict: strictResults(log),
      }))
      for (const other of facts.slice(1)) expect(other).toStrictEqual(facts[0])
      const log = logs[2] as LensLog
      const codes = log.diagnostics.map((d) => d.code)
      recorded[name] = { events: log.length, codes }
      if (!update) expect({ events: log.length, codes }).toStrictEqual(expected[name])
      const events = Array.from({ length: log.length }, (_, i) => log.event(i))
      const harness = harnessVerdict(events)
      const ours = strictResults(log)
      expect(ours.nodes).toStrictEqual(harness.nodes)
      expect(ours.error?.message ?? null).toBe(harness.error?.message ?? null)
    })
  }

  it.runIf(update)('rewrites expected.json', () => {
    writeFileSync(EXPECTED, JSON.stringify(recorded, null, 2) + '\n')
  })
})
