/**
 * Request view state (issue 8 §1): which tab the middle column shows (the model surface or the Request view) and
 * the step the user picked, if any. The request itself lives in the worker; the view asks for it.
 *
 * Rule: with no step picked, the Request view follows the cursor and shows the step whose request is in force
 * there (the step containing the cursor, else the last one started before it: the core's `stepPositionAt`).
 * Picking a step (the step picker, prev/next, `#step=T.S`) pins it until "follow cursor" is chosen again.
 */

import type { LensSliceCreator } from './types.ts'

export interface StepRef {
  readonly turn: number
  readonly step: number
}

export type MiddleTab = 'surface' | 'request'

export interface RequestSlice {
  middleTab: MiddleTab
  /** The picked step, or null to follow the cursor. */
  requestPin: StepRef | null
  setMiddleTab: (tab: MiddleTab) => void
  /** Show the Request tab on `pin` (null: follow the cursor). */
  openRequest: (pin: StepRef | null) => void
}

export const createRequestSlice: LensSliceCreator<RequestSlice> = () => (set, _get, api) => {
  // A picked step belongs to the log it was picked in: a new load follows the cursor again (a `#step` deep link is
  // applied after its load is ready, so it still pins).
  api.subscribe((s, previous) => {
    if (s.loadGeneration !== previous.loadGeneration && s.requestPin !== null) set({ requestPin: null })
  })
  return {
    middleTab: 'surface',
    requestPin: null,
    setMiddleTab: (middleTab) => set({ middleTab }),
    openRequest: (requestPin) => set({ middleTab: 'request', requestPin }),
  }
}
