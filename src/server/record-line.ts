/** One plaintext log record and the seq range it stands for, plus re-encoding a packed row's sub-range as a valid row. */

import { isPackedRowTag, packedRowSize, validatePackedRow, type PackedRow } from '../core/index.ts'

/** A body record as it is forwarded: its exact text and its seq range (a packed row spans several seqs). */
export interface RecordLine {
  readonly text: string
  readonly firstSeq: number
  readonly lastSeq: number
  /** Set for packed rows, so a batch edge can cut the row without re-parsing it. */
  readonly row?: PackedRow
  /** `turn/start` or `turn/end`, to track whether a turn is open. */
  readonly turn?: 'start' | 'end'
}

export type ParsedLine = { readonly ok: true; readonly record: RecordLine } | { readonly ok: false; readonly why: string }

/** Parse one body line; the server refuses to forward anything it cannot place in the seq order. */
export function parseRecordLine(text: string): ParsedLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, why: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, why: 'not a JSON object' }
  const record = value as Record<string, unknown>
  const type = record['type']
  if (isPackedRowTag(type)) {
    let row: PackedRow
    try {
      row = validatePackedRow(record, type)
    } catch (error) {
      return { ok: false, why: (error as Error).message }
    }
    return { ok: true, record: { text, firstSeq: row.seq0, lastSeq: row.seq0 + packedRowSize(row) - 1, row } }
  }
  const seq = record['seq']
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return { ok: false, why: 'no non-negative integer seq' }
  const turn = type === 'turn/start' ? 'start' : type === 'turn/end' ? 'end' : undefined
  return {
    ok: true,
    record: turn === undefined ? { text, firstSeq: seq, lastSeq: seq } : { text, firstSeq: seq, lastSeq: seq, turn },
  }
}

/**
 * The record restricted to seqs [from, to]: the original text when it is whole, else the row's members
 * re-encoded with the harness's key order (seq0 = first member kept, time0 = that member's time, dt and
 * texts/args sliced), which the core decodes to exactly the same events.
 */
export function sliceRecordText(record: RecordLine, from: number, to: number): string {
  if (record.firstSeq >= from && record.lastSeq <= to) return record.text
  const row = record.row
  if (row === undefined) throw new Error(`record ${record.firstSeq} is not a packed row and cannot be cut`)
  const lo = Math.max(from, record.firstSeq) - row.seq0
  const hi = Math.min(to, record.lastSeq) - row.seq0
  let time0 = row.time0
  for (let i = 0; i < lo; i++) time0 += row.data.dt[i] as number
  const dt = row.data.dt.slice(lo, hi)
  const d = row.data
  const data =
    row.type === 'tool-call-chunks'
      ? {
          turn: d.turn,
          step: d.step,
          index: d.index,
          dt,
          id: d.id,
          ...(Object.hasOwn(d, 'name') ? { name: d.name } : {}),
          args: (d.args as readonly string[]).slice(lo, hi + 1),
        }
      : { turn: d.turn, step: d.step, index: d.index, dt, texts: (d.texts as readonly string[]).slice(lo, hi + 1) }
  return JSON.stringify({ type: row.type, seq0: row.seq0 + lo, time0, data })
}
