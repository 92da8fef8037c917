/**
 * The floor's own work, shared by the in-process baseline (baselines.ts) and the page-worker floor (floor-worker.ts):
 * plaintext pieces of a log and JSON.parse of every line. Only fzstd here, so the browser bundle stays the floor.
 */

import { decompress } from 'fzstd'
import { zstdFrameRanges } from './frame-walker.ts'

export type Encoding = 'jsonl' | 'zstd'

/** Plaintext pieces of a log: the whole file for JSONL, one per frame for zstd (fzstd `decompress` per frame). */
export function* plaintextPieces(bytes: Uint8Array, encoding: Encoding): Generator<Uint8Array> {
  if (encoding === 'jsonl') {
    yield bytes
    return
  }
  for (const [start, end] of zstdFrameRanges(bytes)) yield decompress(bytes.subarray(start, end))
}

/** Every line through JSON.parse, kept in `out` (as a loader keeps what it parsed). Lines never span frames. */
export function parseLines(text: string, out: unknown[]): void {
  let at = 0
  for (;;) {
    const nl = text.indexOf('\n', at)
    if (nl === -1) break
    if (nl > at) out.push(JSON.parse(text.slice(at, nl)))
    at = nl + 1
  }
}
