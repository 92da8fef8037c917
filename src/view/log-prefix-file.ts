/**
 * Worker side of "Save prefix": the core's `logPrefix` of the loaded log through the cursor, handed to the main thread
 * as a Blob (the main thread only downloads it; the text is never copied through it).
 */

import { logPrefix, type LensLog } from '../core/index.ts'
import type { LogPrefixFile } from '../protocol/event-views.ts'

export function logPrefixFile(log: LensLog, index: number): LogPrefixFile {
  if (log.length === 0) throw new Error('the log has no events to save')
  const last = Math.max(0, Math.min(index, log.length - 1))
  const prefix = logPrefix(log, last)
  const seq = log.seqOf(last)
  return {
    blob: new Blob(prefix.parts, { type: 'application/x-ndjson' }),
    seq: typeof seq === 'number' ? seq : last,
    events: prefix.events,
    cutRows: prefix.cutRows,
  }
}
