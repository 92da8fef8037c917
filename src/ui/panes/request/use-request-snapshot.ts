/**
 * What the Request view shows, as one snapshot: the step's request together with the two answers its facts block
 * asks for after it (the changed message's text diff, the step's cost). The view switches to a step's snapshot when
 * all three are in; until then the previous snapshot stays whole. The diff is always waited for (its search is
 * bounded: message-text-diff.ts); the cost for at most `COST_DEADLINE_MS` (a big log's first ask builds its cost
 * index), after which the step shows with the cost line's placeholder.
 *
 * Why: each part arriving on its own changed the facts block's height, and with it the message list's, up to three
 * times in the first second of a step (and on every growth of a live log, which re-asks each part), so the rows
 * moved under the reader's eyes. A snapshot's parts always belong to its request: never a diff or a cost of
 * another step, currency or length of the log.
 */

import { useEffect, useState } from 'react'
import type { MessageDiffAnswer, StepRequestAnswer } from '../../../protocol/step-request.ts'
import type { StepCostAnswer } from '../../../protocol/cost.ts'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'
import { useStepCost } from './use-step-cost.ts'

/** How long a step's request waits for its cost before it is shown without it. */
export const COST_DEADLINE_MS = 300

export interface RequestSnapshot {
  readonly answer: StepRequestAnswer
  /** The changed message's diff: null when no message changed, undefined while it is still being computed. */
  readonly messageDiff: MessageDiffAnswer | null | undefined
  /** The step's cost: undefined while it is still being computed. */
  readonly cost: StepCostAnswer | undefined
}

/** `answer`: the step request to show next (null: nothing to show, e.g. no step at the cursor or a new log). */
export function useRequestSnapshot(answer: StepRequestAnswer | null): RequestSnapshot | null {
  const request = answer?.request ?? null
  const step = request === null ? null : { turn: request.turn, step: request.step }
  const messageDiff = useWorkerAnswer(step === null ? null : `${step.turn}.${step.step}`, (ask) =>
    // A diff that fails to compute is shown as none (as before it was waited for), never waited for forever.
    step === null ? null : ask('request-message-diff', step).catch(() => null),
  )
  const cost = useStepCost(step)
  const complete = messageDiff !== undefined && cost !== undefined
  const [overdue, setOverdue] = useState<StepRequestAnswer | null>(null)
  const costPending = answer !== null && cost === undefined
  useEffect(() => {
    if (answer === null || !costPending) return
    const timer = setTimeout(() => setOverdue(answer), COST_DEADLINE_MS)
    return () => clearTimeout(timer)
  }, [answer, costPending])

  const [shown, setShown] = useState<RequestSnapshot | null>(null)
  const show = (next: RequestSnapshot): RequestSnapshot => {
    if (shown?.answer === next.answer && shown.messageDiff === next.messageDiff && shown.cost === next.cost) return shown
    setShown(next)
    return next
  }
  if (answer === null) {
    if (shown !== null) setShown(null)
    return null
  }
  // No request (no step at the cursor) has no parts to wait for.
  if (request === null || complete) return show({ answer, messageDiff, cost })
  // The same request with a part asked again (the log grew, the currency changed): its last answer stays until the
  // new one arrives, rather than the block shrinking and growing back.
  if (shown?.answer === answer)
    return show({
      answer,
      // (Not `??`: a diff of null, no message changed, is an answer.)
      messageDiff: messageDiff === undefined ? shown.messageDiff : messageDiff,
      cost: cost ?? shown.cost,
    })
  if (overdue === answer && messageDiff !== undefined) return show({ answer, messageDiff, cost })
  return shown
}
