/** The usage cache's compact facts give back exactly what they were given: every fixture, generated logs with breaks. */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { costFactsOfLog, LensLog } from '../../core/index.ts'
import { generateSession, toJsonl } from '../../generate/index.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { decodeFacts, encodeFacts } from './facts-codec.ts'

function facts(bytes: Uint8Array) {
  const log = new LensLog()
  log.push(bytes)
  log.finish()
  return costFactsOfLog(log)
}

describe('the usage cache facts codec', () => {
  it.runIf(fixturesAvailable())('round-trips every fixture, through JSON', () => {
    for (const fixture of listFixtures()) {
      const f = facts(readFileSync(fixture.path))
      expect(decodeFacts(JSON.parse(JSON.stringify(encodeFacts(f))))).toStrictEqual(f)
    }
  })

  it('round-trips a generated log with compactions, prunes, header changes and retries', () => {
    const f = facts(
      new TextEncoder().encode(
        toJsonl(
          generateSession({
            seed: 3,
            targetEvents: 8_000,
            retryEverySteps: 5,
            compactionEveryTurns: 3,
            pruneEveryTurns: 2,
            headerChangeEveryTurns: 3,
          }),
        ),
      ),
    )
    expect(f.steps.some((s) => s.breakCauses.length > 1 || s.breakCauses.some((c) => c.kind === 'header'))).toBe(true)
    expect(decodeFacts(JSON.parse(JSON.stringify(encodeFacts(f))))).toStrictEqual(f)
  })
})
