/**
 * Worker side of the Request view (issue 8 §1): the core's `stepRequest` / `stepList` for the loaded log, the same
 * builders `lens request --json` prints, answered for a step (`T.S`) or for a cursor (the step whose request is in
 * force there: `stepPositionAt`). The answer carries the request without its full messages (a message can be a
 * multi-megabyte tool result) plus a short text preview per message; the exact CLI JSON is a separate query, asked
 * for only when the user copies or saves it. A live log grows between queries: every answer reflects the events
 * stored so far, and the key below changes with the log's length so the view refetches.
 */

import {
  findStepPosition,
  isRecord,
  stepList,
  stepPositionAt,
  stepRequest,
  stepSpans,
  stepTimingAt,
  toolNameDiff,
  type LensLog,
  type StepRequestJson,
} from '../core/index.ts'
import { estimateTokens } from '../core/model/token-estimate.ts'
import { previewMessage } from './message-text.ts'
import type {
  HeaderChangeDetail,
  RequestMessageRow,
  StepListAnswer,
  StepRequestAnswer,
  StepRequestJsonText,
  StepRequestView,
  StepTarget,
} from '../protocol/step-request.ts'

/** Characters of message text a request row carries; the inspector has the whole event. */
export const REQUEST_ROW_TEXT_MAX = 1200

/** A small id per LensLog object, so a key never matches across two loads. */
const logIds = new WeakMap<LensLog, number>()
let nextLogId = 1
function logId(log: LensLog): number {
  let id = logIds.get(log)
  if (id === undefined) {
    id = nextLogId++
    logIds.set(log, id)
  }
  return id
}

/** Resolve a target to a step position, or -1. */
export function targetPosition(log: LensLog, target: StepTarget): number {
  if ('index' in target)
    return log.length === 0 ? -1 : stepPositionAt(log, Math.max(0, Math.min(Math.trunc(target.index), log.length - 1)))
  return findStepPosition(log, target.turn, target.step)
}

function rowOf(seq: number, message: unknown): RequestMessageRow {
  const preview = previewMessage(message)
  const role = isRecord(message) && typeof message['role'] === 'string' ? message['role'] : '?'
  const clipped = preview.text.length > REQUEST_ROW_TEXT_MAX
  return {
    seq,
    role,
    text: clipped ? preview.text.slice(0, REQUEST_ROW_TEXT_MAX) : preview.text,
    reasoning:
      preview.reasoning.length > REQUEST_ROW_TEXT_MAX ? preview.reasoning.slice(0, REQUEST_ROW_TEXT_MAX) : preview.reasoning,
    toolCalls: preview.toolCalls,
    truncated: preview.truncated || clipped,
    tokens: estimateTokens(message),
  }
}

/** A request as the Request view lists it: the request without its messages, and a preview row per message. */
export function requestRows(json: StepRequestJson): { request: StepRequestView; rows: RequestMessageRow[] } {
  const { messages, ...rest } = json
  return { request: { ...rest, messageCount: messages.length }, rows: messages.map((m) => rowOf(m.seq, m.message)) }
}

/** The `step-request` query. `have`: the key of the answer the caller holds (skips resending an unchanged one). */
export function stepRequestAnswer(log: LensLog, target: StepTarget, have: string | null): StepRequestAnswer {
  const stepCount = stepSpans(log).length
  const position = targetPosition(log, target)
  const key = `${logId(log)}:${position}:${log.length}`
  const empty = { key, position, stepCount, request: null, rows: [], headerChange: null, timing: null }
  if (position === -1) return { ...empty, unchanged: false }
  if (have === key) return { ...empty, unchanged: true }
  const json = stepRequest(log, position)
  if (json === undefined) return { ...empty, position: -1, unchanged: false }
  let headerChange: HeaderChangeDetail | null = null
  if (json.diff.headerChanged.length > 0 && position > 0) {
    // Header changes are rare: the previous step's request is built again only then, for its header.
    const previous = stepRequest(log, position - 1)?.header ?? null
    const tools = toolNameDiff(previous, json.header)
    headerChange = { previousConfig: previous?.['config'] ?? null, toolsAdded: tools.added, toolsRemoved: tools.removed }
  }
  return {
    key,
    unchanged: false,
    position,
    stepCount,
    ...requestRows(json),
    headerChange,
    timing: stepTimingAt(log, position)?.json ?? null,
  }
}

/** The `step-list` query: the CLI's `--list` answer. */
export function stepListAnswer(log: LensLog): StepListAnswer {
  return { steps: stepList(log) }
}

/** The `step-request-json` query: the exact CLI text for step `turn.step`; throws for an unknown step. */
export function stepRequestJsonText(log: LensLog, turn: number, step: number): StepRequestJsonText {
  const position = findStepPosition(log, turn, step)
  const json = position === -1 ? undefined : stepRequest(log, position)
  if (json === undefined) throw new Error(`no step ${turn}.${step} in this log`)
  return { text: `${JSON.stringify(json)}\n`, fileName: `request-${turn}.${step}.json` }
}
