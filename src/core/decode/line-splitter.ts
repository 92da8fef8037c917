/**
 * Incremental line framing: byte chunks in, complete lines out. Lines are split on
 * 0x0A in the bytes (as the harness's scanner does), so byte offsets stay exact
 * and a multi-byte character can never straddle a cut. Text is decoded once per
 * chunk, not once per line, which keeps a 1.3M-line log near `JSON.parse` speed.
 */

import { concatBytes } from './concat-bytes.ts'

export interface SplitLine {
  /** 1-based physical line number in the plaintext. */
  readonly line: number
  /** Byte offset of the line's first byte in the plaintext. */
  readonly offset: number
  /** The line's text, without the newline and without a trailing CR. */
  readonly text: string
  /**
   * The decoded string the text was sliced from, and the text's char range in it.
   * Keeping (source, start, end) instead of parsed objects lets a reader hold a
   * 1.3M-event log as a few large strings plus typed arrays (see LensLog).
   */
  readonly source: string
  readonly start: number
  readonly end: number
  /** The line ended with CRLF (the CR was removed). */
  readonly crlf: boolean
  /** The bytes were not valid UTF-8 (decoded with U+FFFD replacements). */
  readonly invalidUtf8: boolean
  /** The line has no final newline (only ever the last line, from `finish`). */
  readonly torn: boolean
  /**
   * The line is longer than the splitter reads (`maxLineBytes`): its bytes were dropped and `text` is empty.
   * JS strings stop near 2^29 characters, so a longer line cannot even be decoded; a bound well below that
   * keeps a 13-byte zstd bomb or a runaway writer from exhausting a tab's memory.
   */
  readonly tooLong: boolean
  /** For a `tooLong` line, its length in bytes (without the newline); 0 otherwise. */
  readonly droppedBytes: number
}

export type LineHandler = (line: SplitLine) => void

const NEWLINE = 0x0a
/** Longest line read, in bytes; see `SplitLine.tooLong`. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true })

function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return fatalDecoder.decode(bytes)
  } catch {
    return undefined
  }
}

export class LineSplitter {
  private carry: Uint8Array[] = []
  private carryBytes = 0
  private nextLine = 1
  private consumed = 0
  /** The held line grew past `maxLineBytes`: its bytes are counted (`overflowBytes`), not kept. */
  private overflow = false
  private overflowBytes = 0

  constructor(
    private readonly onLine: LineHandler,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  /** Total plaintext bytes pushed so far. */
  get bytes(): number {
    return this.consumed
  }

  /** Lines emitted so far. */
  get lines(): number {
    return this.nextLine - 1
  }

  /** Bytes held back waiting for a newline. */
  get pendingBytes(): number {
    return this.carryBytes
  }

  push(chunk: Uint8Array): void {
    const base = this.consumed
    this.consumed += chunk.length
    let start = 0
    const firstNewline = chunk.indexOf(NEWLINE)
    if (firstNewline === -1) {
      this.hold(chunk)
      return
    }
    if (this.carryBytes > 0) {
      this.hold(chunk.subarray(0, firstNewline))
      const lineStart = base - (this.carryBytes - firstNewline)
      this.emit(this.takeCarry(), lineStart, false)
      start = firstNewline + 1
    }
    const lastNewline = chunk.lastIndexOf(NEWLINE)
    if (lastNewline >= start) this.emitBlock(chunk.subarray(start, lastNewline + 1), base + start)
    if (lastNewline + 1 < chunk.length) this.hold(chunk.subarray(lastNewline + 1))
  }

  /** Flush a final line that has no newline: the harness calls this a torn tail. */
  finish(): void {
    if (this.carryBytes === 0) return
    const offset = this.consumed - this.carryBytes
    this.emit(this.takeCarry(), offset, true)
  }

  /** Emit every line of a block that ends with a newline, decoding it in one go. */
  private emitBlock(block: Uint8Array, offset: number): void {
    // A block larger than the line bound may hide a line over it: go line by line so `emit` applies the bound.
    const text = block.length > this.maxLineBytes ? undefined : decodeStrict(block)
    if (text === undefined) {
      // Rare: find the bad (or oversized) lines one by one so each gets its own diagnostic.
      let lineStart = 0
      for (let nl = block.indexOf(NEWLINE); nl !== -1; nl = block.indexOf(NEWLINE, lineStart)) {
        this.emit(block.subarray(lineStart, nl), offset + lineStart, false)
        lineStart = nl + 1
      }
      return
    }
    let byteStart = 0
    let charStart = 0
    for (;;) {
      const nl = block.indexOf(NEWLINE, byteStart)
      if (nl === -1) return
      const charEnd = text.indexOf('\n', charStart)
      this.deliver(text, charStart, charEnd, offset + byteStart, false, false)
      byteStart = nl + 1
      charStart = charEnd + 1
    }
  }

  private emit(bytes: Uint8Array, offset: number, torn: boolean): void {
    if (this.overflow || bytes.length > this.maxLineBytes) {
      const droppedBytes = this.overflow ? this.overflowBytes : bytes.length
      this.overflow = false
      this.onLine({
        line: this.nextLine++,
        offset,
        text: '',
        source: '',
        start: 0,
        end: 0,
        crlf: false,
        invalidUtf8: false,
        torn,
        tooLong: true,
        droppedBytes,
      })
      return
    }
    const strict = decodeStrict(bytes)
    const text = strict ?? lenientDecoder.decode(bytes)
    this.deliver(text, 0, text.length, offset, strict === undefined, torn)
  }

  private deliver(source: string, start: number, end: number, offset: number, invalidUtf8: boolean, torn: boolean): void {
    const crlf = end > start && source.charCodeAt(end - 1) === 13
    if (crlf) end--
    this.onLine({
      line: this.nextLine++,
      offset,
      text: source.slice(start, end),
      source,
      start,
      end,
      crlf,
      invalidUtf8,
      torn,
      tooLong: false,
      droppedBytes: 0,
    })
  }

  private hold(bytes: Uint8Array): void {
    if (bytes.length === 0) return
    this.carryBytes += bytes.length
    if (this.overflow || this.carryBytes > this.maxLineBytes) {
      // Past the bound: count the bytes (offsets stay exact) but keep none of them.
      this.overflow = true
      this.overflowBytes = this.carryBytes
      this.carry = []
      return
    }
    // Copy: callers (fzstd, file readers) may reuse the buffer after push returns.
    this.carry.push(bytes.slice())
  }

  private takeCarry(): Uint8Array {
    if (this.overflow) {
      // Nothing was kept; `emit` reports the line from `overflowBytes`.
      this.carryBytes = 0
      return new Uint8Array(0)
    }
    const out = concatBytes(this.carry, this.carryBytes)
    this.carry = []
    this.carryBytes = 0
    return out
  }
}
