/**
 * On generated logs (valid ones, and the same mutated into every kind of invalid one): the provider
 * invariant warnings never change what the fold says (the strict nodes, replacements and first
 * error stay exactly the harness's), are all warnings, and the session companion's first finding is
 * exactly where and what the harness's own companion (its published code, see
 * session-invariant-oracle.ts) throws when it seeds a session with the same events.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { mutatedJsonLogArb, validLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { sessionInvariantVerdict } from '../../test-support/session-invariant-oracle.ts'
import { LensLog } from '../log/lens-log.ts'
import { INVARIANT_CODES } from './index.ts'

const PROVIDER_INVARIANTS = new Set<string>(INVARIANT_CODES)

function read(records: readonly unknown[]): LensLog {
  const log = new LensLog()
  const bytes = toJsonlBytes(records)
  for (let i = 0; i < bytes.length; i += 4096) log.push(bytes.subarray(i, i + 4096))
  log.finish()
  return log
}

/** How often the harness's companion accepted, threw its own text, or threw a TypeError: the comparison must see all three. */
const verdicts = { accepted: 0, invariant: 0, typeError: 0 }

function check(events: readonly unknown[], pack: boolean): void {
  // JSON drops what it cannot carry: compare on what survives the trip.
  const onDisk = JSON.parse(JSON.stringify(events)) as unknown[]
  const log = read(pack ? packRecords(onDisk as Record<string, unknown>[]) : onDisk)
  const harness = harnessVerdict(onDisk)
  const last = log.strictLength - 1
  const first = log.fold.firstViolation
  expect(first === undefined ? null : { index: first.index, message: first.message }).toStrictEqual(harness.error)
  expect(log.surfaceSeqsAfter(last)).toStrictEqual(harness.nodes)
  expect(
    log.replacementsAfter(last).map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] })),
  ).toStrictEqual(harness.replacements)
  const warnings = log.diagnostics.filter((d) => PROVIDER_INVARIANTS.has(d.code))
  for (const d of warnings) expect(d.severity).toBe('warning')
  // The only fold-violation diagnostics are the fold's own, whatever the warnings.
  expect(log.diagnostics.filter((d) => d.code === 'fold-violation').map((d) => d.message)).toStrictEqual(
    log.fold.violations.map((v) => v.message),
  )

  // The harness seeds with the events as its reader gives them (legacy shapes upgraded): so does LensLog.
  const asRead = Array.from({ length: log.length }, (_, i) => log.event(i))
  const oracle = sessionInvariantVerdict(asRead)
  verdicts[oracle.index === null ? 'accepted' : oracle.invariant ? 'invariant' : 'typeError']++
  const ours = warnings.filter((d) => d.code === 'session-invariant')
  if (oracle.index === null) expect(ours).toStrictEqual([])
  else if (oracle.invariant)
    expect({ index: ours[0]?.index, message: ours[0]?.message }).toStrictEqual({ index: oracle.index, message: oracle.message })
  // A TypeError on malformed data: the harness stops there; nothing before it may be flagged.
  else expect(ours[0]?.index ?? Infinity).toBeGreaterThanOrEqual(oracle.index)
}

/** The seed of the coverage check below (any seed whose 300 logs trip every listed code). */
const COVERAGE_SEED = 20261205

describe('provider invariants on generated logs', () => {
  it("valid logs: the fold is the harness's, and the session companion agrees with the harness's own", () => {
    fc.assert(
      fc.property(validLogArb, (events) => check(events, true)),
      { numRuns: 300 },
    )
  })

  it('mutated logs: the same', () => {
    fc.assert(
      fc.property(mutatedJsonLogArb, ({ events }) => check(events, false)),
      { numRuns: 500 },
    )
  })

  it('both lanes met logs the companion accepts and logs it refuses with its own text', () => {
    expect(verdicts.accepted).toBeGreaterThan(0)
    expect(verdicts.invariant).toBeGreaterThan(0)
  })

  it('the generated logs do trip the invariants (the checks are exercised, not vacuous)', () => {
    const codes = new Set<string>()
    // A fixed seed: this is a check of what the generator reaches, not a property, and on a fresh seed 300 logs
    // missed 'compaction-invariant' once in CI-sized runs (nothing to replay then: a coverage miss prints no seed).
    // The properties above draw fresh seeds every run.
    fc.assert(
      fc.property(mutatedJsonLogArb, ({ events }) => {
        const log = read(JSON.parse(JSON.stringify(events)) as unknown[])
        for (const d of log.diagnostics) if (PROVIDER_INVARIANTS.has(d.code)) codes.add(d.code)
      }),
      { numRuns: 300, seed: COVERAGE_SEED },
    )
    for (const code of ['session-invariant', 'compaction-invariant', 'orphan-tool-result']) expect(codes).toContain(code)
  })
})
