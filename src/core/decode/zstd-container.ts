/**
 * The harness's default container, `session.jsonl.zstd`: independent RFC 8878
 * frames, concatenated. Frame 1 holds the header line, every later frame one
 * durable append batch. Frames are found by walking their headers and block
 * headers (no decompression needed to find a boundary), decoded one at a time
 * (libzstd in WebAssembly where it answers exactly, else fzstd: zstd-wasm.ts),
 * and checked against their content checksum as the harness's zlib-based
 * reader does. Bytes may arrive in any slicing.
 */

import { Decompress } from './vendor/fzstd.js'
import { decodeFramePrefix, frameWindowBytes } from './zstd-frame-prefix.ts'
import { libzstdFrameDecompressor } from './zstd-wasm.ts'
import { ZSTD } from '../model/harness-messages.ts'
import type { Diagnostic } from '../model/diagnostic.ts'

export const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd] as const

/** Whether bytes start with the zstd frame magic (detection never trusts a file name). */
export function hasZstdMagic(bytes: Uint8Array): boolean {
  return ZSTD_MAGIC.every((b, i) => bytes[i] === b)
}

/** Lower 32 bits of XXH64(seed 0), the zstd content checksum. */
export type ContentChecksum = (plaintext: Uint8Array) => number

/**
 * Decompresses one complete frame (`index` counts frames from 0, `offset` is its first input byte, `declared` its
 * Frame_Content_Size or -1). The default is `libzstdFrameDecompressor()` (zstd-wasm.ts); tests hand in
 * `fzstdFrameDecompressor` to compare against fzstd alone. Any decompressor must return exactly the plaintext fzstd's
 * `decompress(frame)` returns (as a CheckedPlaintext only when it verified the frame's content checksum itself), or
 * throw what it throws: a corrupt frame's message is fzstd's words.
 */
export type FrameDecompressor = (
  frame: Uint8Array,
  index: number,
  offset: number,
  declared?: number,
) => Uint8Array | CheckedPlaintext

/**
 * A frame's plaintext whose content checksum the decompressor has already checked (libzstd checks it as it decodes and
 * refuses the frame when it differs), so the container does not compute XXH64 over it again (a visible share of a zstd
 * `?log=` load's worker time).
 */
export interface CheckedPlaintext {
  readonly plaintext: Uint8Array
  readonly checksumChecked: true
}

export interface ZstdFrameSink {
  /** A complete, verified frame's plaintext. `index` counts frames from 0. */
  frame(plaintext: Uint8Array, index: number, offset: number): void
  /** Plaintext recovered from a torn final frame (only complete blocks). */
  tornFrame(plaintext: Uint8Array, index: number, offset: number): void
  /**
   * The first plaintext of a complete frame that would pass the decoded-bytes budget (`room`): at most `room()`
   * bytes, unverified (a checksum covers the whole frame). Empty when the frame cannot be decoded in pieces.
   */
  budgetFrame?(plaintext: Uint8Array, index: number, offset: number): void
  diagnostic(d: Diagnostic): void
}

/** A queue of byte chunks readable at absolute offsets, so frames can span pushes. */
class ByteQueue {
  private chunks: Uint8Array[] = []
  private start = 0 // absolute offset of chunks[0][0]
  end = 0 // absolute offset one past the last byte

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    this.chunks.push(chunk.slice())
    this.end += chunk.length
  }

  byteAt(pos: number): number {
    let at = this.start
    for (const chunk of this.chunks) {
      if (pos < at + chunk.length) return chunk[pos - at] as number
      at += chunk.length
    }
    return -1
  }

  /** Bytes [from, to) as one array; drops everything before `to`. */
  take(from: number, to: number): Uint8Array {
    const first = this.chunks[0]
    if (first !== undefined && from >= this.start && to <= this.start + first.length) {
      // The usual case with large reads: the frame lies in one chunk, so a view will do.
      const view = first.subarray(from - this.start, to - this.start)
      this.drop(to)
      return view
    }
    const out = new Uint8Array(to - from)
    let at = this.start
    let written = 0
    for (const chunk of this.chunks) {
      const lo = Math.max(from, at)
      const hi = Math.min(to, at + chunk.length)
      if (hi > lo) {
        out.set(chunk.subarray(lo - at, hi - at), written)
        written += hi - lo
      }
      at += chunk.length
    }
    this.drop(to)
    return out
  }

  drop(to: number): void {
    while (this.chunks.length > 0 && this.start + (this.chunks[0] as Uint8Array).length <= to) {
      this.start += (this.chunks.shift() as Uint8Array).length
    }
    if (this.chunks.length > 0 && to > this.start) {
      this.chunks[0] = (this.chunks[0] as Uint8Array).subarray(to - this.start)
      this.start = to
    }
  }
}

/** RFC 8878 3.1.1.2.4: no block decompresses to more than 128 KiB. */
const BLOCK_MAXIMUM_SIZE = 128 * 1024
/** A torn final frame declaring more than this (and more than its blocks hold) is not decoded at all. */
const TORN_FRAME_ALLOCATION_MAX = 256 * 1024 * 1024

/**
 * `declared` is the frame's Frame_Content_Size (-1 when absent); `bound` the most its blocks seen so far can
 * decompress to. fzstd allocates (and returns) a buffer of the declared size whatever the blocks hold, so a
 * 13-byte file declaring 512 MB would decode to 512 MB of zeros: a declared size the blocks cannot fill is a
 * corrupt frame, refused before anything is allocated.
 */
type ScanState =
  | { step: 'magic' }
  | { step: 'header'; checksum: boolean }
  | { step: 'blocks'; pos: number; checksum: boolean; declared: number; bound: number }

export class ZstdContainer {
  private readonly queue = new ByteQueue()
  private frameStart = 0
  private frameIndex = 0
  private state: ScanState = { step: 'magic' }
  private failed = false

  constructor(
    private readonly sink: ZstdFrameSink,
    private readonly checksum: ContentChecksum | undefined,
    private readonly decompressFrame: FrameDecompressor = libzstdFrameDecompressor(),
    /** Plaintext bytes the reader still takes (its decoded-bytes budget); a frame that may hold more is decoded
     * only that far (zstd-frame-prefix.ts), so a small frame cannot expand past the budget in memory. */
    private readonly room?: () => number,
  ) {}

  /** Frames completed so far. */
  get frames(): number {
    return this.frameIndex
  }

  /** Input offset where the frame still being received starts (= the end of the last complete frame). */
  get pendingStart(): number {
    return this.frameStart
  }

  push(chunk: Uint8Array): void {
    this.queue.push(chunk)
    this.scan()
  }

  /** End of input: whatever frame is still open is torn. */
  finish(): void {
    if (this.failed || this.queue.end === this.frameStart) return
    const bytes = this.queue.take(this.frameStart, this.queue.end)
    const recovered: Uint8Array[] = []
    const s = this.state
    // The streaming decoder allocates a single-segment frame's declared size up front: a torn frame declaring far
    // more than any append batch (and than its blocks can hold) is not worth a bomb-sized allocation. Any other
    // frame gets a window of the size its descriptor asks: a tiny torn tail asking for gigabytes took fzstd seconds
    // and that memory (found by a fuzz of the vendored fzstd); a harness frame's window is a few MiB at most.
    const single = (((bytes[4] ?? 0) >> 5) & 1) === 1
    const bomb =
      s.step === 'blocks' &&
      (single
        ? s.declared > TORN_FRAME_ALLOCATION_MAX && s.declared > s.bound + BLOCK_MAXIMUM_SIZE
        : frameWindowBytes(bytes, s.declared) > TORN_FRAME_ALLOCATION_MAX)
    try {
      if (!bomb) new Decompress((data) => void recovered.push(data)).push(bytes, false)
    } catch {
      // A torn frame may end inside a block: keep what decoded before the damage.
    }
    let size = 0
    for (const part of recovered) size += part.length
    const plaintext = new Uint8Array(size)
    let at = 0
    for (const part of recovered) {
      plaintext.set(part, at)
      at += part.length
    }
    this.sink.diagnostic({
      severity: 'warning',
      code: 'zstd-torn-frame',
      line: null,
      seq: null,
      offset: this.frameStart,
      message: `torn final Zstandard frame at byte ${this.frameStart} (${bytes.length} bytes, ${size} recovered): the harness truncates it on repair and keeps its complete records`,
    })
    this.sink.tornFrame(plaintext, this.frameIndex, this.frameStart)
  }

  private scan(): void {
    while (!this.failed) {
      const s = this.state
      const base = this.frameStart
      if (s.step === 'magic') {
        if (this.queue.end < base + 4) return
        if (!ZSTD_MAGIC.every((b, i) => this.queue.byteAt(base + i) === b)) {
          this.fail('zstd-invalid-magic', ZSTD.invalidMagic(base), base)
          return
        }
        this.state = { step: 'header', checksum: false }
      } else if (s.step === 'header') {
        if (this.queue.end < base + 5) return
        const fhd = this.queue.byteAt(base + 4)
        if (fhd & 0x08) {
          this.fail('zstd-reserved-bit', ZSTD.reservedBit(base + 4), base + 4)
          return
        }
        const fcsFlag = fhd >> 6
        const single = (fhd >> 5) & 1
        const dictSize = [0, 1, 2, 4][fhd & 3] as number
        const fcsSize = [single ? 1 : 0, 2, 4, 8][fcsFlag] as number
        const headerSize = 1 + (single ? 0 : 1) + dictSize + fcsSize
        if (this.queue.end < base + 4 + headerSize) return
        const declared = this.contentSize(base + 5 + (single ? 0 : 1) + dictSize, fcsSize)
        this.state = { step: 'blocks', pos: base + 4 + headerSize, checksum: (fhd & 0x04) !== 0, declared, bound: 0 }
      } else {
        if (this.queue.end < s.pos + 3) return
        const b0 = this.queue.byteAt(s.pos)
        const header = b0 | (this.queue.byteAt(s.pos + 1) << 8) | (this.queue.byteAt(s.pos + 2) << 16)
        const last = header & 1
        const type = (header >> 1) & 3
        if (type === 3) {
          this.fail('zstd-reserved-block', ZSTD.reservedBlock(s.pos), s.pos)
          return
        }
        const size = header >>> 3
        const next = s.pos + 3 + (type === 1 ? 1 : size)
        // Raw and RLE blocks decompress to exactly `size` bytes; a compressed block to at most 128 KiB.
        const bound = s.bound + (type === 2 ? BLOCK_MAXIMUM_SIZE : size)
        if (!last) {
          this.state = { ...s, pos: next, bound }
          continue
        }
        const end = next + (s.checksum ? 4 : 0)
        if (this.queue.end < end) {
          // Remember progress so a slow writer is not rescanned from the frame start.
          return
        }
        this.completeFrame(end, s.checksum, s.declared > bound ? s.declared : -1, s.declared, bound)
      }
    }
  }

  /** Frame_Content_Size: `size` bytes little-endian at `pos` (2-byte form is offset by 256); -1 when absent. */
  private contentSize(pos: number, size: number): number {
    if (size === 0) return -1
    let value = 0
    for (let i = size - 1; i >= 0; i--) value = value * 256 + this.queue.byteAt(pos + i)
    return size === 2 ? value + 256 : value
  }

  /** @param impossibleSize a declared content size larger than the blocks can hold, or -1 */
  private completeFrame(end: number, hasChecksum: boolean, impossibleSize: number, declared = -1, bound = 0): void {
    const offset = this.frameStart
    const frame = this.queue.take(offset, end)
    this.frameStart = end
    this.state = { step: 'magic' }
    const index = this.frameIndex++
    if (impossibleSize >= 0) {
      this.corrupt(offset, `declared content size ${impossibleSize} is more than its blocks can hold`)
      return
    }
    const room = this.room?.() ?? Infinity
    // Past the budget's room at most (declared size, else the blocks' bound): decode only as far as the room.
    const most = declared >= 0 ? declared : bound
    let plaintext: Uint8Array
    let checked = false
    try {
      const prefix = most > room ? decodeFramePrefix(frame, declared, room) : null
      if (prefix !== null && !prefix.whole) {
        this.sink.budgetFrame?.(prefix.plaintext, index, offset)
        return
      }
      const decoded = prefix !== null ? prefix.plaintext : this.decompressFrame(frame, index, offset, declared)
      if (decoded instanceof Uint8Array) plaintext = decoded
      else {
        plaintext = decoded.plaintext
        checked = decoded.checksumChecked
      }
    } catch (error) {
      this.corrupt(offset, error instanceof Error ? error.message : String(error))
      return
    }
    if (hasChecksum && this.checksum !== undefined && !checked) {
      const stored =
        ((frame[frame.length - 4] as number) |
          ((frame[frame.length - 3] as number) << 8) |
          ((frame[frame.length - 2] as number) << 16) |
          ((frame[frame.length - 1] as number) << 24)) >>>
        0
      if (this.checksum(plaintext) !== stored) {
        this.corrupt(offset, 'content checksum mismatch')
        return
      }
    }
    this.sink.frame(plaintext, index, offset)
  }

  private corrupt(offset: number, detail: string): void {
    this.sink.diagnostic({
      severity: 'error',
      code: 'zstd-frame-corrupt',
      line: null,
      seq: null,
      offset,
      message: ZSTD.frameCorrupt(offset, detail),
    })
  }

  /** A structural error: the harness refuses the file; nothing after it can be framed. */
  private fail(code: Diagnostic['code'], message: string, offset: number): void {
    this.failed = true
    this.sink.diagnostic({ severity: 'error', code, line: null, seq: null, offset, message })
  }
}
