/**
 * The dsh web host's own wire, as far as dsh-lens reads it (`../shared/docs/dsh-live-transport.md` §1.3-§1.4, checked
 * against the real host): unary calls are POSTed envelopes `{type:"client-request", rpcId, method, payload}` answered by
 * `{type:"server-response", rpcId, result:{ok, value | error}}`; the two downlink sockets carry one
 * `{type:"server-request", rpcId, method, payload}` per text frame. Everything the host sends is untrusted input here:
 * each parser returns a typed value or a one-line reason, never throws. An event is kept as the exact JSON text of the
 * harness's `SessionEvent` (the `view` render hint beside it is dropped: it is not part of the log).
 */

/** Longest session id accepted from the host (the viewer protocol's own limit). */
export const HOST_SESSION_ID_MAX = 512

/** One log event from the host: its seq and its JSON text (what the page's decoder is fed as one line). */
export interface HostEvent {
  readonly seq: number
  readonly line: string
}

export type MuxFrame =
  | { readonly kind: 'event'; readonly sessionId: string; readonly event: HostEvent; readonly type: string }
  | { readonly kind: 'subscribed'; readonly sessionId: string; readonly lastSeq: number }
  | {
      readonly kind: 'projection'
      readonly sessionId: string
      readonly key: string
      readonly value: unknown
      readonly seq: number
    }
  | { readonly kind: 'stream-error'; readonly message: string }
  /** A well-formed frame dsh-lens has no use for (queue, jobs, approvals, questions, or a method added later). */
  | { readonly kind: 'other'; readonly method: string }

export type HostFrame =
  | {
      readonly kind: 'session-added'
      readonly sessionId: string
      readonly blank: boolean
      readonly parentSessionId?: string
      readonly origin?: string
      readonly cwd?: string
      readonly agentPreset?: string
    }
  | { readonly kind: 'session-removed'; readonly sessionId: string }
  | { readonly kind: 'session-status'; readonly sessionId: string; readonly running: boolean }
  | { readonly kind: 'stream-error'; readonly message: string }
  | { readonly kind: 'other'; readonly method: string }

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string }

/** One row of `session.list` (the fields dsh-lens shows). */
export interface HostSessionSummary {
  readonly sessionId: string
  readonly updatedAt: number
  readonly running: boolean
  readonly blank: boolean
  readonly parentSessionId?: string
  readonly origin?: string
  readonly cwd?: string
  readonly agentPreset?: string
  /** `projections.values.title` when the host has one, with the seq it is as of. */
  readonly title?: string
  readonly titleSeq?: number
  /** `projections.asOfSeq`: the last seq the host had folded for this row. */
  readonly asOfSeq?: number
}

export interface HistoryPage {
  readonly events: readonly HostEvent[]
  readonly hasMore: boolean
  readonly title?: string
  readonly titleSeq?: number
}

export interface SubagentEntry {
  readonly id: string
  readonly running: boolean
  readonly label?: string
  readonly mode?: string
}

type Json = Record<string, unknown>

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value })
const no = <T>(why: string): Parsed<T> => ({ ok: false, why })

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= HOST_SESSION_ID_MAX
}

function optionalString<K extends string>(record: Json, key: K): { [P in K]?: string } {
  const value = record[key]
  return (typeof value === 'string' ? { [key]: value } : {}) as { [P in K]?: string }
}

/** A `SessionEvent` as the host sends it: an object with a string `type` and a non-negative integer `seq`. */
export function hostEvent(value: unknown): Parsed<{ event: HostEvent; type: string }> {
  if (!isObject(value)) return no('event is not an object')
  if (typeof value['type'] !== 'string') return no('event.type is not a string')
  if (!isSeq(value['seq'])) return no('event.seq is not a non-negative integer')
  return ok({ event: { seq: value['seq'], line: JSON.stringify(value) }, type: value['type'] })
}

/** The envelope of one downlink text frame: `{type:"server-request", method, payload:{type: method, ...}}`. */
function downlinkPayload(text: string): Parsed<{ method: string; payload: Json }> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return no('frame is not JSON')
  }
  if (!isObject(value) || value['type'] !== 'server-request') return no('frame is not a server-request envelope')
  const method = value['method']
  const payload = value['payload']
  if (typeof method !== 'string' || !isObject(payload)) return no('frame has no method or payload')
  if (payload['type'] !== method) return no(`frame method "${method}" differs from its payload type`)
  return ok({ method, payload })
}

function streamError(payload: Json): string {
  const error = payload['error']
  return isObject(error) && typeof error['message'] === 'string' ? error['message'] : 'stream/error'
}

/** One `/api/events.mux` text frame. */
export function parseMuxFrame(text: string): Parsed<MuxFrame> {
  const envelope = downlinkPayload(text)
  if (!envelope.ok) return envelope
  const { method, payload } = envelope.value
  const sessionId = payload['sessionId']
  switch (method) {
    case 'session/event': {
      if (!isSessionId(sessionId)) return no('session/event without a valid sessionId')
      const event = hostEvent(payload['event'])
      if (!event.ok) return no(`session/event: ${event.why}`)
      return ok({ kind: 'event', sessionId, event: event.value.event, type: event.value.type })
    }
    case 'session/subscribed': {
      const lastSeq = payload['lastSeq']
      if (!isSessionId(sessionId)) return no('session/subscribed without a valid sessionId')
      if (!(typeof lastSeq === 'number' && Number.isSafeInteger(lastSeq) && lastSeq >= -1))
        return no('session/subscribed.lastSeq is not an integer >= -1')
      return ok({ kind: 'subscribed', sessionId, lastSeq })
    }
    case 'session/projection': {
      const key = payload['key']
      const seq = payload['seq']
      if (!isSessionId(sessionId) || typeof key !== 'string' || !(typeof seq === 'number' && Number.isSafeInteger(seq)))
        return no('session/projection without sessionId, key or seq')
      return ok({ kind: 'projection', sessionId, key, value: payload['value'], seq })
    }
    case 'stream/error':
      return ok({ kind: 'stream-error', message: streamError(payload) })
    default:
      return ok({ kind: 'other', method })
  }
}

/** One `/api/events.host` text frame. */
export function parseHostFrame(text: string): Parsed<HostFrame> {
  const envelope = downlinkPayload(text)
  if (!envelope.ok) return envelope
  const { method, payload } = envelope.value
  const sessionId = payload['sessionId']
  switch (method) {
    case 'host/session-added':
      if (!isSessionId(sessionId)) return no('host/session-added without a valid sessionId')
      return ok({
        kind: 'session-added',
        sessionId,
        blank: payload['blank'] === true,
        ...optionalString(payload, 'parentSessionId'),
        ...optionalString(payload, 'origin'),
        ...optionalString(payload, 'cwd'),
        ...optionalString(payload, 'agentPreset'),
      })
    case 'host/session-removed':
      if (!isSessionId(sessionId)) return no('host/session-removed without a valid sessionId')
      return ok({ kind: 'session-removed', sessionId })
    case 'host/session-status':
      if (!isSessionId(sessionId) || typeof payload['running'] !== 'boolean')
        return no('host/session-status without sessionId or running')
      return ok({ kind: 'session-status', sessionId, running: payload['running'] })
    case 'stream/error':
      return ok({ kind: 'stream-error', message: streamError(payload) })
    default:
      return ok({ kind: 'other', method })
  }
}

/** The POST body of one unary call. */
export function requestBody(rpcId: string, method: string, payload: unknown): string {
  return JSON.stringify({ type: 'client-request', rpcId, method, payload })
}

/** A unary answer: the value, or why not (`code` is the host's own closed error code for a business error). */
export type CallResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly why: string; readonly code?: string }

/** The `value` of a `server-response` to `rpcId`, or why the answer is unusable or an error. */
export function responseValue(text: string, rpcId: string, method: string): CallResult {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, why: `${method}: the answer is not JSON` }
  }
  if (!isObject(value) || value['type'] !== 'server-response')
    return { ok: false, why: `${method}: the answer is not a server-response` }
  if (value['rpcId'] !== rpcId) return { ok: false, why: `${method}: the answer echoes another rpcId` }
  const result = value['result']
  if (!isObject(result)) return { ok: false, why: `${method}: the answer has no result` }
  if (result['ok'] === true) return { ok: true, value: result['value'] }
  const error = isObject(result['error']) ? result['error'] : {}
  const code = typeof error['code'] === 'string' ? error['code'] : 'unknown'
  const message = typeof error['message'] === 'string' ? error['message'] : 'no message'
  return { ok: false, why: `${method}: ${code}: ${message}`, code }
}

function projectedTitle(projections: unknown): { title?: string; titleSeq?: number; asOfSeq?: number } {
  if (!isObject(projections)) return {}
  const asOf = projections['asOfSeq']
  const values = projections['values']
  const title = isObject(values) ? values['title'] : undefined
  const asOfSeq = typeof asOf === 'number' && Number.isSafeInteger(asOf) ? asOf : undefined
  return {
    ...(typeof title === 'string' && title !== '' ? { title, ...(asOfSeq === undefined ? {} : { titleSeq: asOfSeq }) } : {}),
    ...(asOfSeq === undefined ? {} : { asOfSeq }),
  }
}

/** `session.list`'s value: the rows that have an id (a malformed row is skipped, not fatal). */
export function parseSessionList(value: unknown): Parsed<HostSessionSummary[]> {
  if (!isObject(value) || !Array.isArray(value['items'])) return no('session.list: no items array')
  const rows: HostSessionSummary[] = []
  for (const item of value['items'] as unknown[]) {
    if (!isObject(item) || !isSessionId(item['sessionId'])) continue
    const updatedAt = item['updatedAt']
    rows.push({
      sessionId: item['sessionId'],
      updatedAt: typeof updatedAt === 'number' && Number.isFinite(updatedAt) ? updatedAt : 0,
      running: item['running'] === true,
      blank: item['blank'] === true,
      ...optionalString(item, 'parentSessionId'),
      ...optionalString(item, 'origin'),
      ...optionalString(item, 'cwd'),
      ...optionalString(item, 'agentPreset'),
      ...projectedTitle(item['projections']),
    })
  }
  return ok(rows)
}

/** `session.history`'s value: a page of events whose seqs are contiguous, plus `hasMore` and the tail page's title. */
export function parseHistoryPage(value: unknown): Parsed<HistoryPage> {
  if (!isObject(value) || !Array.isArray(value['events']) || typeof value['hasMore'] !== 'boolean')
    return no('session.history: no events array or hasMore')
  const events: HostEvent[] = []
  for (const entry of value['events'] as unknown[]) {
    const event = hostEvent(isObject(entry) ? entry['event'] : undefined)
    if (!event.ok) return no(`session.history: ${event.why}`)
    const previous = events[events.length - 1]
    if (previous !== undefined && event.value.event.seq !== previous.seq + 1)
      return no(`session.history: seq ${event.value.event.seq} follows ${previous.seq}`)
    events.push(event.value.event)
  }
  const { title, titleSeq } = projectedTitle(value['projections'])
  return ok({
    events,
    hasMore: value['hasMore'],
    ...(title === undefined ? {} : { title }),
    ...(titleSeq === undefined ? {} : { titleSeq }),
  })
}

/** `subagent.list`'s value: the healthy children (diagnostic rows carry no transcript). */
export function parseSubagentList(value: unknown): Parsed<SubagentEntry[]> {
  if (!isObject(value) || !Array.isArray(value['entries'])) return no('subagent.list: no entries array')
  const out: SubagentEntry[] = []
  for (const entry of value['entries'] as unknown[]) {
    if (!isObject(entry) || entry['kind'] !== 'child' || !isSessionId(entry['id'])) continue
    out.push({
      id: entry['id'],
      running: entry['activity'] === 'running',
      ...optionalString(entry, 'label'),
      ...optionalString(entry, 'mode'),
    })
  }
  return ok(out)
}
