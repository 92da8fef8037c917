/**
 * Whether one run is a fork of the other, as the harness forks (`SessionStore.fork` and the web host's
 * `session.fork`, format reference 5): the child's header names its parent (`parentSession`) and says how many
 * leading events it copied verbatim, at the same seqs (`seedLength`); the harness then appends `session/end-seed` at
 * seq `seedLength` and the child's own turns. Both fork paths cut the seed at a turn boundary (the host's "fork from
 * here" through the trailing between-turn events, up to the next `turn/start`), so the seed holds whole turns.
 *
 * Two forks of one parent share the shorter seed the same way. The shared seed is one block: compared once, event by
 * event (lineage's `checkSeedPrefix`), and the comparison of steps starts after it. A header that claims a seed the
 * two logs do not share (the wrong parent file, a parent rewritten since) is said, never trusted: the runs are then
 * compared from their first step.
 */

import type { LensLog } from '../log/lens-log.ts'
import { checkSeedPrefix } from '../lineage/seed-prefix.ts'

export interface ForkBlock {
  /** The parent's session id. */
  readonly parent: string
  /** Events shared verbatim at the start of both logs. */
  readonly seedLength: number
}

export interface ForkVerdict {
  /** The shared seed, when a header claims it and both logs hold it. */
  readonly fork: ForkBlock | null
  /** Which run is the child: 'a', 'b', or 'both' for two forks of one parent; null when no header claims a fork. */
  readonly child: 'a' | 'b' | 'both' | null
  /** Why a claimed seed was not used (the first event that differs, or a log too short), or null. */
  readonly mismatch: string | null
}

const NO_FORK: ForkVerdict = { fork: null, child: null, mismatch: null }

function seedOf(log: LensLog): { id: string | null; parent: string | null; seedLength: number } {
  const header = log.header
  const id = typeof header?.id === 'string' ? header.id : null
  const parent = typeof header?.parentSession === 'string' ? header.parentSession : null
  const seed = header?.seedLength
  return { id, parent, seedLength: typeof seed === 'number' && Number.isSafeInteger(seed) && seed > 0 ? seed : 0 }
}

/** The fork relation of two runs, its seed checked event by event. */
export function forkVerdict(a: LensLog, b: LensLog): ForkVerdict {
  const ha = seedOf(a)
  const hb = seedOf(b)
  let claim: { parent: string; seedLength: number; child: 'a' | 'b' | 'both' } | null = null
  if (hb.parent !== null && hb.parent === ha.id && hb.seedLength > 0)
    claim = { parent: hb.parent, seedLength: hb.seedLength, child: 'b' }
  else if (ha.parent !== null && ha.parent === hb.id && ha.seedLength > 0)
    claim = { parent: ha.parent, seedLength: ha.seedLength, child: 'a' }
  else if (ha.parent !== null && ha.parent === hb.parent && ha.seedLength > 0 && hb.seedLength > 0)
    claim = { parent: ha.parent, seedLength: Math.min(ha.seedLength, hb.seedLength), child: 'both' }
  if (claim === null) return NO_FORK
  const parentLog = claim.child === 'a' ? b : a
  const childLog = claim.child === 'a' ? a : b
  const check = checkSeedPrefix(
    claim.seedLength,
    (i) => (i < parentLog.length ? parentLog.event(i) : undefined),
    (i) => (i < childLog.length ? childLog.event(i) : undefined),
  )
  if (check.divergesAt !== null) {
    const who =
      claim.child === 'both'
        ? 'both runs are forks of one parent'
        : `${claim.child.toUpperCase()} is a fork of ${claim.child === 'a' ? 'B' : 'A'}`
    return {
      fork: null,
      child: claim.child,
      mismatch: `${who} with a ${claim.seedLength}-event seed, but ${check.reason ?? 'the seeds differ'}: compared from the first step`,
    }
  }
  return { fork: { parent: claim.parent, seedLength: claim.seedLength }, child: claim.child, mismatch: null }
}
