import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clipForDisplay } from './display-clip.ts'

describe('clipForDisplay', () => {
  it('keeps short text whole', () => {
    expect(clipForDisplay('a\nb\nc', { lines: 3, chars: 100 })).toBe('a\nb\nc')
    expect(clipForDisplay('', { lines: 1, chars: 1 })).toBe('')
  })

  it('keeps at most `lines` lines, cut before the newline that would start one more', () => {
    expect(clipForDisplay('a\nb\nc\nd', { lines: 2, chars: 100 })).toBe('a\nb')
    expect(clipForDisplay('a\nb\n', { lines: 2, chars: 100 })).toBe('a\nb')
    expect(clipForDisplay('\n\n\n', { lines: 2, chars: 100 })).toBe('\n')
  })

  it('keeps at most `chars` characters, never half a surrogate pair', () => {
    expect(clipForDisplay('abcdef', { lines: 5, chars: 4 })).toBe('abcd')
    expect(clipForDisplay('abc😀def', { lines: 5, chars: 4 })).toBe('abc')
    expect(clipForDisplay('abc😀def', { lines: 5, chars: 5 })).toBe('abc😀')
  })

  it('is always a prefix within both limits, and the whole text when it fits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', '\n', '😀', 'é', ' '), maxLength: 80 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 60 }),
        (text, lines, chars) => {
          const out = clipForDisplay(text, { lines, chars })
          expect(text.startsWith(out)).toBe(true)
          expect(out.length).toBeLessThanOrEqual(chars)
          expect(out.split('\n').length).toBeLessThanOrEqual(lines)
          expect(out).not.toMatch(/[\uD800-\uDBFF]$/)
          const fits = text.length <= chars && text.split('\n').length <= lines
          if (fits) expect(out).toBe(text)
        },
      ),
    )
  })
})
