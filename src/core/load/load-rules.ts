/**
 * The harness's load-time rules outside the surface fold (reference 3.2): the
 * message-shape check it runs while adopting stored events, the unknown-type
 * guard, and the `Session` constructor's envelope checks. Each returns the
 * harness's text for the first rule an event breaks. The order mirrors the
 * harness's read path, so the first message reported is the one it would throw.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- mirrors the harness's property accesses on untyped JSON (see above) */

import { LOAD } from '../model/harness-messages.ts'
import type { LogEvent } from '../model/log-event.ts'
import { KNOWN_SESSION_EVENT_TYPES } from './known-event-types.ts'

function hasProviderModel(value: any): boolean {
  if (typeof value !== 'object' || value === null) return false
  return (
    typeof value['provider'] === 'string' &&
    value['provider'].length > 0 &&
    typeof value['model'] === 'string' &&
    value['model'].length > 0
  )
}

/** The text of the first message-shape rule an event breaks, given the subject its caller names the event by. */
type ShapeRule = (subject: string) => string

/**
 * `assertMessageEventShape`'s first broken rule for a message event, as a text still waiting for its subject (the
 * subject is built only for an event that breaks one: this runs on every message of every log).
 */
function messageShapeRule(event: any): ShapeRule | undefined {
  const type = event['type']
  if (type !== 'user/message' && type !== 'assistant/message' && type !== 'tool/result') return undefined
  const data = event['data']
  const record = typeof data === 'object' && data !== null ? data : undefined
  const message = type === 'user/message' ? record : record?.['message']
  if (typeof message !== 'object' || message === null || typeof message['id'] !== 'string' || message['id'] === '') {
    return LOAD.lacksMessage
  }
  const expectedRole = type === 'assistant/message' ? 'assistant' : 'user'
  if (message['role'] !== expectedRole) return (subject) => LOAD.role(subject, expectedRole)
  const source = message['source']
  if (typeof source !== 'object' || source === null || typeof source['kind'] !== 'string' || source['kind'] === '') {
    return LOAD.source
  }
  if (!Array.isArray(message['content'])) return LOAD.content
  if (type === 'assistant/message') {
    if (source['kind'] !== 'model' || !hasProviderModel(source)) return LOAD.modelSource
    return undefined
  }
  if (type !== 'tool/result') return undefined
  if (source['kind'] !== 'tool' || typeof source['callId'] !== 'string' || source['callId'] === '') {
    return LOAD.toolSource
  }
  const content = message['content']
  const block = content[0]
  if (
    content.length !== 1 ||
    typeof block !== 'object' ||
    block === null ||
    block['type'] !== 'tool-result' ||
    !Array.isArray(block['content'])
  ) {
    return LOAD.oneToolResult
  }
  if (block['toolCallId'] !== source['callId']) return LOAD.callIds
  return undefined
}

/** `assertMessageEventShape`: the invariants needed to replay a message event. */
export function messageShapeDefect(event: any, subject: string): string | undefined {
  return messageShapeRule(event)?.(subject)
}

function adapterDefaultsDefect(value: any, config: any, index: number): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return LOAD.adapterDefaults(index)
  if (
    Object.keys(value).some((key) => key !== 'reasoningEffort' && key !== 'maxTokens') ||
    Object.values(value).some((marker) => marker !== true) ||
    (value['reasoningEffort'] === true && config['reasoningEffort'] === undefined) ||
    (value['maxTokens'] === true && config['maxTokens'] === undefined)
  ) {
    return LOAD.adapterDefaults(index)
  }
  return undefined
}

const ENVELOPE_KEYS = new Set(['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs', 'ignorable'])

/**
 * `assertSessionEventEnvelope` + `assertCurrentLlmShape` + `assertSupportedRequestHeader`. `shapeChecked`: the
 * caller already knows the event passes `assertMessageEventShape` (the same checks under another subject).
 */
export function envelopeDefect(event: any, index: number, shapeChecked = false): string | undefined {
  if (event['type'] === 'request/header-delta') return LOAD.headerDelta(index)
  for (const key in event) if (!ENVELOPE_KEYS.has(key)) return LOAD.envelope(index)
  const { type, seq, time } = event
  if (
    typeof type !== 'string' ||
    typeof seq !== 'number' ||
    !Number.isSafeInteger(seq) ||
    seq < 0 ||
    typeof time !== 'number' ||
    !Number.isSafeInteger(time) ||
    event['data'] === undefined ||
    (event['ignorable'] !== undefined && event['ignorable'] !== true)
  ) {
    return LOAD.envelope(index)
  }
  if (type === 'request/header') {
    const data = event['data']
    const record = typeof data === 'object' && data !== null ? data : undefined
    const header = record?.['header']
    const headerRecord = typeof header === 'object' && header !== null && !Array.isArray(header) ? header : undefined
    const config = headerRecord?.['config']
    if (!hasProviderModel(config)) return LOAD.lacksProviderModel(index)
    const effort = config['reasoningEffort']
    if (effort !== undefined && (typeof effort !== 'string' || effort.length === 0)) return LOAD.reasoningEffort(index)
    const defaults = adapterDefaultsDefect(headerRecord?.['adapterDefaults'], config, index)
    if (defaults !== undefined) return defaults
  }
  const shape = shapeChecked ? undefined : messageShapeRule(event)
  if (shape !== undefined) return shape(`seed ${String(type)} at index ${index}`)
  const data = event['data']
  if (
    type === 'request/header' &&
    data !== null &&
    typeof data === 'object' &&
    !Array.isArray(data) &&
    data['reason'] === 'fallback'
  ) {
    return LOAD.fallback(index)
  }
  return undefined
}

export interface LoadDefect {
  readonly code: 'load-rule' | 'unknown-event-type'
  readonly message: string
}

/**
 * The first load rule `event` (already upgraded) breaks, in the harness's read
 * order: adoption's message-shape check, the unknown-type guard, then the
 * constructor's envelope checks. The seq-contiguity rule is left to the fold.
 */
export function loadDefect(event: LogEvent, index: number): LoadDefect | undefined {
  if (typeof event !== 'object' || event === null) return { code: 'load-rule', message: LOAD.envelope(index) }
  const adopted = messageShapeRule(event)
  if (adopted !== undefined) return { code: 'load-rule', message: adopted(`session event at seq ${String(event.seq)}`) }
  if (typeof event.type === 'string' && !KNOWN_SESSION_EVENT_TYPES.has(event.type) && event.ignorable !== true) {
    return { code: 'unknown-event-type', message: LOAD.unknownType(event.type, event.seq) }
  }
  // The constructor's message-shape check is adoption's, passed above.
  const envelope = envelopeDefect(event, index, true)
  return envelope === undefined ? undefined : { code: 'load-rule', message: envelope }
}
