/**
 * Packed chunk rows (`text-chunks`, `reasoning-chunks`, `tool-call-chunks`): the
 * harness's storage-only encoding of runs of `assistant/chunk` deltas. Validation
 * follows `decodeStorageRecord` check for check, with its texts. Members are not
 * expanded at load: a row stands for its whole seq range, and a member becomes an
 * event object only when something asks for it (a 1.3M-event log is ~96% chunks).
 */

import { PACKED_ROW } from '../model/harness-messages.ts'
import type { LogEvent, PackedRow, PackedRowTag } from '../model/log-event.ts'

const ROW_TAGS = new Set<unknown>(['text-chunks', 'reasoning-chunks', 'tool-call-chunks'])

/** Whether a parsed record claims to be a packed row (then it must validate as one). */
export function isPackedRowTag(value: unknown): value is PackedRowTag {
  // Every tag ends in "-chunks" and no event type does: one character test settles almost every line.
  return typeof value === 'string' && value.charCodeAt(value.length - 1) === 115 && ROW_TAGS.has(value)
}

/** Whether `value`'s own enumerable keys are exactly `keys` (in any order). Runs on every packed row: no callbacks. */
function hasExactKeys(value: object, keys: readonly string[]): boolean {
  let count = 0
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    if (!keys.includes(key)) return false
    count++
  }
  return count === keys.length
}

/** Whether every entry of `array` is a string. */
function allStrings(array: readonly unknown[]): boolean {
  for (let i = 0; i < array.length; i++) if (typeof array[i] !== 'string') return false
  return true
}

/** Whether every entry of `array` is a safe integer. */
function allSafeIntegers(array: readonly unknown[]): boolean {
  for (let i = 0; i < array.length; i++) if (!Number.isSafeInteger(array[i])) return false
  return true
}

function malformed(tag: string, why: string): never {
  throw new Error(PACKED_ROW.malformed(tag, why))
}

function validateRunData(tag: string, data: Record<string, unknown>, payloadKey: 'texts' | 'args'): unknown[] {
  if (typeof data['turn'] !== 'number' || typeof data['step'] !== 'number' || typeof data['index'] !== 'number') {
    malformed(tag, PACKED_ROW.numbers)
  }
  const payload = data[payloadKey]
  if (!Array.isArray(payload) || payload.length === 0 || !allStrings(payload)) {
    malformed(tag, PACKED_ROW.payload(payloadKey))
  }
  const dt = data['dt']
  if (!Array.isArray(dt) || !allSafeIntegers(dt)) malformed(tag, PACKED_ROW.dt)
  if (dt.length !== payload.length - 1) malformed(tag, PACKED_ROW.dtLength(dt.length, payload.length))
  return payload
}

/**
 * Validate a record whose `type` is a row tag.
 * @throws Error with the harness's `malformed <tag> storage row: <why>` text.
 */
export function validatePackedRow(value: Record<string, unknown>, tag: PackedRowTag): PackedRow {
  if (!hasExactKeys(value, ['type', 'seq0', 'time0', 'data'])) malformed(tag, PACKED_ROW.envelope)
  const seq0 = value['seq0']
  if (!Number.isSafeInteger(seq0) || (seq0 as number) < 0) malformed(tag, PACKED_ROW.seq0)
  if (!Number.isSafeInteger(value['time0'])) malformed(tag, PACKED_ROW.time0)
  const data = value['data']
  // The harness's isRecord admits arrays here; an array then fails the key check.
  if (typeof data !== 'object' || data === null) malformed(tag, PACKED_ROW.dataObject)
  const record = data as Record<string, unknown>
  let payload: unknown[]
  if (tag === 'tool-call-chunks') {
    const withName = hasExactKeys(record, ['turn', 'step', 'index', 'id', 'name', 'dt', 'args'])
    if (!withName && !hasExactKeys(record, ['turn', 'step', 'index', 'id', 'dt', 'args'])) {
      malformed(tag, PACKED_ROW.toolData)
    }
    if (typeof record['id'] !== 'string' || (withName && typeof record['name'] !== 'string')) {
      malformed(tag, PACKED_ROW.toolIds)
    }
    payload = validateRunData(tag, record, 'args')
  } else {
    if (!hasExactKeys(record, ['turn', 'step', 'index', 'dt', 'texts'])) malformed(tag, PACKED_ROW.textData)
    payload = validateRunData(tag, record, 'texts')
  }
  if (!Number.isSafeInteger((seq0 as number) + payload.length - 1)) malformed(tag, PACKED_ROW.memberSeqs)
  let time = value['time0'] as number
  for (const gap of record['dt'] as number[]) {
    time += gap
    if (!Number.isSafeInteger(time)) malformed(tag, PACKED_ROW.memberTimes)
  }
  return value as unknown as PackedRow
}

/** Number of events a row stands for. */
export function packedRowSize(row: PackedRow): number {
  return (row.type === 'tool-call-chunks' ? row.data.args : row.data.texts)?.length ?? 0
}

/**
 * Member `k` of a row as the exact `assistant/chunk` event the harness expands it
 * to (same keys, same key order).
 */
export function expandPackedMember(row: PackedRow, k: number): LogEvent {
  let time = row.time0
  for (let i = 0; i < k; i++) time += row.data.dt[i] as number
  const member = ((row.type === 'tool-call-chunks' ? row.data.args : row.data.texts) as readonly string[])[k]
  const index = row.data.index
  const chunk =
    row.type === 'text-chunks'
      ? { type: 'text-delta', index, text: member }
      : row.type === 'reasoning-chunks'
        ? { type: 'reasoning-delta', index, text: member }
        : {
            type: 'tool-call-delta',
            index,
            id: row.data.id,
            ...(Object.hasOwn(row.data, 'name') ? { name: row.data.name } : {}),
            argumentsDelta: member,
          }
  return { type: 'assistant/chunk', seq: row.seq0 + k, time, data: { turn: row.data.turn, step: row.data.step, chunk } }
}

/** All members of a row, as `decodeStorageRecord` returns them. */
export function expandPackedRow(row: PackedRow): LogEvent[] {
  const out: LogEvent[] = []
  for (let k = 0, n = packedRowSize(row); k < n; k++) out.push(expandPackedMember(row, k))
  return out
}
