/**
 * Vitest setup for every property test: a failing fc.assert already prints its seed
 * and shrink path ("{ seed: S, path: "P", endOnFailure: true }"); this makes that
 * seed replayable from the environment, so a red run is reproduced exactly:
 *
 *   FC_SEED=S [FC_PATH=P] npx vitest run path/to/file.test.ts
 *
 * Without FC_SEED each run draws a fresh seed (new cases every run, never a fixed set).
 */

import fc from 'fast-check'

const seedText = process.env['FC_SEED']?.trim()
if (seedText !== undefined && seedText !== '') {
  const seed = Number(seedText)
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got "${seedText}"`)
  const path = process.env['FC_PATH']?.trim()
  fc.configureGlobal({ seed, ...(path ? { path } : {}) })
}
