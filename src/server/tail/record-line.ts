/** One plaintext log record and the seq range it stands for, plus re-encoding a packed row's sub-range as a valid row. */

import {
  cutPackedRow,
  isPackedRowTag,
  packedRowSize,
  validatePackedRow,
  type DiagnosticCode,
  type PackedRow,
} from '../../core/index.ts'

/** A body record as it is forwarded: its exact text and its seq range (a packed row spans several seqs). */
export interface RecordLine {
  readonly text: string
  readonly firstSeq: number
  readonly lastSeq: number
  /** Set for packed rows, so a batch edge can cut the row without re-parsing it. */
  readonly row?: PackedRow
  /** `turn/start` or `turn/end`, to track whether a turn is open. */
  readonly turn?: 'start' | 'end'
  /**
   * Set when a defect came just before this record: the seqs `fromSeq..firstSeq-1` were lost to it (none when equal),
   * and `lines` are the defective lines' texts, forwarded verbatim ahead of this record so the client's own decoder
   * marks them exactly as it would in the file.
   */
  readonly lead?: RecordLead
}

export interface RecordLead {
  readonly fromSeq: number
  readonly lines: readonly string[]
}

/** Text characters a record forwards, its lead's lines included (what the ring and batch limits count). */
export function recordBytes(record: RecordLine): number {
  let n = record.text.length
  for (const line of record.lead?.lines ?? []) n += line.length
  return n
}

/** The first seq a record covers: its lead's lost seqs included. */
export function startSeqOf(record: RecordLine): number {
  return record.lead === undefined ? record.firstSeq : record.lead.fromSeq
}

export type ParsedLine =
  { readonly ok: true; readonly record: RecordLine } | { readonly ok: false; readonly why: string; readonly code: DiagnosticCode }

/** Parse one body line; the server refuses to forward anything it cannot place in the seq order. */
export function parseRecordLine(text: string): ParsedLine {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const why = `not valid JSON (${error instanceof Error ? error.message : String(error)})`
    return { ok: false, why: text === '' ? 'blank' : why, code: text === '' ? 'blank-line' : 'line-invalid-json' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, why: 'not a JSON object', code: 'record-not-object' }
  const record = value as Record<string, unknown>
  const type = record['type']
  if (isPackedRowTag(type)) {
    let row: PackedRow
    try {
      row = validatePackedRow(record, type)
    } catch (error) {
      return { ok: false, why: (error as Error).message, code: 'packed-row-invalid' }
    }
    return { ok: true, record: { text, firstSeq: row.seq0, lastSeq: row.seq0 + packedRowSize(row) - 1, row } }
  }
  const seq = record['seq']
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)
    return { ok: false, why: 'no non-negative integer seq', code: 'load-rule' }
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
