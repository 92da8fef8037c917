/**
 * The first line of a zstd log read from the start of its first frame, before that frame is complete. The harness
 * writes the header alone in frame 1, so a list of sessions reads it from a few hundred bytes; a log compressed in
 * one piece by the `zstd` command holds header and events in one frame, possibly megabytes long, which a reader of
 * whole frames would have to take in completely to see line 1. Here the frame is decoded block by block (fzstd's
 * streaming decoder) and decoding stops at the first newline. Nothing is checked against the frame's checksum: the
 * caller only lists the log, and opening it decodes and checks the whole frame.
 */

import { Decompress } from './vendor/fzstd.js'
import { PREFIX_WINDOW_MAX, frameWindowBytes } from './zstd-frame-prefix.ts'

export type FirstLine =
  | {
      readonly ok: true
      readonly text: string
      /** Plaintext follows the line in its block: a header frame holding more than the header (`zstd-header-frame`). */
      readonly frameHoldsMore: boolean
    }
  | { readonly ok: false; readonly why: string }

/** Thrown from the data handler to stop fzstd once the line is out. */
const ENOUGH = Symbol('enough')

/** Frame_Content_Size of the frame starting at `bytes[0]` (RFC 8878 3.1.1.1), -1 when absent, null when short. */
function declaredContentSize(bytes: Uint8Array): number | null {
  const fhd = bytes[4]
  if (fhd === undefined) return null
  const single = (fhd >> 5) & 1
  const fcsFlag = fhd >> 6
  const didSize = [0, 1, 2, 4][fhd & 3] as number
  const fcsSize = fcsFlag === 0 ? single : ([1, 2, 4, 8][fcsFlag] as number)
  const at = 5 + (single === 1 ? 0 : 1) + didSize
  if (bytes.length < at + fcsSize) return null
  if (fcsSize === 0) return -1
  let value = 0
  for (let i = fcsSize - 1; i >= 0; i--) value = value * 256 + (bytes[at + i] as number)
  return fcsSize === 2 ? value + 256 : value
}

/**
 * @param bytes the log from its first byte (as much of it as the caller has; a few hundred KB is plenty)
 * @param maxLineBytes a first line longer than this is not a header anyone lists
 */
export function zstdFirstLine(bytes: Uint8Array, maxLineBytes = 1024 * 1024): FirstLine {
  const declared = declaredContentSize(bytes)
  if (declared === null) return { ok: false, why: 'the first zstd frame header is incomplete' }
  const window = frameWindowBytes(bytes, declared)
  if (window < 0 || window > PREFIX_WINDOW_MAX) return { ok: false, why: 'the first zstd frame needs too large a window' }
  // fzstd hands out a block once it knows the block is not the stream's last; told the input is all there is, it
  // hands out the last one too (and throws where the frame is cut short: then the line is not there yet).
  const open = read(bytes, false, maxLineBytes)
  if (open.ok || open.why !== NOT_YET) return open
  const all = read(bytes, true, maxLineBytes)
  return all.ok || all.why !== TRUNCATED ? all : open
}

const NOT_YET = 'no complete header line yet'
const TRUNCATED = 'truncated'

function read(bytes: Uint8Array, final: boolean, maxLineBytes: number): FirstLine {
  const parts: Uint8Array[] = []
  let size = 0
  let text: string | null = null
  let more = false
  let finished = false
  try {
    new Decompress((data, last) => {
      const nl = data.indexOf(0x0a)
      if (nl === -1) {
        parts.push(data.slice())
        size += data.length
        if (last === true) finished = true
        if (size > maxLineBytes) throw ENOUGH
        return
      }
      parts.push(data.subarray(0, nl))
      size += nl
      const line = new Uint8Array(size)
      let at = 0
      for (const part of parts) {
        line.set(part, at)
        at += part.length
      }
      text = new TextDecoder().decode(line)
      // fzstd hands out a block's plaintext whole, so plaintext after the newline is more of this frame. (A header
      // block that ends at its newline followed by more blocks of the frame is not seen here.)
      more = nl < data.length - 1
      throw ENOUGH
    }).push(bytes, final)
  } catch (error) {
    if (error !== ENOUGH) {
      if (final && text === null && !finished) return { ok: false, why: TRUNCATED }
      return { ok: false, why: `the first zstd frame does not decode (${String(error)})` }
    }
  }
  if (text !== null) return { ok: true, text, frameHoldsMore: more }
  if (size > maxLineBytes) return { ok: false, why: `the first line is longer than ${maxLineBytes} bytes` }
  return { ok: false, why: finished ? 'the first zstd frame holds no complete line' : NOT_YET }
}
