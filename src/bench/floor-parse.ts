/**
 * The floor's own work, shared by the in-process baseline (baselines.ts) and the page-worker floor (floor-worker.ts):
 * plaintext pieces of a log and JSON.parse of every line. zstd frames go through the fastest decoder the app has
 * (libzstd in WebAssembly, zstd-wasm.ts), called directly: the floor never pays for the app's checks or fallbacks.
 */

import { decompress } from '../core/decode/vendor/fzstd.js'
import { zstdDecoder } from '../core/decode/zstd-wasm.ts'
import { zstdFrameRanges } from './frame-walker.ts'

export type Encoding = 'jsonl' | 'zstd'

/** One whole zstd frame to its plaintext. */
export type FloorFrameDecoder = (frame: Uint8Array) => Uint8Array

/** libzstd per frame (zstddec finds each frame's size itself); fzstd where WebAssembly is unavailable. */
export function floorFrameDecoder(): FloorFrameDecoder {
  const decoder = zstdDecoder()
  return decoder === null ? (frame) => decompress(frame) : (frame) => decoder.decode(frame)
}

/** Plaintext pieces of a log: the whole file for JSONL, one per frame for zstd. */
export function* plaintextPieces(bytes: Uint8Array, encoding: Encoding, decodeFrame: FloorFrameDecoder): Generator<Uint8Array> {
  if (encoding === 'jsonl') {
    yield bytes
    return
  }
  for (const [start, end] of zstdFrameRanges(bytes)) yield decodeFrame(bytes.subarray(start, end))
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
