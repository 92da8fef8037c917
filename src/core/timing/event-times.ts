/**
 * Each event's own clock reading, for a range of events: what the replay paces the cursor by. Read on demand from
 * the stored records (a packed row's members from its `time0` and `dt`s, the row parsed once), never kept for the
 * whole log: the replay asks for the next few thousand events as it goes.
 */

import type { LensLog } from '../log/lens-log.ts'
import { clockTime } from './step-times.ts'

/** Most events one call reads. */
export const EVENT_TIMES_MAX = 8192

/**
 * Times of events `from .. from + count - 1` (clamped to the log and to EVENT_TIMES_MAX); NaN where an event has no
 * usable time (missing, not an integer, or 0).
 */
export function eventTimes(log: LensLog, from: number, count: number): Float64Array {
  const start = Math.max(0, Math.trunc(from))
  const end = Math.min(log.length, start + Math.max(0, Math.min(EVENT_TIMES_MAX, Math.trunc(count))))
  const out = new Float64Array(Math.max(0, end - start))
  let i = start
  while (i < end) {
    const row = log.packedRowAt(i)
    if (row === null) {
      out[i - start] = clockTime(log.event(i)?.time) ?? Number.NaN
      i++
      continue
    }
    // Walk the row's members once: member k's time is time0 + dt[0..k-1].
    let time = row.row.time0
    for (let k = 0; k < row.members; k++) {
      if (k > 0) time += row.row.data.dt[k - 1] ?? 0
      const index = row.firstIndex + k
      if (index >= start && index < end) out[index - start] = clockTime(time) ?? Number.NaN
    }
    i = row.firstIndex + row.members
  }
  return out
}
