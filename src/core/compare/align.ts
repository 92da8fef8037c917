/**
 * Which step of one run stands beside which step of the other. After a fork's shared seed (whose steps are one
 * block, never listed), turns are paired in order (the first turn after the seed with the first, and so on, whatever
 * their numbers) and steps within a turn in order; a turn or step only one run has is listed unpaired, in its place.
 * Turns without any step (aborted before the first request) hold no request and are skipped.
 */

import type { RunIndex, RunStep } from './run-index.ts'

export interface AlignedPair {
  readonly a: RunStep | null
  readonly b: RunStep | null
}

/** The run's steps after the first `seedLength` events, grouped by turn, in log order. */
function turnsAfter(run: RunIndex, seedLength: number): RunStep[][] {
  const turns: RunStep[][] = []
  let ordinal = -1
  for (const step of run.steps) {
    if (step.startIndex < seedLength) continue
    if (step.turnOrdinal !== ordinal) {
      turns.push([])
      ordinal = step.turnOrdinal
    }
    ;(turns.at(-1) as RunStep[]).push(step)
  }
  return turns
}

export function alignSteps(a: RunIndex, b: RunIndex, seedLength: number): AlignedPair[] {
  const ta = turnsAfter(a, seedLength)
  const tb = turnsAfter(b, seedLength)
  const pairs: AlignedPair[] = []
  for (let t = 0; t < Math.max(ta.length, tb.length); t++) {
    const sa = ta[t] ?? []
    const sb = tb[t] ?? []
    for (let s = 0; s < Math.max(sa.length, sb.length); s++) pairs.push({ a: sa[s] ?? null, b: sb[s] ?? null })
  }
  return pairs
}
