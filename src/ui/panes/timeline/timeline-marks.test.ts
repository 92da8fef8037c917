import { describe, expect, it } from 'vitest'
import { MARK_BUCKETS, indexAtPointer, markPositions } from './timeline-marks.ts'
import { scrubActionFor } from './scrub-keys.ts'

describe('timeline marks', () => {
  it('bins 100,000 marks to at most one per bucket', () => {
    const indices = Int32Array.from({ length: 100_000 }, (_, i) => i)
    const marks = markPositions(indices, 99_999)
    expect(marks.length).toBeLessThanOrEqual(MARK_BUCKETS + 1)
    expect(marks[0]).toEqual({ fraction: 0, index: 0 })
  })

  it('maps a pointer to an index, clamped to the track', () => {
    expect(indexAtPointer(50, 0, 100, 10)).toBe(5)
    expect(indexAtPointer(-20, 0, 100, 10)).toBe(0)
    expect(indexAtPointer(500, 0, 100, 10)).toBe(10)
  })

  it('maps keys to cursor moves', () => {
    const press = (key: string, shiftKey = false, ctrlKey = false) => ({ key, shiftKey, ctrlKey, metaKey: false, altKey: false })
    expect(scrubActionFor(press('ArrowRight'))).toEqual({ kind: 'step', delta: 1 })
    expect(scrubActionFor(press('ArrowLeft', true))).toEqual({ kind: 'jump', mark: 'surface', direction: -1 })
    expect(scrubActionFor(press(']'))).toEqual({ kind: 'jump', mark: 'replace', direction: 1 })
    expect(scrubActionFor(press('Home'))).toEqual({ kind: 'home' })
    expect(scrubActionFor(press('x'))).toBeNull()
    expect(scrubActionFor(press('ArrowRight', false, true))).toBeNull()
  })
})
