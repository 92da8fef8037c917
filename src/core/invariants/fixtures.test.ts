/**
 * Every real harness log in ../shared/fixtures/dsh: exactly which provider-invariant warnings it
 * trips, with seq and text. The harness's own tests write three of them by hand: the
 * agent-instructions checkpoint without its compaction events (the format reference, 4.3, says the
 * compaction companion would reject it), and two web replays with no turn/start or step/start.
 * Every other fixture, zstd re-encodings included, trips none.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { INVARIANT_CODES } from './index.ts'

const checksum = await loadContentChecksum()
const available = fixturesAvailable()
const PROVIDER_INVARIANTS = new Set<string>(INVARIANT_CODES)
const S = (m: string) => `invariant violated by "@deepseek-ai/dsh-session": ${m}`
const C = (m: string) => `invariant violated by "@deepseek-ai/dsh-compaction": ${m}`

const EXPECTED: Record<string, [number, string, string][]> = {
  'acp--agent-instructions--session.jsonl': [
    [17, 'compaction-invariant', C('compaction checkpoint has no matching compaction/start')],
  ],
  'web--minimal-preset--session.jsonl': [
    [1, 'session-invariant', S('assistant/chunk names turn 1/step 1 but open is turn null/step null')],
  ],
  'web--web-search-round--session.jsonl': [
    [1, 'session-invariant', S('assistant/chunk names turn 1/step 1 but open is turn null/step null')],
    [6, 'session-invariant', S('assistant/chunk names turn 1/step 2 but open is turn null/step null')],
  ],
}

function warnings(path: string, slice: number, upgradeLegacy: boolean): [number | null, string, string][] {
  const bytes = readFileSync(path)
  const log = new LensLog({ checksum, upgradeLegacy })
  for (let i = 0; i < bytes.length; i += slice) log.push(bytes.subarray(i, i + slice))
  log.finish()
  return log.diagnostics.filter((d) => PROVIDER_INVARIANTS.has(d.code)).map((d) => [d.seq, d.code, d.message])
}

const baseName = (name: string) => name.replace(/\.jsonl\.zstd$/, '.jsonl')

describe.runIf(available)('provider invariants on the harness fixtures', () => {
  const fixtures = available ? listFixtures() : []

  it('the expected names are fixtures', () => {
    for (const name of Object.keys(EXPECTED)) expect(fixtures.map((f) => f.name)).toContain(name)
  })

  it.each(fixtures.map((f) => [f.name, f.path] as const))('%s', (name, path) => {
    const expected = EXPECTED[name] ?? []
    expect(warnings(path, 1 << 20, true)).toStrictEqual(expected)
    // In any slicing (always as the harness reads the log: un-upgraded legacy shapes lack the fields it checks).
    expect(warnings(path, 777, true)).toStrictEqual(expected)
  })

  it.each((available ? listZstdFixtures() : []).map((f) => [f.name, f.path] as const))('zstd/%s', (name, path) => {
    expect(warnings(path, 1 << 20, true)).toStrictEqual(EXPECTED[baseName(name)] ?? [])
  })
})
