/**
 * NeedleIndex says which needles occur in a text exactly as `text.includes(needle)` does: on random needles and texts
 * over a small alphabet (so needles overlap, nest and repeat), surrogate halves and astral characters included.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NeedleIndex } from './needle-index.ts'

const unit = fc.constantFrom('a', 'b', 'ab', '/', '.', ' ', 'é', '😀', '\uD800')
const str = (maxLength: number) => fc.array(unit, { maxLength }).map((parts) => parts.join(''))

describe('NeedleIndex', () => {
  it('marks exactly the needles that text.includes finds, in one pass per text', () => {
    fc.assert(
      fc.property(
        fc.array(str(6), { minLength: 1, maxLength: 30 }),
        fc.array(str(40), { minLength: 1, maxLength: 5 }),
        (needles, texts) => {
          const index = new NeedleIndex()
          const ids = needles.map((n) => index.add(n))
          for (const text of texts) {
            const seen = new Uint8Array(index.size)
            index.markOccurring(text, seen)
            needles.forEach((needle, k) => {
              const id = ids[k] as number
              expect(id === -1 ? false : seen[id] === 1, `${JSON.stringify(needle)} in ${JSON.stringify(text)}`).toBe(
                needle !== '' && text.includes(needle),
              )
            })
          }
        },
      ),
      { numRuns: 500 },
    )
  })

  it('gives one id per distinct needle and none to the empty one', () => {
    const index = new NeedleIndex()
    expect(index.add('src/a.ts')).toBe(0)
    expect(index.add('a.ts')).toBe(1)
    expect(index.add('src/a.ts')).toBe(0)
    expect(index.add('')).toBe(-1)
    expect(index.size).toBe(2)
    const seen = new Uint8Array(index.size)
    index.markOccurring('we read a.ts twice', seen)
    expect([...seen]).toStrictEqual([0, 1])
  })
})
