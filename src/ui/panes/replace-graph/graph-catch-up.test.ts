import { describe, expect, it } from 'vitest'
import { stepToward } from './graph-catch-up.ts'

describe('stepToward', () => {
  // Five replacements owning 1, 3, 1, 1 and 4 nodes.
  const nodeEnd = Int32Array.from([0, 1, 4, 5, 6, 10])

  it('reaches the target at once when the nodes in between fit the budget', () => {
    expect(stepToward(0, 5, nodeEnd, 10)).toBe(5)
    expect(stepToward(5, 0, nodeEnd, 10)).toBe(0)
    expect(stepToward(3, 3, nodeEnd, 1)).toBe(3)
  })

  it('stops at the furthest replacement that fits, and always moves at least one', () => {
    expect(stepToward(0, 5, nodeEnd, 5)).toBe(3)
    expect(stepToward(5, 0, nodeEnd, 5)).toBe(3)
    expect(stepToward(1, 5, nodeEnd, 1)).toBe(2)
  })
})
