/** Our side of each comparison: LensLog end to end, and our SurfaceFold alone on pre-decoded records. */

import {
  countAtMost,
  expandPackedMember,
  LensLog,
  packedRowSize,
  SurfaceFold,
  TRANSCRIPT_INDEXES,
  type ContentChecksum,
  type PackedRow,
} from '../core/index.ts'

/** Bytes arrive in file-stream sized slices, as the worker reads a File. */
export const SLICE = 1 << 20

/** A load as the viewer's worker does it: the transcript's indexes kept while reading, the rest left until asked. */
export function lensLoad(bytes: Uint8Array, checksum: ContentChecksum, finish = true): LensLog {
  const log = new LensLog({ checksum, keep: TRANSCRIPT_INDEXES })
  for (let at = 0; at < bytes.length; at += SLICE) log.push(bytes.subarray(at, at + SLICE))
  if (finish) log.finish()
  return log
}

const ROW_TAGS = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks'])

/** Pre-decoded body records (parsed lines, rows kept packed) with the event index where each starts. */
export interface PreDecoded {
  readonly records: readonly unknown[]
  readonly firstIndex: Int32Array
}

export function preDecode(parsed: readonly unknown[]): PreDecoded {
  const records = parsed.slice(1) // drop the header
  const firstIndex = new Int32Array(records.length)
  let index = 0
  records.forEach((record, r) => {
    firstIndex[r] = index
    const type = (record as { type?: unknown }).type
    index += typeof type === 'string' && ROW_TAGS.has(type) ? packedRowSize(record as PackedRow) : 1
  })
  return { records, firstIndex }
}

/** Our incremental fold over the same records LensLog would hand it (rows fast-pathed, members materialised only on lookup). */
export function ourFold(input: PreDecoded): SurfaceFold {
  const { records, firstIndex } = input
  const eventAt = (index: number): unknown => {
    const lo = countAtMost(firstIndex, index)
    const record = records[lo - 1] as { type: string }
    return ROW_TAGS.has(record.type) ? expandPackedMember(record as PackedRow, index - (firstIndex[lo - 1] as number)) : record
  }
  const fold = new SurfaceFold(eventAt)
  for (const record of records) {
    const row = record as PackedRow
    if (ROW_TAGS.has(row.type)) fold.pushChunkRun(row.seq0, packedRowSize(row), (k) => expandPackedMember(row, k))
    else fold.push(record)
  }
  return fold
}
