/**
 * Every real harness log in ../shared/fixtures/dsh (and its zstd/ re-encodings)
 * against the answers the harness's own code gave for it (expected/): same
 * event count, nodes, replacements, message count and fold verdict; and with
 * the legacy upgrades applied, the web-- logs derive their messages without the
 * harness's TypeError.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures, listZstdFixtures, type FixtureExpectation } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from './lens-log.ts'

const checksum = await loadContentChecksum()
const available = fixturesAvailable()

function read(path: string, upgradeLegacy: boolean, slice: number): LensLog {
  const bytes = readFileSync(path)
  const log = new LensLog({ checksum, upgradeLegacy })
  for (let i = 0; i < bytes.length; i += slice) log.push(bytes.subarray(i, i + slice))
  log.finish()
  return log
}

function expectMatches(log: LensLog, expected: FixtureExpectation): void {
  const last = log.strictLength - 1
  expect(log.length).toBe(expected.eventCount)
  expect(log.surfaceSeqsAfter(last)).toStrictEqual(expected.nodes)
  expect(
    log.replacementsAfter(last).map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: r.shadowedSeqs })),
  ).toStrictEqual(expected.replacements)
  expect(log.fold.firstViolation?.message).toBe(expected.foldError)
}

describe.runIf(available)('harness fixtures', () => {
  const fixtures = available ? listFixtures() : []

  it('there are fixtures to check', () => expect(fixtures.length).toBeGreaterThan(90))

  it.each(fixtures.map((f) => [f.name, f] as const))('%s (as on disk, no upgrades)', (_name, fixture) => {
    const log = read(fixture.path, false, 4096)
    expectMatches(log, fixture.expected)
    if (fixture.expected.messageCount !== undefined)
      expect(log.messageCountAfter(log.strictLength - 1)).toBe(fixture.expected.messageCount)
    if (fixture.expected.deriveError !== undefined) {
      expect(log.diagnostics.filter((d) => d.code === 'derive-error').map((d) => d.message)).toContain(
        fixture.expected.deriveError,
      )
    }
  })

  it.each(fixtures.map((f) => [f.name, f] as const))('%s (read as the harness reads it: legacy upgraded)', (name, fixture) => {
    const log = read(fixture.path, true, 1 << 20)
    expectMatches(log, fixture.expected)
    expect(log.diagnostics.filter((d) => d.code === 'derive-error')).toStrictEqual([])
    expect(log.diagnostics.filter((d) => d.code === 'legacy-rejected')).toStrictEqual([])
    if (fixture.expected.messageCount !== undefined)
      expect(log.messageCountAfter(log.strictLength - 1)).toBe(fixture.expected.messageCount)
    if (name.startsWith('web--') && fixture.expected.deriveError !== undefined) expect(log.upgradedEvents).toBeGreaterThan(0)
  })

  it.each((available ? listZstdFixtures() : []).map((f) => [f.name, f] as const))(
    'zstd/%s equals its expected answer',
    (_name, fixture) => {
      for (const slice of [333, 1 << 20]) {
        const log = read(fixture.path, true, slice)
        expect(log.encoding).toBe('zstd')
        expectMatches(log, fixture.expected)
        expect(log.diagnostics.filter((d) => d.code.startsWith('zstd'))).toStrictEqual([])
      }
    },
  )

  it('legacy events are upgraded as the harness does: ids minted from the session id and seq', () => {
    const log = read(fixtures.find((f) => f.name === 'web--steering--session.jsonl')?.path ?? '', true, 1 << 20)
    const upgraded = Array.from({ length: log.length }, (_, i) => i).filter((i) => log.isUpgraded(i))
    expect(upgraded.length).toBe(log.upgradedEvents)
    const am = upgraded.map((i) => log.event(i)).find((e) => e?.type === 'assistant/message')
    expect((am?.data as { message: { id: string; source: { kind: string } } }).message.id).toMatch(/^legacy-message:.+:\d+$/)
    expect((am?.data as { message: { source: { kind: string } } }).message.source.kind).toBe('model')
  })
})
