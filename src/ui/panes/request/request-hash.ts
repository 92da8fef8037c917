/**
 * `#step=T.S` applied to the store: the Request tab opens pinned on that step. Without `#seq`, the cursor also
 * moves to the step's request point (`atSeq`), so the surface and transcript show what the model was sent.
 */

import { indexOfSeqInSummary } from '../../../protocol/log-summary.ts'
import type { LensStore } from '../../../store/create-lens-store.ts'
import type { LensState } from '../../../store/create-lens-store.ts'
import type { StepRef } from '../../../store/slices/request-slice.ts'
import { parseStepParam } from './step-hash.ts'

export async function applyStepHash(store: LensStore, hash: string, hasSeq: boolean): Promise<void> {
  const step = parseStepParam(hash)
  if (step === null) return
  store.getState().openRequest(step)
  if (hasSeq) return
  const answer = await store.client.query('step-request', { target: step, have: null })
  const atSeq = answer.request?.atSeq
  if (atSeq === undefined) return
  const summary = store.getState().summary
  const known = summary === null ? null : indexOfSeqInSummary(summary, atSeq)
  const index = known ?? (await store.client.query('index-of-seq', { seq: atSeq }))
  if (index >= 0) store.getState().setCursor(index)
}

/** The step the hash carries for this state: the picked step while the Request tab shows it. */
export function hashStepOf(s: LensState): StepRef | null {
  return s.middleTab === 'request' ? s.requestPin : null
}
