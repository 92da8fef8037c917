/**
 * The provider rules a step's request breaks, judged on that request's own messages as the DeepSeek adapter puts
 * them on the wire (wire-shape.ts). Not where a diagnostic was first raised: a broken pairing stays in every later
 * request until a replacement takes it off the surface, and each of those requests is refused.
 *
 * The rules, as OpenAI-compatible chat APIs (DeepSeek's among them) validate `messages`:
 * - a `tool` message must belong to the run of tool messages right after an assistant message whose `tool_calls`
 *   hold its `tool_call_id` (`orphan-tool-result`);
 * - every call of an assistant message must be answered in that run, before any other message
 *   (`unanswered-tool-call`; also when the request ends on the assistant message);
 * - a tool call needs a non-empty id (`tool-call-id-empty`), unique in the request (`tool-call-id-duplicate`);
 * - text must be valid Unicode: no lone UTF-16 surrogate (`lone-surrogate`).
 */

import { hex } from '../invariants/lone-surrogate.ts'
import { isToolRun, wireShapeOf, type WireShape } from './wire-shape.ts'

export type RejectionCode =
  'orphan-tool-result' | 'unanswered-tool-call' | 'tool-call-id-empty' | 'tool-call-id-duplicate' | 'lone-surrogate'

/** Every code, in the order lists and banners give them. */
export const REJECTION_CODES: readonly RejectionCode[] = [
  'orphan-tool-result',
  'unanswered-tool-call',
  'tool-call-id-empty',
  'tool-call-id-duplicate',
  'lone-surrogate',
]

/** One broken rule of a request: the message that breaks it (index in the request, and its seq) and what is wrong. */
export interface Rejection {
  readonly code: RejectionCode
  readonly index: number
  readonly seq: number
  readonly message: string
}

/**
 * What a provider answers, in plain words. The two pairing texts are the errors DeepSeek's API returns (HTTP 400,
 * `invalid_request_error`), as its users report them; for the others DeepSeek documents nothing, so the answer
 * says what an OpenAI-compatible API does with such a request.
 */
export const PROVIDER_ANSWERS: Readonly<Record<RejectionCode, string>> = {
  'orphan-tool-result':
    "HTTP 400 from DeepSeek's API (invalid_request_error): “Messages with role 'tool' must be a response to a preceding message with 'tool_calls'”. The step fails before the model reads anything.",
  'unanswered-tool-call':
    "HTTP 400 from DeepSeek's API (invalid_request_error): “An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)”. The step fails before the model reads anything.",
  'tool-call-id-empty':
    'A tool call without an id cannot be answered: its tool message would carry tool_call_id "". OpenAI-compatible APIs refuse such a request as invalid (HTTP 400).',
  'tool-call-id-duplicate':
    "Two tool calls share an id, so a result cannot say which one it answers. OpenAI's API refuses it with HTTP 400 (“Duplicate value for 'tool_call_id'”); other OpenAI-compatible APIs refuse it or pair a result with the wrong call.",
  'lone-surrogate':
    'A lone UTF-16 surrogate is not a Unicode character: the request body carries it as an escape (\\ud800…), which a strict JSON parser refuses (HTTP 400) and a lenient one turns into U+FFFD, so the model is not sent what the log holds.',
}

/** The rules' short names, for banners and reports. */
export const REJECTION_RULES: Readonly<Record<RejectionCode, string>> = {
  'orphan-tool-result': 'a tool result answers no call right before it',
  'unanswered-tool-call': 'a tool call is not answered right after it',
  'tool-call-id-empty': 'a tool call has no id',
  'tool-call-id-duplicate': 'two tool calls share an id',
  'lone-surrogate': 'a message holds a lone UTF-16 surrogate',
}

const codeOrder = (code: RejectionCode) => REJECTION_CODES.indexOf(code)

interface Group {
  readonly index: number
  readonly seq: number
  readonly calls: ReadonlySet<string>
  readonly pending: Set<string>
}

/**
 * The rules `messages` (a step's request, in order) break. `shapes`: their wire shapes when the caller has them
 * already (LensLog keeps one per surface node); else they are read off the messages.
 */
export function requestRejections(
  messages: readonly { readonly seq: number; readonly message: unknown }[],
  shapes: readonly WireShape[] = messages.map((m) => wireShapeOf(m.message)),
): Rejection[] {
  const out: Rejection[] = []
  /** Where each call id was first made in this request. */
  const made = new Map<string, { index: number; seq: number }>()
  let group: Group | null = null
  /** The message that ended the last run of tool messages (a user message), for the orphan's wording. */
  let breaker: { index: number; seq: number } | null = null
  const close = () => {
    if (group === null) return
    for (const id of group.pending)
      out.push({
        code: 'unanswered-tool-call',
        index: group.index,
        seq: group.seq,
        message: `tool call ${id} of message ${group.index} (seq ${group.seq}) has no tool result right after it`,
      })
    group = null
  }
  for (const [index, { seq }] of messages.entries()) {
    const shape = shapes[index] as WireShape
    if (shape.surrogate !== undefined) {
      const path = shape.surrogate.path.replace(/^\./, '')
      out.push({
        code: 'lone-surrogate',
        index,
        seq,
        message: `message ${index} (seq ${seq}) holds a lone UTF-16 surrogate ${hex(shape.surrogate.unit)} in ${path} at character ${shape.surrogate.offset}`,
      })
    }
    if (shape.assistant) {
      close()
      const calls = new Set<string>()
      for (const [k, id] of shape.calls.entries()) {
        if (id === '') {
          out.push({
            code: 'tool-call-id-empty',
            index,
            seq,
            message: `tool call ${k + 1} of message ${index} (seq ${seq}) has an empty id`,
          })
          continue
        }
        const first = made.get(id)
        if (first !== undefined) {
          const where = first.index === index ? 'earlier in this message' : `in message ${first.index} (seq ${first.seq})`
          out.push({
            code: 'tool-call-id-duplicate',
            index,
            seq,
            message: `tool call id ${id} of message ${index} (seq ${seq}) is already used ${where}`,
          })
        } else made.set(id, { index, seq })
        calls.add(id)
      }
      group = { index, seq, calls, pending: new Set(calls) }
      breaker = null
      continue
    }
    if (!isToolRun(shape)) {
      if (!shape.leadingUser) continue
      close()
      breaker = { index, seq }
    }
    for (const id of shape.results) {
      const current = group as Group | null
      if (current !== null && current.calls.has(id)) {
        current.pending.delete(id)
        continue
      }
      const call = id === '' ? undefined : made.get(id)
      let why: string
      if (current !== null)
        why = `, but the assistant message right before it (message ${current.index}, seq ${current.seq}) made no such call`
      else if (call !== undefined && breaker !== null && breaker.index !== index)
        why = `, made in message ${call.index} (seq ${call.seq}), but message ${breaker.index} (seq ${breaker.seq}) stands between them`
      else if (breaker !== null && breaker.index === index) why = ', but this message has text before its tool result'
      else if (call !== undefined) why = `, made in message ${call.index} (seq ${call.seq}), not right before it`
      else why = ', which no assistant message before it made'
      out.push({
        code: 'orphan-tool-result',
        index,
        seq,
        message: `the tool result of message ${index} (seq ${seq}) answers call ${id === '' ? '""' : id}${why}`,
      })
    }
  }
  close()
  return out.sort((a, b) => a.index - b.index || codeOrder(a.code) - codeOrder(b.code))
}

/** The distinct codes of a list of rejections, in REJECTION_CODES order. */
export function rejectionCodes(rejections: readonly { readonly code: RejectionCode }[]): RejectionCode[] {
  const present = new Set(rejections.map((r) => r.code))
  return REJECTION_CODES.filter((code) => present.has(code))
}
