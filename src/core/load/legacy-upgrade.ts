/**
 * The legacy shapes the harness upgrades in memory on every stored read
 * (reference 1.7, `coordinator.ts`): the same guards, the same rewrites, the same
 * minted ids and the same error texts, in the harness's order (turn/start, then
 * turn/end, then steering/message, then pre-identity messages). The web-- fixtures
 * only read as the harness reads them after this pass.
 */

import { LEGACY } from '../model/harness-messages.ts'
import { isRecord, type LogEvent } from '../model/log-event.ts'

function hasOnlyKeys(record: Record<string, unknown>, required: readonly string[], optional: readonly string[] = []): boolean {
  const allowed = [...required, ...optional]
  return Object.keys(record).every((key) => allowed.includes(key)) && required.every((key) => Object.hasOwn(record, key))
}

const legacyMessageId = (id: string, seq: unknown): string => `legacy-message:${id}:${String(seq)}`

function migrateTurnStart(event: LogEvent, id: string): LogEvent {
  if (event.type !== 'turn/start') return event
  const data = isRecord(event.data) ? event.data : undefined
  if (data === undefined || !Object.hasOwn(data, 'trigger')) return event
  const trigger = isRecord(data['trigger']) ? data['trigger'] : undefined
  if (
    !Number.isSafeInteger(data['turn']) ||
    (data['turn'] as number) < 1 ||
    !hasOnlyKeys(data, ['turn', 'trigger']) ||
    trigger === undefined ||
    typeof trigger['kind'] !== 'string' ||
    trigger['kind'].length === 0
  ) {
    throw new Error(LEGACY.turnStart(id, event.seq))
  }
  return { ...event, data: { turn: data['turn'] } }
}

function migrateTurnEnd(event: LogEvent, id: string): LogEvent {
  if (event.type !== 'turn/end') return event
  const data = isRecord(event.data) ? event.data : undefined
  if (data === undefined) return event
  const malformed = (): never => {
    throw new Error(LEGACY.turnEnd(id, event.seq))
  }
  const reason = isRecord(data['reason']) ? data['reason'] : undefined
  if (
    !Number.isSafeInteger(data['turn']) ||
    (data['turn'] as number) < 1 ||
    !hasOnlyKeys(data, ['turn', 'reason']) ||
    reason === undefined ||
    typeof reason['kind'] !== 'string'
  ) {
    return malformed()
  }
  let current: Record<string, unknown>
  switch (reason['kind']) {
    case 'completed':
    case 'blocked':
    case 'max-tokens':
    case 'interrupted':
      if (!hasOnlyKeys(reason, ['kind'])) return malformed()
      return event
    case 'aborted':
      if (Object.hasOwn(reason, 'reason')) return event
      if (!hasOnlyKeys(reason, ['kind'])) return malformed()
      current = { kind: 'aborted', reason: { kind: 'legacy' } }
      break
    case 'disposed':
      if (!hasOnlyKeys(reason, ['kind'])) return malformed()
      current = { kind: 'aborted', reason: { kind: 'disposed' } }
      break
    case 'error': {
      if (Object.hasOwn(reason, 'error')) return event
      if (!Number.isSafeInteger(reason['step']) || (reason['step'] as number) < 0) return malformed()
      const failure = isRecord(reason['failure']) ? reason['failure'] : undefined
      if (
        failure !== undefined &&
        hasOnlyKeys(reason, ['kind', 'step', 'failure']) &&
        hasOnlyKeys(failure, ['message', 'code'], ['status', 'providerRetryAfterMs', 'requestId']) &&
        typeof failure['message'] === 'string' &&
        typeof failure['code'] === 'string' &&
        (failure['status'] === undefined || typeof failure['status'] === 'number') &&
        (failure['providerRetryAfterMs'] === undefined || typeof failure['providerRetryAfterMs'] === 'number') &&
        (failure['requestId'] === undefined || typeof failure['requestId'] === 'string')
      ) {
        current = { kind: 'error', error: failure }
        break
      }
      const messageKeys = reason['code'] === undefined ? ['kind', 'step', 'message'] : ['kind', 'step', 'message', 'code']
      if (
        !hasOnlyKeys(reason, messageKeys) ||
        typeof reason['message'] !== 'string' ||
        (reason['code'] !== undefined && typeof reason['code'] !== 'string')
      ) {
        return malformed()
      }
      current = {
        kind: 'error',
        error: { message: reason['message'], code: typeof reason['code'] === 'string' ? reason['code'] : 'UNKNOWN' },
      }
      break
    }
    default:
      return event
  }
  return { ...event, data: { ...data, reason: current } }
}

function migrateSteering(event: LogEvent, id: string): LogEvent {
  if (event.type !== 'steering/message') return event
  const data = isRecord(event.data) ? event.data : undefined
  if (data === undefined) throw new Error(LEGACY.steering(id, event.seq))
  const wrapped = isRecord(data['message']) ? data['message'] : undefined
  if (wrapped !== undefined && Number.isSafeInteger(data['turn']) && hasOnlyKeys(data, ['turn', 'message'])) {
    return { ...event, type: 'user/message', data: wrapped }
  }
  if (!Number.isSafeInteger(data['turn']) || !hasOnlyKeys(data, ['turn', 'content', 'source'])) {
    throw new Error(LEGACY.steering(id, event.seq))
  }
  const { turn: _turn, ...message } = data
  return { ...event, type: 'user/message', data: { ...message, id: legacyMessageId(id, event.seq), role: 'user' } }
}

function replacementStart(event: LogEvent): number | undefined {
  const op = isRecord(event.surfaceOp) ? event.surfaceOp : undefined
  return op?.['op'] === 'replace' && typeof op['start'] === 'number' ? op['start'] : undefined
}

function migrateMessage(event: LogEvent, id: string, messageIds: ReadonlyMap<unknown, unknown>): LogEvent {
  const data = isRecord(event.data) ? event.data : undefined
  if (data === undefined) return event
  switch (event.type) {
    case 'user/message': {
      if (
        Object.hasOwn(data, 'id') ||
        Object.hasOwn(data, 'role') ||
        Object.hasOwn(data, 'message') ||
        !Object.hasOwn(data, 'content') ||
        !Object.hasOwn(data, 'source')
      ) {
        return event
      }
      return { ...event, data: { ...data, id: legacyMessageId(id, event.seq), role: 'user' } }
    }
    case 'assistant/message': {
      if (Object.hasOwn(data, 'message') || !Object.hasOwn(data, 'content') || !Object.hasOwn(data, 'provenance')) return event
      const { content, provenance, ...rest } = data
      return {
        ...event,
        data: {
          ...rest,
          message: {
            id: legacyMessageId(id, event.seq),
            role: 'assistant',
            content,
            source: { ...(isRecord(provenance) ? provenance : {}), kind: 'model' },
          },
        },
      }
    }
    case 'tool/result': {
      if (
        Object.hasOwn(data, 'message') ||
        !Object.hasOwn(data, 'callId') ||
        !Object.hasOwn(data, 'content') ||
        !Object.hasOwn(data, 'isError')
      ) {
        return event
      }
      const { callId, content, isError, ...rest } = data
      const inherited = replacementStart(event)
      return {
        ...event,
        data: {
          ...rest,
          message: {
            id: inherited === undefined ? legacyMessageId(id, event.seq) : messageIds.get(inherited),
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: callId, content, isError }],
            source: { kind: 'tool', callId },
          },
        },
      }
    }
    default:
      return event
  }
}

function eventMessageId(event: LogEvent): unknown {
  const data = isRecord(event.data) ? event.data : undefined
  const message = event.type === 'user/message' ? data : isRecord(data?.['message']) ? data['message'] : undefined
  return typeof message?.['id'] === 'string' ? message['id'] : undefined
}

/** A refusal of a vocabulary the harness no longer reads at all (checked before any upgrade). */
export function unsupportedLegacyEvent(event: LogEvent, id: string): string | undefined {
  if (event.type === 'request/header-delta') return LEGACY.headerDelta(id, event.seq)
  if (event.type === 'mode/set') return LEGACY.modeSet(id, event.seq)
  if (event.type === 'request/header' && isRecord(event.data) && event.data['reason'] === 'fallback') {
    return LEGACY.fallback(id, event.seq)
  }
  return undefined
}

export type UpgradeResult =
  { readonly ok: true; readonly event: LogEvent; readonly upgraded: boolean } | { readonly ok: false; readonly message: string }

/** Stateful: a replacing tool/result inherits the message id of the node it replaces. */
export class LegacyUpgrader {
  private readonly messageIds = new Map<unknown, unknown>()

  constructor(private readonly sessionId: string) {}

  upgrade(event: LogEvent): UpgradeResult {
    let next: LogEvent
    try {
      next = migrateMessage(
        migrateSteering(migrateTurnEnd(migrateTurnStart(event, this.sessionId), this.sessionId), this.sessionId),
        this.sessionId,
        this.messageIds,
      )
    } catch (error) {
      return { ok: false, message: (error as Error).message }
    }
    const messageId = eventMessageId(next)
    if (messageId !== undefined) this.messageIds.set(next.seq, messageId)
    return { ok: true, event: next, upgraded: next !== event }
  }
}
