/**
 * `#step=T.S` applied to the store: the Request tab opens pinned on that step. Without `#seq`, the cursor also
 * moves to the step's request point (`atSeq`), so the surface and transcript show what the model was sent.
 */

import type { LensStore } from '../../../store/create-lens-store.ts'
import type { LensState } from '../../../store/create-lens-store.ts'
import type { StepRef } from '../../../store/slices/request-slice.ts'
import { parseStepParam } from './step-hash.ts'

export async function applyStepHash(store: LensStore, hash: string, hasSeq: boolean): Promise<void> {
  const step = parseStepParam(hash)
  if (step === null) return
  await store.getState().openStepLink(step, !hasSeq)
}

/** The step the hash carries for this state: the picked step while the Request tab shows it. */
export function hashStepOf(s: LensState): StepRef | null {
  return s.middleTab === 'request' ? s.requestPin : null
}
