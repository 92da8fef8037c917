/**
 * Request view state (issue 8 §1): which tab the middle column shows (the model surface or the Request view) and
 * the step the user picked, if any. The request itself lives in the worker; the view asks for it.
 *
 * Rule: with no step picked, the Request view follows the cursor and shows the step whose request is in force
 * there (the step containing the cursor, else the last one started before it: the core's `stepPositionAt`).
 * Picking a step (the step picker, prev/next, `#step=T.S`) pins it until "follow cursor" is chosen again.
 */

import type { RejectionCode, StepListEntry } from '../../core/index.ts'
import type { StepRequestAnswer, StepTarget } from '../../protocol/step-request.ts'
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
  /**
   * The request of a step (or of the step in force at an index); `have` is the key of the answer held, so an
   * unchanged request costs a tiny `unchanged` reply.
   */
  stepRequest: (target: StepTarget, have: string | null) => Promise<StepRequestAnswer>
  /** Every step, for the picker. */
  stepList: () => Promise<readonly StepListEntry[]>
  /** A step's request as `lens request --json` prints it, and the file name to save it as. */
  stepRequestJson: (step: StepRef) => Promise<{ readonly text: string; readonly fileName: string }>
  /** `#step=T.S`: the Request tab on that step; `moveCursor` also moves the cursor to the step's request point. */
  openStepLink: (step: StepRef, moveCursor: boolean) => Promise<void>
  /** A diagnostic a provider would reject: the Request tab on the first step whose request carries it. */
  openRejectingStep: (code: RejectionCode, seq: number) => Promise<void>
}

export const createRequestSlice: LensSliceCreator<RequestSlice> =
  ({ lens: client }) =>
  (set, get, api) => {
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
      stepRequest: (target, have) => client.query('step-request', { target, have }),
      stepList: async () => (await client.query('step-list', {})).steps,
      stepRequestJson: (step) => client.query('step-request-json', step),
      openStepLink: async (step, moveCursor) => {
        get().openRequest(step)
        if (!moveCursor) return
        const answer = await client.query('step-request', { target: step, have: null })
        const atSeq = answer.request?.atSeq
        if (atSeq === undefined) return
        const index = await get().indexOfSeq(atSeq)
        if (index >= 0) get().setCursor(index)
      },
      openRejectingStep: async (code, seq) => {
        const generation = get().loadGeneration
        const step = await client.query('first-rejecting-step', { code, seq })
        if (step !== null && get().loadGeneration === generation) get().openRequest(step)
      },
    }
  }
