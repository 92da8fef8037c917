/**
 * A zstd frame that stores its plaintext uncompressed (Raw blocks, RFC 8878 §3.1.1.2): valid for every decoder,
 * written in pure code, no encoder needed. What a redacted zstd log is written with where no zstd compressor is at
 * hand (Node 20 has none; Node >= 22.15 compresses with `zlib.zstdCompressSync`, as the harness does): the log stays
 * zstd, frame for frame, at the size of its plain text (docs/secrets.md has the figures).
 */

import type { ContentChecksum } from '../decode/zstd-container.ts'

/** Largest block (Block_Maximum_Size: min(window, 128 KiB)). */
const BLOCK_MAX = 128 * 1024

/**
 * One frame: the magic, a single-segment header declaring the content size (libzstd decodes only frames that declare
 * it, zstd-wasm.ts), Raw blocks of up to 128 KiB, and the content checksum when `checksum` is given.
 */
export function rawZstdFrame(plaintext: Uint8Array, checksum?: ContentChecksum): Uint8Array {
  const size = plaintext.length
  // Frame_Content_Size_flag: 0 → 1 byte (single segment), 1 → 2 bytes (+256), 2 → 4 bytes, 3 → 8 bytes.
  const fcsFlag = size < 256 ? 0 : size < 65536 + 256 ? 1 : size < 2 ** 32 ? 2 : 3
  const fcsBytes = [1, 2, 4, 8][fcsFlag] as number
  const blocks = Math.max(1, Math.ceil(size / BLOCK_MAX))
  const out = new Uint8Array(4 + 1 + fcsBytes + blocks * 3 + size + (checksum === undefined ? 0 : 4))
  const view = new DataView(out.buffer)
  out.set([0x28, 0xb5, 0x2f, 0xfd], 0)
  // Frame_Header_Descriptor: FCS flag (bits 7-6), Single_Segment (bit 5), Content_Checksum (bit 2).
  out[4] = (fcsFlag << 6) | 0x20 | (checksum === undefined ? 0 : 0x04)
  let at = 5
  if (fcsFlag === 0) out[at] = size
  else if (fcsFlag === 1) view.setUint16(at, size - 256, true)
  else if (fcsFlag === 2) view.setUint32(at, size, true)
  else view.setBigUint64(at, BigInt(size), true)
  at += fcsBytes
  for (let b = 0; b < blocks; b++) {
    const start = b * BLOCK_MAX
    const length = Math.min(BLOCK_MAX, size - start)
    const last = b === blocks - 1 ? 1 : 0
    // Block_Header: Last_Block (bit 0), Block_Type 0 = Raw (bits 1-2), Block_Size (bits 3-23), little-endian.
    const header = last | (length << 3)
    out[at] = header & 0xff
    out[at + 1] = (header >> 8) & 0xff
    out[at + 2] = (header >> 16) & 0xff
    at += 3
    out.set(plaintext.subarray(start, start + length), at)
    at += length
  }
  if (checksum !== undefined) view.setUint32(at, checksum(plaintext) >>> 0, true)
  return out
}
