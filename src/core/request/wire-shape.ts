/**
 * What a provider sees of one harness message: the shape the DeepSeek adapter gives it on the wire
 * (`@deepseek-ai/dsh-llm-deepseek`'s `serializeMessages`, transliterated): an assistant message becomes one
 * `assistant` message whose `tool_calls` are its `tool-call` blocks; a system message one `system` message; any
 * other message a `user` message (only when it has text, or no tool result at all) followed by one `tool` message
 * per `tool-result` block. The agent loop sends `session.deriveMessages()` unchanged (its request-reconstruction
 * invariant checks exactly that), so these shapes are what a provider's request validation judges.
 *
 * Kept small on purpose: LensLog records one per surface node as it folds (so a step's rules are checked without
 * parsing its events again), and the Request view's checker reads the same function off the request's messages.
 */

import { findLoneSurrogate, type SurrogateHit } from '../invariants/lone-surrogate.ts'

export interface WireShape {
  /** An `assistant` wire message (its tool calls are `calls`). */
  readonly assistant: boolean
  /** Tool-call ids in block order; '' for a missing, empty or non-string id. */
  readonly calls: readonly string[]
  /** A `user` (or `system`) wire message comes first: it ends any run of tool messages before it. */
  readonly leadingUser: boolean
  /** The `tool_call_id` of each `tool` wire message that follows, in order ('' when not a non-empty string). */
  readonly results: readonly string[]
  /** The first lone UTF-16 surrogate in the message, if any. */
  readonly surrogate: SurrogateHit | undefined
}

const NO_IDS: readonly string[] = []

const prop = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined

const idOf = (value: unknown): string => (typeof value === 'string' ? value : '')

/**
 * The wire shape of a derived message. `checkSurrogates`: false when the caller knows the message holds none
 * (its JSON text has no `\uD8..`-`\uDF..` escape), which skips the walk over every string.
 */
export function wireShapeOf(message: unknown, checkSurrogates = true): WireShape {
  const content = prop(message, 'content')
  const blocks: readonly unknown[] = Array.isArray(content) ? content : []
  const role = prop(message, 'role')
  const surrogate = checkSurrogates ? findLoneSurrogate(message) : undefined
  if (role === 'assistant') {
    const calls: string[] = []
    for (const block of blocks) if (prop(block, 'type') === 'tool-call') calls.push(idOf(prop(block, 'id')))
    return { assistant: true, calls: calls.length === 0 ? NO_IDS : calls, leadingUser: false, results: NO_IDS, surrogate }
  }
  if (role === 'system') return { assistant: false, calls: NO_IDS, leadingUser: true, results: NO_IDS, surrogate }
  const results: string[] = []
  let text = false
  for (const block of blocks) {
    const type = prop(block, 'type')
    if (type === 'tool-result') results.push(idOf(prop(block, 'toolCallId')))
    else if (type === 'text') {
      const value = prop(block, 'text')
      if (typeof value === 'string' && value.length > 0) text = true
    }
  }
  return {
    assistant: false,
    calls: NO_IDS,
    leadingUser: text || results.length === 0,
    results: results.length === 0 ? NO_IDS : results,
    surrogate,
  }
}

/** A shape with no tool messages and no user message: the node is not on the wire (it derives no message). */
export const OFF_WIRE: WireShape = { assistant: false, calls: NO_IDS, leadingUser: false, results: NO_IDS, surrogate: undefined }

/** Only `tool` wire messages: it continues the run of the assistant message before it. */
export const isToolRun = (shape: WireShape): boolean => !shape.assistant && !shape.leadingUser && shape.results.length > 0

/** Whether two shapes pair the same way (a prune's rewritten result against the result it replaced). */
export function samePairing(a: WireShape, b: WireShape): boolean {
  if (a.assistant !== b.assistant || a.leadingUser !== b.leadingUser) return false
  if (a.calls.length !== b.calls.length || a.results.length !== b.results.length) return false
  for (let i = 0; i < a.calls.length; i++) if (a.calls[i] !== b.calls[i]) return false
  for (let i = 0; i < a.results.length; i++) if (a.results[i] !== b.results[i]) return false
  return true
}
