import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  countHidden,
  hasHidden,
  hiddenCharName,
  hiddenKind,
  hiddenMarker,
  isHiddenCandidate,
  splitHidden,
} from './hidden-chars.ts'

const BIDI = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]
const INVISIBLE = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x2028, 0x2029, 0x180e, 0xe0041, 0x3164]
const CONTROL = [0x00, 0x01, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f]
/** Characters that must show as themselves: letters, RTL letters, emoji, CJK, whitespace people type. */
const VISIBLE = [0x41, 0x20, 0x09, 0x0a, 0x05d0, 0x0627, 0x4e2d, 0x1f600, 0xa0, 0x2003, 0xe9, 0x2013, 0x27e8]

describe('hiddenKind', () => {
  it.each(BIDI)('U+%s is a bidi control', (cp) => expect(hiddenKind(String.fromCodePoint(cp))).toBe('bidi'))
  it.each(INVISIBLE)('U+%s is invisible', (cp) => expect(hiddenKind(String.fromCodePoint(cp))).toBe('invisible'))
  it.each(CONTROL)('U+%s is a control', (cp) => expect(hiddenKind(String.fromCodePoint(cp))).toBe('control'))
  it.each(VISIBLE)('U+%s shows as itself', (cp) => expect(hiddenKind(String.fromCodePoint(cp))).toBeNull())
  it('a lone surrogate is hidden, a pair is not', () => {
    expect(hiddenKind('\uD800')).toBe('surrogate')
    expect(hiddenKind('\uDFFF')).toBe('surrogate')
    expect(splitHidden('\uD83D\uDE00')).toStrictEqual([{ kind: 'text', text: '\uD83D\uDE00' }])
  })
})

/** The definition as one plain Unicode-mode scan: what the fast two-stage scan must agree with. */
const REFERENCE =
  /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|(?![\t\n])\p{Cc}|[\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]|\p{Cs}/gu
const referenceHits = (text: string): [number, string][] => [...text.matchAll(REFERENCE)].map((m) => [m.index, m[0]])

describe('the pre-filter', () => {
  it("admits every hidden BMP character of this runtime's Unicode version", () => {
    const missed: string[] = []
    for (let cp = 0; cp <= 0xffff; cp++) {
      const char = String.fromCharCode(cp)
      if (new RegExp(REFERENCE.source, 'u').test(char) && !isHiddenCandidate(char)) missed.push(cp.toString(16))
    }
    expect(missed).toStrictEqual([])
  })

  it('finds the hidden characters of a large mostly-plain text, and only those', () => {
    const text = `${'plain ascii text, 中文, emoji 😀 '.repeat(20_000)}\u202E${'more'.repeat(1000)}\uDB40\uDC41\uD800x`
    expect(
      splitHidden(text)
        .filter((s) => s.kind !== 'text')
        .map((s) => s.text),
    ).toStrictEqual(['\u202E', '\u{E0041}', '\uD800'])
    expect(countHidden(text)).toStrictEqual({ total: 3, bidi: 1, invisible: 1, control: 0, surrogate: 1 })
  })
})

describe('splitHidden', () => {
  it('marks the RTL-override trick', () => {
    const segments = splitHidden('abc\u202Eevil\u202C')
    expect(segments).toStrictEqual([
      { kind: 'text', text: 'abc' },
      { kind: 'bidi', text: '\u202E', codePoint: 0x202e },
      { kind: 'text', text: 'evil' },
      { kind: 'bidi', text: '\u202C', codePoint: 0x202c },
    ])
    expect(hiddenMarker(0x202e)).toBe('⟨U+202E⟩')
    expect(hiddenCharName(0x202e)).toBe('RIGHT-TO-LEFT OVERRIDE (U+202E)')
    expect(hiddenCharName(0xe0041)).toBe('U+E0041')
  })

  it('keeps \\n and \\t as text but shows \\r and NUL', () => {
    expect(splitHidden('a\tb\nc')).toStrictEqual([{ kind: 'text', text: 'a\tb\nc' }])
    expect(splitHidden('a\r\n\0').map((s) => s.kind)).toStrictEqual(['text', 'control', 'text', 'control'])
  })

  it('the empty string is one empty text segment', () => {
    expect(splitHidden('')).toStrictEqual([{ kind: 'text', text: '' }])
  })

  // Strings mixing ordinary text with every class of hidden character (and lone surrogates).
  const char = fc.oneof(
    fc.constantFrom(...[...BIDI, ...INVISIBLE, ...CONTROL, ...VISIBLE].map((cp) => String.fromCodePoint(cp))),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
    fc.constantFrom('\uD800', '\uDBFF', '\uDC00'),
  )
  const text = fc.array(char, { maxLength: 40 }).map((parts) => parts.join(''))

  it('joins back to the input; text runs hold no hidden character; markers are one character each', () => {
    fc.assert(
      fc.property(text, (input) => {
        const segments = splitHidden(input)
        expect(segments.map((s) => s.text).join('')).toBe(input)
        for (const s of segments) {
          if (s.kind === 'text') expect(hasHidden(s.text)).toBe(false)
          else {
            expect(hiddenKind(s.text)).toBe(s.kind)
            expect(String.fromCodePoint(s.codePoint)).toBe(s.text)
          }
        }
      }),
      { numRuns: 500 },
    )
  })

  it('countHidden agrees with the segments, by kind', () => {
    fc.assert(
      fc.property(text, (input) => {
        const counts = countHidden(input)
        const markers = splitHidden(input).filter((s) => s.kind !== 'text')
        expect(counts.total).toBe(markers.length)
        for (const kind of ['bidi', 'invisible', 'control', 'surrogate'] as const)
          expect(counts[kind]).toBe(markers.filter((s) => s.kind === kind).length)
        expect(hasHidden(input)).toBe(counts.total > 0)
        // The two-stage scan finds exactly what one Unicode-mode scan of the definition finds.
        let at = 0
        const hits = splitHidden(input).flatMap((s) => {
          const hit: [number, string][] = s.kind === 'text' ? [] : [[at, s.text]]
          at += s.text.length
          return hit
        })
        expect(hits).toStrictEqual(referenceHits(input))
      }),
      { numRuns: 500 },
    )
  })
})
