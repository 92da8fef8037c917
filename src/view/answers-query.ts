/**
 * The worker's answers to "which request would a provider reject" and "what did a compaction forget" (issue 31),
 * from the core's per-step rules and compaction facts. The facts of every summary come from one pass over the log;
 * they are kept per log and length, so picking summaries one after another costs that pass once (a live log that
 * grew is looked at again).
 */

import { compactionsForgot, stepList, type CompactionForgot, type LensLog, type RejectionCode } from '../core/index.ts'
import type { StepRef } from '../protocol/step-request.ts'

const forgotCache = new WeakMap<LensLog, { length: number; bySeq: Map<number, CompactionForgot> }>()

/** What the summary at `seq` forgot, or null when no summary has that seq. */
export function summaryForgot(log: LensLog, seq: number): CompactionForgot | null {
  let cached = forgotCache.get(log)
  if (cached === undefined || cached.length !== log.length) {
    cached = { length: log.length, bySeq: new Map(compactionsForgot(log).map((c) => [c.seq, c])) }
    forgotCache.set(log, cached)
  }
  return cached.bySeq.get(seq) ?? null
}

/**
 * The first step whose request breaks rule `code` and was built at or after event `seq` (a diagnostic's event: a
 * request carries a broken pairing from the first request built after it, until a replacement takes it off).
 */
export function firstRejectingStep(log: LensLog, code: RejectionCode, seq: number): StepRef | null {
  const hit = stepList(log).find((s) => s.atSeq >= seq && s.rejected.includes(code))
  return hit === undefined ? null : { turn: hit.turn, step: hit.step }
}
