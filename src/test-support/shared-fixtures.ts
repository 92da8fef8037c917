/**
 * Locates the harness's real fixtures in ../shared beside the checkout. They are
 * read in place, never copied. In a user's clone the folder is absent: the lane
 * says so once and the rest of the suite runs; under CI=true absence is a failure.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const FIXTURE_DIR = fileURLToPath(new URL('../../../shared/fixtures/dsh/', import.meta.url))

export function fixturesAvailable(): boolean {
  const present = existsSync(FIXTURE_DIR)
  if (!present && process.env['CI'] === 'true') {
    throw new Error(
      `CI=true but the harness fixtures are missing at ${FIXTURE_DIR}: CI must provide ../shared beside the checkout`,
    )
  }
  if (!present) console.log(`harness fixtures not found at ${FIXTURE_DIR}: skipping the fixture lane`)
  return present
}

export interface FixtureExpectation {
  eventCount: number
  nodes: number[]
  replacements: { seq: number; start: number; end: number; shadowedSeqs: number[] }[]
  messageCount?: number
  foldError?: string
  deriveError?: string
}

export function listFixtures(): { name: string; path: string; expected: FixtureExpectation }[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((name) => ({
      name,
      path: FIXTURE_DIR + name,
      expected: JSON.parse(
        readFileSync(`${FIXTURE_DIR}expected/${name.replace(/\.jsonl$/, '.json')}`, 'utf8'),
      ) as FixtureExpectation,
    }))
}

export function listZstdFixtures(): { name: string; path: string; expected: FixtureExpectation }[] {
  return readdirSync(FIXTURE_DIR + 'zstd')
    .sort()
    .map((name) => ({
      name,
      path: `${FIXTURE_DIR}zstd/${name}`,
      expected: JSON.parse(
        readFileSync(`${FIXTURE_DIR}expected/${name.replace(/\.jsonl\.zstd$/, '.json')}`, 'utf8'),
      ) as FixtureExpectation,
    }))
}
