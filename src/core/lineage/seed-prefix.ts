/**
 * A fork's shared prefix (format reference 5): `header.seedLength` says the first `seedLength` events were copied
 * from the parent verbatim, at the same seqs. This checks it event by event and says where it stops holding.
 */

import { isDeepEqualJson } from '../fold/surface-checks.ts'

export interface SeedCheck {
  readonly seedLength: number
  /** Leading events that are equal in both logs (=== seedLength when the prefix holds). */
  readonly matching: number
  /** Index (= seq in a valid log) of the first seed event that differs or is missing, or null when all match. */
  readonly divergesAt: number | null
  readonly reason: string | null
}

/**
 * Compare the first `seedLength` events of child and parent (`eventAt(i)` gives event i as decoded, or undefined past
 * the end). Events are compared as JSON values (key order ignored, as the harness copies values, not bytes).
 */
export function checkSeedPrefix(
  seedLength: number,
  parentAt: (index: number) => unknown,
  childAt: (index: number) => unknown,
): SeedCheck {
  for (let i = 0; i < seedLength; i++) {
    const child = childAt(i)
    const parent = parentAt(i)
    let reason: string | null = null
    if (child === undefined) reason = `the child log ends after ${i} events, inside its ${seedLength}-event seed`
    else if (parent === undefined) reason = `the parent log has only ${i} events, fewer than the child's seed of ${seedLength}`
    else if (!isDeepEqualJson(child, parent)) reason = `event ${i} differs from the parent's event ${i}`
    if (reason !== null) return { seedLength, matching: i, divergesAt: i, reason }
  }
  return { seedLength, matching: seedLength, divergesAt: null, reason: null }
}
