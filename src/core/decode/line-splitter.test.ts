/**
 * The line splitter against a reference split of the whole plaintext: however the bytes are cut into chunks, every
 * line comes out once, in order, with its 1-based number, the byte offset of its first byte (what the live server
 * resumes from after a restart), its text without the newline or a final CR, and its flags. Chunks come from one
 * buffer the caller overwrites after each push, as fzstd and file readers do.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LineSplitter, type SplitLine } from './line-splitter.ts'

interface Line {
  line: number
  offset: number
  text: string
  crlf: boolean
  invalidUtf8: boolean
  torn: boolean
  tooLong: boolean
  droppedBytes: number
}

/** What every line must be, from the whole plaintext at once. */
function reference(bytes: Uint8Array, maxLineBytes = Infinity): Line[] {
  const out: Line[] = []
  let start = 0
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start)
    const end = nl === -1 ? bytes.length : nl
    const raw = bytes.subarray(start, end)
    let valid = true
    try {
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw)
    } catch {
      valid = false
    }
    const tooLong = raw.length > maxLineBytes
    let text = tooLong ? '' : decoder.decode(raw)
    const crlf = !tooLong && text.endsWith('\r')
    if (crlf) text = text.slice(0, -1)
    out.push({
      line: out.length + 1,
      offset: start,
      text,
      crlf,
      invalidUtf8: !tooLong && !valid,
      torn: nl === -1,
      tooLong,
      droppedBytes: tooLong ? raw.length : 0,
    })
    start = end + 1
  }
  return out
}

/** Split `bytes` at `cuts`, pushing each piece from one reused buffer that is scribbled over after every push. */
function split(bytes: Uint8Array, cuts: readonly number[], maxLineBytes?: number): Line[] {
  const out: Line[] = []
  const splitter = new LineSplitter(
    (l: SplitLine) =>
      out.push({
        line: l.line,
        offset: l.offset,
        text: l.text,
        crlf: l.crlf,
        invalidUtf8: l.invalidUtf8,
        torn: l.torn,
        tooLong: l.tooLong,
        droppedBytes: l.droppedBytes,
      }),
    maxLineBytes,
  )
  const buffer = new Uint8Array(bytes.length)
  const bounds = [0, ...[...cuts].sort((a, b) => a - b), bytes.length]
  for (let k = 0; k + 1 < bounds.length; k++) {
    const piece = bytes.subarray(bounds[k], bounds[k + 1])
    buffer.set(piece)
    splitter.push(buffer.subarray(0, piece.length))
    buffer.fill(0x7a)
  }
  splitter.finish()
  expect(splitter.bytes).toBe(bytes.length)
  expect(splitter.pendingBytes).toBe(0)
  return out
}

const encode = (text: string) => new TextEncoder().encode(text)

describe('LineSplitter', () => {
  it('a line straddling two chunks starts at its own first byte (the offset a restarted server resumes from)', () => {
    const bytes = encode('{"a":1}\n{"b":22}\n{"c":333}\n')
    // Cut inside the second line, so the next chunk has bytes before its first newline.
    expect(split(bytes, [11])).toStrictEqual(reference(bytes))
    expect(split(bytes, [11]).map((l) => l.offset)).toStrictEqual([0, 8, 17])
  })

  it('a line held across chunks keeps its bytes when the caller reuses its buffer', () => {
    const bytes = encode('first line\nsecond, held over three chunks\nthird\n')
    expect(split(bytes, [13, 20, 30]).map((l) => l.text)).toStrictEqual(['first line', 'second, held over three chunks', 'third'])
  })

  it('every cut of a small log into two and three chunks gives the reference lines', () => {
    const bytes = encode('{"x":"é"}\r\n\n{"y":"日本"}\nbad\xff\n{"torn":')
    bytes[bytes.indexOf(0xc3, 30)] = 0xff // an invalid byte in the "bad" line (the literal above encoded it as U+00FF)
    const expected = reference(bytes)
    expect(expected.map((l) => [l.crlf, l.invalidUtf8, l.torn])).toStrictEqual([
      [true, false, false],
      [false, false, false],
      [false, false, false],
      [false, true, false],
      [false, false, true],
    ])
    for (let i = 0; i <= bytes.length; i++) {
      expect(split(bytes, [i])).toStrictEqual(expected)
      for (let j = i; j <= bytes.length; j += 3) expect(split(bytes, [i, j])).toStrictEqual(expected)
    }
  })

  it('a line longer than the bound is reported with its length, and the offsets after it stay exact', () => {
    const bytes = encode('short\n' + 'x'.repeat(40) + '\nafter\n' + 'y'.repeat(33))
    const expected = reference(bytes, 32)
    expect(expected.map((l) => [l.tooLong, l.droppedBytes])).toStrictEqual([
      [false, 0],
      [true, 40],
      [false, 0],
      [true, 33],
    ])
    for (const cuts of [[], [3], [10], [10, 20, 30], [47, 50], [60, 70]]) expect(split(bytes, cuts, 32)).toStrictEqual(expected)
  })

  it('random bytes cut anywhere, from a reused buffer: the reference lines', () => {
    const byte = fc.oneof(
      fc.constant(0x0a),
      fc.constant(0x0d),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0x20, max: 0x7e }),
    )
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }).chain((noise) =>
          fc.tuple(
            fc.array(byte, { maxLength: 200 }).map((b) => Uint8Array.from([...noise.subarray(0, 40), ...b])),
            fc.array(fc.nat(), { maxLength: 6 }),
            fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
          ),
        ),
        ([bytes, cuts, bound]) => {
          const at = cuts.map((c) => (bytes.length === 0 ? 0 : c % (bytes.length + 1)))
          expect(split(bytes, at, bound)).toStrictEqual(reference(bytes, bound))
        },
      ),
      { numRuns: 400 },
    )
  })
})
