/** One plaintext log record and the seq range it stands for, plus re-encoding a packed row's sub-range as a valid row. */

import { cutPackedRow, isPackedRowTag, packedRowSize, validatePackedRow, type PackedRow } from '../core/index.ts'

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
 * re-encoded by the core's `cutPackedRow` (harness key order), which decodes to exactly the same events.
 */
export function sliceRecordText(record: RecordLine, from: number, to: number): string {
  if (record.firstSeq >= from && record.lastSeq <= to) return record.text
  const row = record.row
  if (row === undefined) throw new Error(`record ${record.firstSeq} is not a packed row and cannot be cut`)
  return cutPackedRow(row, Math.max(from, record.firstSeq) - row.seq0, Math.min(to, record.lastSeq) - row.seq0)
}
