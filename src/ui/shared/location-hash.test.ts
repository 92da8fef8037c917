import { describe, expect, it } from 'vitest'
import { formatHash, parseHash } from './location-hash.ts'

describe('location hash', () => {
  it('round-trips cursor and selection', () => {
    expect(parseHash(formatHash({ seq: 12, sel: 3 }))).toEqual({ seq: 12, sel: 3 })
    expect(formatHash({ seq: 4, sel: null })).toBe('#seq=4')
  })

  it('ignores anything that is not a plain non-negative integer', () => {
    expect(parseHash('#seq=-1&sel=1e3')).toEqual({ seq: null, sel: null })
    expect(parseHash('')).toEqual({ seq: null, sel: null })
  })
})
