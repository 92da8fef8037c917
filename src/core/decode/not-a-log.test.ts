/**
 * Input that is no session log at all gets one sentence naming what it is and nothing else (issue 26): known file
 * magics, NUL bytes and bytes that are not UTF-8 in the first KiB. A session log (a `{` first, after an optional
 * BOM, or a zstd frame) is never refused, whatever damage follows; plain text that is not JSON is left to the
 * header's own diagnostics.
 */

import { gzipSync, zipSync } from 'fflate'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LensLog } from '../log/lens-log.ts'
import { NOT_A_LOG_SNIFF_BYTES, ZIP_ARCHIVE, notALog, notALogMessage } from './not-a-log.ts'
import { SessionDecoder, type DecodedRecord } from './session-decoder.ts'
import type { Diagnostic } from '../model/diagnostic.ts'

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? Array.from(new TextEncoder().encode(p)) : p)))
const padded = (head: Uint8Array, size = 2000): Uint8Array => {
  const out = new Uint8Array(size).fill(0x41)
  out.set(head)
  return out
}
const HEADER = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}\n'

/** Everything the decoder reports for `input` pushed in `slice`-byte pieces. */
function decode(input: Uint8Array, slice = input.length || 1) {
  const diagnostics: Diagnostic[] = []
  const records: DecodedRecord[] = []
  const headers: unknown[] = []
  const decoder = new SessionDecoder({
    header: (h) => headers.push(h),
    record: (r) => records.push(r),
    diagnostic: (d) => diagnostics.push(d),
  })
  for (let at = 0; at < input.length; at += slice) decoder.push(input.subarray(at, at + slice))
  decoder.finish()
  return { diagnostics, records, headers, progress: decoder.progress }
}

describe('not a session log', () => {
  it('names the format of a file people mistake for a log', () => {
    const cases: [string, Uint8Array][] = [
      ['a PNG image', padded(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'))],
      ['a JPEG image', padded(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'))],
      ['a GIF image', padded(bytes('GIF89a', [1, 0, 1, 0, 0x80, 0]))],
      ['a PDF document', bytes('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n')],
      [ZIP_ARCHIVE, zipSync({ 'session.jsonl': bytes(HEADER) })],
      ['a gzip archive', gzipSync(bytes(HEADER))],
      ['an ELF executable', padded(bytes([0x7f], 'ELF', [2, 1, 1, 0]))],
      ['a Windows executable', padded(bytes('MZ', [0x90, 0, 3, 0]))],
      ['an SQLite database', padded(bytes('SQLite format 3', [0]))],
      ['UTF-16 text (a session log is UTF-8)', bytes([0xff, 0xfe], '{\0"\0')],
    ]
    for (const [what, input] of cases) expect(notALog(input), what).toBe(what)
    expect(notALogMessage('a PNG image')).toBe('not a session log: this is a PNG image')
  })

  it('binary data with no known magic, and text that is not UTF-8, in the first KiB', () => {
    expect(notALog(bytes('abc', [0], 'def'))).toBe('binary data, not text')
    expect(notALog(bytes('caf', [0xe9], ' au lait\n'))).toBe('text that is not UTF-8 (a session log is UTF-8)')
    // Past the first KiB nothing is looked at.
    expect(notALog(padded(bytes('x'), NOT_A_LOG_SNIFF_BYTES + 10).fill(0, NOT_A_LOG_SNIFF_BYTES))).toBeNull()
  })

  it('never a session log, however damaged, a zstd frame, plain text, or letters that only look like a magic', () => {
    expect(notALog(bytes(HEADER, [0, 0xff, 0x89], 'PNG'))).toBeNull()
    expect(notALog(bytes([0xef, 0xbb, 0xbf], HEADER, [0]))).toBeNull()
    expect(notALog(bytes([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0]))).toBe('binary data, not text') // the caller checks zstd first
    expect(notALog(bytes(''))).toBeNull()
    expect(notALog(bytes('<html><body>nope</body></html>\n'))).toBeNull()
    expect(notALog(bytes('BMW service notes\nMZ-80 manual\n'))).toBeNull()
    // A character cut by the end of the first KiB is not "not UTF-8".
    const cut = padded(bytes(''), NOT_A_LOG_SNIFF_BYTES + 5)
    cut.set([0xe6, 0x97, 0xa5], NOT_A_LOG_SNIFF_BYTES - 1)
    expect(notALog(cut)).toBeNull()
  })

  it('the decoder refuses it with exactly one diagnostic and nothing else, however the bytes arrive', () => {
    const png = padded(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a], '\n{"seq":0}\n'), 5000)
    const expected = {
      diagnostics: [
        {
          severity: 'error',
          code: 'not-a-log',
          line: null,
          seq: null,
          offset: 0,
          message: 'not a session log: this is a PNG image',
        },
      ],
      records: [],
      headers: [null],
    }
    for (const slice of [1, 3, 4, 100, 1023, 1024, 1025, 5000]) {
      const { progress, ...out } = decode(png, slice)
      expect(out, `slices of ${slice}`).toStrictEqual(expected)
      expect(progress.inputBytes).toBe(png.length)
      expect(progress.lines).toBe(0)
    }
    // Shorter than the sniff window: decided at the end of the input.
    expect(decode(bytes('ab', [0], 'c'), 1).diagnostics.map((d) => d.message)).toStrictEqual([
      'not a session log: this is binary data, not text',
    ])
  })

  it('a log is read as before: damage later in the first KiB is reported line by line', () => {
    const damaged = bytes(HEADER, '{"type":"x","seq":0,"time":0,"data":"a', [0, 0xff], '"}\n')
    const { diagnostics, records } = decode(damaged, 7)
    expect(diagnostics.some((d) => d.code === 'not-a-log')).toBe(false)
    expect(diagnostics.some((d) => d.code === 'invalid-utf8')).toBe(true)
    expect(records).toHaveLength(0)
  })

  it('an empty input says so once', () => {
    const log = new LensLog()
    log.finish()
    expect(log.diagnostics.map((d) => [d.code, d.message])).toStrictEqual([
      ['header-missing', 'empty or header-less session log'],
    ])
  })

  it('random bytes: refused with one diagnostic and no record, or read as before', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 700 }), (input, slice) => {
        const out = decode(input, slice)
        const refused = out.diagnostics.some((d) => d.code === 'not-a-log')
        const looksLikeZstd = input[0] === 0x28 && input[1] === 0xb5 && input[2] === 0x2f && input[3] === 0xfd
        expect(refused).toBe(!looksLikeZstd && notALog(input) !== null)
        if (refused) {
          expect(out.diagnostics).toHaveLength(1)
          expect(out.records).toStrictEqual([])
        }
      }),
      { numRuns: 300 },
    )
  })
})
