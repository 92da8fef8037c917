/** The cost of the Request view's step, in the page's currency: asked of the worker (`step-cost`) per step shown. */

import type { StepCostAnswer } from '../../../protocol/cost.ts'
import type { StepRef } from '../../../store/slices/request-slice.ts'
import { useLensStore } from '../../../store/lens-store-context.tsx'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'

/** undefined while it is asked; an answer for another step or currency is never returned. */
export function useStepCost(step: StepRef | null): StepCostAnswer | undefined {
  const currency = useLensStore((s) => s.currency)
  return useWorkerAnswer(step === null ? null : `step-cost:${step.turn}.${step.step}:${currency}`, (ask) =>
    step === null ? null : ask('step-cost', { turn: step.turn, step: step.step, currency }),
  )
}
