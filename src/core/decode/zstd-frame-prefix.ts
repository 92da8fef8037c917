/**
 * The first `limit` plaintext bytes of one complete zstd frame, decoded block by block: for a frame that could
 * carry a load past its decoded-bytes budget (`DecoderOptions.plainBytesBudget`). `decompress` would allocate and
 * fill the whole frame, so a small frame of RLE blocks (32,768x) could claim gigabytes before a budget is checked.
 */

import { Decompress } from './vendor/fzstd.js'

/**
 * The most a window may take when a frame is decoded in pieces: fzstd's streaming decoder allocates the frame's
 * window up front (for a single-segment frame, its whole declared size). A frame needing more is not decoded at all.
 */
export const PREFIX_WINDOW_MAX = 256 * 1024 * 1024

export interface FramePrefix {
  /** At most `limit` bytes (fewer when the frame is shorter, or when it was not decoded). */
  readonly plaintext: Uint8Array
  /** The whole frame was decoded (it fits in `limit`): its checksum can be verified as usual. */
  readonly whole: boolean
}

/** Thrown from the block handler to stop fzstd once enough plaintext is out. */
const ENOUGH = Symbol('enough')

/** Window the streaming decoder allocates for `frame` (RFC 8878 3.1.1.1.2), or -1 when the header is short. */
export function frameWindowBytes(frame: Uint8Array, declared: number): number {
  const fhd = frame[4]
  if (fhd === undefined) return -1
  if ((fhd >> 5) & 1) return declared
  const wd = frame[5]
  if (wd === undefined) return -1
  const base = 2 ** (10 + (wd >> 3))
  return base + (base / 8) * (wd & 7)
}

/**
 * @param declared the frame's Frame_Content_Size, or -1
 * @throws what fzstd throws on a corrupt frame (before `limit` bytes came out)
 */
export function decodeFramePrefix(frame: Uint8Array, declared: number, limit: number): FramePrefix {
  const empty = { plaintext: new Uint8Array(0), whole: false }
  if (limit <= 0) return empty
  const window = frameWindowBytes(frame, declared)
  if (window < 0 || window > PREFIX_WINDOW_MAX) return empty
  const parts: Uint8Array[] = []
  let size = 0
  let whole = false
  try {
    new Decompress((data, final) => {
      parts.push(data)
      size += data.length
      if (final) whole = true
      if (size >= limit) throw ENOUGH
    }).push(frame, true)
    whole = true
  } catch (error) {
    if (error !== ENOUGH) throw error
  }
  const plaintext = new Uint8Array(Math.min(size, limit))
  let at = 0
  for (const part of parts) {
    if (at >= plaintext.length) break
    const n = Math.min(part.length, plaintext.length - at)
    plaintext.set(part.subarray(0, n), at)
    at += n
  }
  return { plaintext, whole }
}
