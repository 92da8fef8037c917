/**
 * The log prefix up to a cursor as a new plain `session.jsonl`: the header line, then every body record holding an
 * event at or before the cursor, as decoded (zstd input gives plain JSONL). A packed row that straddles the cut is
 * re-encoded as a valid shorter row. The harness's fold of the result equals ours at the cursor: it is the same
 * events, in the same order. Lines that did not decode to an event (bad JSON, a malformed row) are not events and
 * are not copied.
 */

import { cutPackedRow } from '../decode/packed-row-cut.ts'
import type { LensLog } from '../log/lens-log.ts'
import { packedRowSize } from '../decode/packed-rows.ts'

export interface LogPrefix {
  /** The file's text in pieces (one per line, each ending in `\n`): a Blob or a stream takes them as they are. */
  readonly parts: string[]
  /** Events in the prefix (packed members counted one by one). */
  readonly events: number
  /** Body records written, and how many of them are a cut packed row (0 or 1). */
  readonly records: number
  readonly cutRows: number
}

/**
 * The prefix through event `index` (clamped to the log). The header is written as parsed (`JSON.stringify` of the
 * header object, which reproduces any header the harness wrote); a log without a valid header cannot be sliced.
 * @throws Error when the log has no valid header.
 */
export function logPrefix(log: LensLog, index: number): LogPrefix {
  if (log.header === null) throw new Error('the log has no valid session header, so its prefix would not be a session log')
  const parts = [`${JSON.stringify(log.header)}\n`]
  let events = 0
  let cutRows = 0
  for (const record of log.recordsThrough(index)) {
    if (record.row !== null && record.members < packedRowSize(record.row)) {
      parts.push(`${cutPackedRow(record.row, 0, record.members - 1)}\n`)
      cutRows++
    } else parts.push(`${record.text}\n`)
    events += record.members
  }
  return { parts, events, records: parts.length - 1, cutRows }
}
