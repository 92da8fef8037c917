/**
 * Re-encoding a sub-range of a packed chunk row as a valid, shorter row: what the live server does at a batch edge and
 * what a log prefix does at its cut. Pure; shared by the server, the worker and the CLI.
 */

import type { PackedRow } from '../model/log-event.ts'
import { packedRowSize } from './packed-rows.ts'

/**
 * Members `lo..hi` (inclusive, 0-based member positions) of `row`, written with the harness's key order:
 * seq0 = the first member kept, time0 = that member's time, dt and texts/args sliced. The core decodes the result to
 * exactly the same events as those members of the original row.
 */
export function cutPackedRow(row: PackedRow, lo: number, hi: number): string {
  const size = packedRowSize(row)
  if (!(lo >= 0 && hi < size && lo <= hi)) throw new RangeError(`members ${lo}..${hi} are outside a row of ${size}`)
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
