/**
 * What changed in a message (issue 31 §2): the first message of a step's request that differs from the message at
 * the same position in the previous step's request (a prune rewrote a tool result, a summary replaced a range), as a
 * line diff of the two messages' texts. The diff is the core's (`messageTextDiff`, src/core/request/message-text-diff.ts,
 * which the comparison of two runs reads too), computed here in the worker: a tool result can be megabytes.
 */

import { findStepPosition, isDeepEqualJson, messageTextDiff, stepRequest, type LensLog } from '../core/index.ts'
import type { MessageDiffAnswer } from '../protocol/step-request.ts'

/**
 * The text diff of the first message of step `turn.step`'s request that differs from the message at the same
 * position in the previous step's request; null when there is no such step, no previous step, or no message at a
 * position both requests have differs.
 */
export function requestMessageDiff(log: LensLog, turn: number, step: number): MessageDiffAnswer | null {
  const position = findStepPosition(log, turn, step)
  if (position <= 0) return null
  const current = stepRequest(log, position)
  const previous = stepRequest(log, position - 1)
  if (current === undefined || previous === undefined) return null
  const shared = Math.min(current.messages.length, previous.messages.length)
  for (let index = 0; index < shared; index++) {
    const now = current.messages[index] as { seq: number; message: unknown }
    const before = previous.messages[index] as { seq: number; message: unknown }
    if (isDeepEqualJson(now.message, before.message)) continue
    return {
      index,
      seq: now.seq,
      previousSeq: before.seq,
      previousStep: `${previous.turn}.${previous.step}`,
      ...messageTextDiff(before.message, now.message),
    }
  }
  return null
}
