/**
 * What two runs' messages are compared on: every message the model is sent, and the request header, reduced to a
 * 53-bit key of its JSON with the fields that differ in every run left out. This file is the one place those fields
 * are named (docs/compare.md lists them for users):
 *
 * - a message's own `id` (user, assistant and tool-result messages: a UUID minted per run);
 * - in its `source`: `compactionId`, `sourceCommandId` (per-run ids of a compaction and a command),
 *   `senderSessionId` (the id of another session, new in every run) and `rpcId` (the id of the web client's request
 *   that carried a prompt: the host passes it through so the client can match its echo; the model never sees it);
 * - tool-call ids (`call-…`, minted per run): a tool-call block's `id`, a tool result's `toolCallId` and its
 *   `source.callId` are replaced by a key of the call itself (its name, its arguments and its place among the
 *   message's calls), so a result still has to answer the same call, and only the id's spelling is ignored.
 *
 * Event envelopes (`seq`, `time`, packed rows' `dt`), the header's `id` and `createdAt`, and usage are never part of
 * a message; usage and times are measured as deltas, never counted as a difference. Nothing else is ignored: text
 * that quotes an id (`started subagent session-…`) differs as text.
 *
 * Keys are key-order-insensitive (objects are read in sorted key order, as `isDeepEqualJson` ignores order) and
 * length-prefixed, so two different values never share an encoding; equal keys mean equal JSON with probability
 * 1 - 2^-53 per comparison (cyrb53's mixing, fed code unit by code unit; no string of the message is built).
 */

import { isRecord } from '../model/log-event.ts'

const T_NULL = 0x10000
const T_TRUE = 0x10001
const T_FALSE = 0x10002
const T_NUMBER = 0x10003
const T_STRING = 0x10004
const T_ARRAY = 0x10005
const T_OBJECT = 0x10006
const T_OTHER = 0x10007

/** Source fields minted per run: never compared. */
export const IGNORED_SOURCE_FIELDS: ReadonlySet<string> = new Set(['compactionId', 'sourceCommandId', 'senderSessionId', 'rpcId'])

/** A streaming cyrb53: feed values, read a 53-bit integer key. */
export class KeyWriter {
  private h1: number
  private h2: number

  constructor(seed = 0) {
    this.h1 = 0xdeadbeef ^ seed
    this.h2 = 0x41c6ce57 ^ seed
  }

  private code(c: number): void {
    this.h1 = Math.imul(this.h1 ^ c, 2654435761)
    this.h2 = Math.imul(this.h2 ^ c, 1597334677)
  }

  string(s: string): void {
    this.code(T_STRING)
    this.code(s.length)
    for (let i = 0; i < s.length; i++) this.code(s.charCodeAt(i))
  }

  /** Any JSON value, objects in sorted key order (members that are undefined left out, as JSON does). */
  value(value: unknown): void {
    if (value === null) this.code(T_NULL)
    else if (value === true) this.code(T_TRUE)
    else if (value === false) this.code(T_FALSE)
    else if (typeof value === 'number') {
      this.code(T_NUMBER)
      this.string(String(value))
    } else if (typeof value === 'string') this.string(value)
    else if (Array.isArray(value)) {
      this.code(T_ARRAY)
      this.code(value.length)
      for (const item of value) this.value(item)
    } else if (isRecord(value)) {
      const keys = Object.keys(value)
        .filter((k) => value[k] !== undefined)
        .sort()
      this.code(T_OBJECT)
      this.code(keys.length)
      for (const key of keys) {
        this.string(key)
        this.value(value[key])
      }
    } else this.code(T_OTHER)
  }

  /** Start an object of `count` members whose keys and values the caller writes in sorted key order. */
  object(count: number): void {
    this.code(T_OBJECT)
    this.code(count)
  }

  array(length: number): void {
    this.code(T_ARRAY)
    this.code(length)
  }

  /** The key: cyrb53's finalisation, an integer below 2^53. */
  digest(): number {
    let h1 = this.h1
    let h2 = this.h2
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
    return 4294967296 * (2097151 & h2) + (h1 >>> 0)
  }
}

/** The key of any JSON value (a request header). */
export function valueKey(value: unknown): number {
  const w = new KeyWriter()
  w.value(value)
  return w.digest()
}

/** The key a tool call is known by in place of its id: its name, its arguments and its place among the message's calls. */
export function callKey(block: Record<string, unknown>, ordinal: number): string {
  const w = new KeyWriter(0x7ca11)
  w.value(block['name'] ?? null)
  w.value(block['arguments'] ?? block['input'] ?? null)
  w.value(ordinal)
  return `call:${w.digest().toString(36)}`
}

/** Call ids seen so far in one log, each mapped to its call's key; a result for an unknown call gets `UNKNOWN_CALL`. */
export type CallKeys = Map<string, string>
export const UNKNOWN_CALL = 'call:?'

const callIdKey = (calls: CallKeys, id: unknown): string =>
  typeof id === 'string' ? (calls.get(id) ?? UNKNOWN_CALL) : UNKNOWN_CALL

/** Record the keys of an assistant message's tool calls (before any message that answers them is keyed). */
export function learnCalls(message: unknown, calls: CallKeys): void {
  const content = isRecord(message) ? message['content'] : undefined
  if (!Array.isArray(content)) return
  let ordinal = 0
  for (const block of content) {
    if (!isRecord(block) || block['type'] !== 'tool-call') continue
    const id = block['id']
    const key = callKey(block, ordinal++)
    if (typeof id === 'string' && !calls.has(id)) calls.set(id, key)
  }
}

function writeSource(w: KeyWriter, source: Record<string, unknown>, calls: CallKeys): void {
  const keys = Object.keys(source)
    .filter((k) => source[k] !== undefined && !IGNORED_SOURCE_FIELDS.has(k))
    .sort()
  w.object(keys.length)
  for (const key of keys) {
    w.string(key)
    if (key === 'callId') w.string(callIdKey(calls, source[key]))
    else w.value(source[key])
  }
}

function writeContent(w: KeyWriter, content: readonly unknown[], calls: CallKeys): void {
  w.array(content.length)
  let ordinal = 0
  for (const block of content) {
    if (!isRecord(block) || (block['type'] !== 'tool-call' && block['type'] !== 'tool-result')) {
      w.value(block)
      continue
    }
    const keys = Object.keys(block)
      .filter((k) => block[k] !== undefined)
      .sort()
    w.object(keys.length)
    for (const key of keys) {
      w.string(key)
      if (block['type'] === 'tool-call' && key === 'id') w.string(callKey(block, ordinal))
      else if (block['type'] === 'tool-result' && key === 'toolCallId') w.string(callIdKey(calls, block[key]))
      else w.value(block[key])
    }
    if (block['type'] === 'tool-call') ordinal++
  }
}

/**
 * The key of a message the model is sent, with the per-run fields left out (above). `calls` must already hold the
 * calls of every earlier assistant message of the same log (`learnCalls`), so a result's call is known by its key.
 */
export function messageKey(message: unknown, calls: CallKeys): number {
  const w = new KeyWriter()
  if (!isRecord(message)) {
    w.value(message)
    return w.digest()
  }
  const keys = Object.keys(message)
    .filter((k) => message[k] !== undefined && k !== 'id')
    .sort()
  w.object(keys.length)
  for (const key of keys) {
    w.string(key)
    const member = message[key]
    if (key === 'source' && isRecord(member)) writeSource(w, member, calls)
    else if (key === 'content' && Array.isArray(member)) writeContent(w, member, calls)
    else w.value(member)
  }
  return w.digest()
}
