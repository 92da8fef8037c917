/**
 * Bytes that are no session log at all: a known file format's magic number, or binary data (a NUL byte, or bytes
 * that are not UTF-8) in the first KiB. A session log begins with its JSON header line (`{`, after an optional BOM)
 * or with a zstd frame; damage inside a log is reported line by line elsewhere and never makes it "not a log".
 * Refusing such a file with one sentence that names what it is beats thousands of line defects (a PNG renamed
 * `screenshot.jsonl` gave 2,233 and a fold verdict about `seq undefined`). Shared by the worker, the CLI and the
 * live server, so each says the same sentence.
 */

import { ZIP_ARCHIVE } from '../model/not-a-log-message.ts'

export { ZIP_ARCHIVE, notALogMessage } from '../model/not-a-log-message.ts'

/** How many leading bytes decide (a shorter input decides on all of it). */
export const NOT_A_LOG_SNIFF_BYTES = 1024

interface Magic {
  readonly what: string
  readonly at: number
  readonly bytes: readonly number[]
  /** Plain letters that could begin a text file ("BMW", "MZ-80"): they name the format only of binary data. */
  readonly weak?: true
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0))

/** Formats people hand a viewer by mistake. The zstd frame magic is absent: a `.jsonl.zstd` is a session log. */
const MAGICS: readonly Magic[] = [
  { what: 'a PNG image', at: 0, bytes: [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a] },
  { what: 'a JPEG image', at: 0, bytes: [0xff, 0xd8, 0xff] },
  { what: 'a GIF image', at: 0, bytes: ascii('GIF8'), weak: true },
  { what: 'a WebP image', at: 8, bytes: ascii('WEBP'), weak: true },
  { what: 'a BMP image', at: 0, bytes: ascii('BM'), weak: true },
  { what: 'a TIFF image', at: 0, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { what: 'a TIFF image', at: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { what: 'an ICO image', at: 0, bytes: [0x00, 0x00, 0x01, 0x00] },
  { what: 'a PDF document', at: 0, bytes: ascii('%PDF-') },
  { what: ZIP_ARCHIVE, at: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { what: ZIP_ARCHIVE, at: 0, bytes: [0x50, 0x4b, 0x05, 0x06] },
  { what: 'a gzip archive', at: 0, bytes: [0x1f, 0x8b] },
  { what: 'a bzip2 archive', at: 0, bytes: ascii('BZh'), weak: true },
  { what: 'an xz archive', at: 0, bytes: [0xfd, ...ascii('7zXZ'), 0x00] },
  { what: 'a 7-Zip archive', at: 0, bytes: [...ascii('7z'), 0xbc, 0xaf, 0x27, 0x1c] },
  { what: 'a RAR archive', at: 0, bytes: ascii('Rar!\x1a\x07') },
  { what: 'a tar archive', at: 257, bytes: ascii('ustar'), weak: true },
  { what: 'an SQLite database', at: 0, bytes: ascii('SQLite format 3\0') },
  { what: 'an ELF executable', at: 0, bytes: [0x7f, ...ascii('ELF')] },
  { what: 'a Windows executable', at: 0, bytes: ascii('MZ'), weak: true },
  { what: 'a WebAssembly module', at: 0, bytes: [0x00, ...ascii('asm')] },
  { what: 'an MP4 video', at: 4, bytes: ascii('ftyp'), weak: true },
  { what: 'UTF-16 text (a session log is UTF-8)', at: 0, bytes: [0xff, 0xfe] },
  { what: 'UTF-16 text (a session log is UTF-8)', at: 0, bytes: [0xfe, 0xff] },
]

const BINARY = 'binary data, not text'
const NOT_UTF8 = 'text that is not UTF-8 (a session log is UTF-8)'

/** Whether `bytes` are UTF-8; with `cut`, a character cut short by the end of `bytes` is not held against them. */
function isUtf8(bytes: Uint8Array, cut: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: cut })
    return true
  } catch {
    return false
  }
}

/**
 * What the first bytes of an input are when they are no session log (`'a PNG image'`), or null when they may be one.
 * `head` holds the first `NOT_A_LOG_SNIFF_BYTES` bytes, or all of a shorter input. Undecided inputs (fewer bytes than
 * that and more to come) are the caller's to wait for; see `notALogDecided`.
 */
export function notALog(head: Uint8Array): string | null {
  let start = 0
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) start = 3
  // A session log's first line is its JSON header; whatever follows, the log's own defects are reported per line.
  if (head[start] === 0x7b) return null
  const window = head.subarray(0, NOT_A_LOG_SNIFF_BYTES)
  const nul = window.includes(0)
  const utf8 = !nul && isUtf8(window, head.length > NOT_A_LOG_SNIFF_BYTES || window.length === NOT_A_LOG_SNIFF_BYTES)
  const binary = nul || !utf8
  for (const magic of MAGICS) {
    if (magic.weak === true && !binary) continue
    if (head.length >= magic.at + magic.bytes.length && magic.bytes.every((b, i) => head[magic.at + i] === b)) return magic.what
  }
  if (nul) return BINARY
  if (!utf8) return NOT_UTF8
  return null
}

/**
 * Whether `head` (the first bytes seen so far) is enough to decide: the whole sniff window, or a first byte that
 * already says "session log" (`{`, after an optional BOM). Otherwise wait for more bytes or the end of the input.
 */
export function notALogDecided(head: Uint8Array): boolean {
  if (head.length >= NOT_A_LOG_SNIFF_BYTES) return true
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0
  if (head.length <= start) return false
  return head[start] === 0x7b
}
