/** The replay's time windows: asked for once each, the next one ahead of need, a short window asked again. */

import { describe, expect, it } from 'vitest'
import { EventTimeBuffer, TIME_WINDOW } from './event-time-buffer.ts'

describe('EventTimeBuffer', () => {
  it('fetches a window on first need, the next one past its middle, a short one again once the log grew', async () => {
    let length = TIME_WINDOW + 10
    const asked: [number, number][] = []
    const buffer = new EventTimeBuffer(async (from, count) => {
      asked.push([from, count])
      const n = Math.max(0, Math.min(count, length - from))
      return Float64Array.from({ length: n }, (_, k) => 1_000 + from + k)
    })
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
    expect(buffer.get(5)).toBeUndefined()
    expect(buffer.get(6)).toBeUndefined()
    await settle()
    expect(buffer.get(5)).toBe(1_005)
    expect(asked).toStrictEqual([[0, TIME_WINDOW]])
    expect(buffer.get(TIME_WINDOW / 2 + 1)).toBe(1_000 + TIME_WINDOW / 2 + 1)
    await settle()
    expect(asked).toStrictEqual([
      [0, TIME_WINDOW],
      [TIME_WINDOW, TIME_WINDOW],
    ])
    expect(buffer.get(TIME_WINDOW + 9)).toBe(1_000 + TIME_WINDOW + 9)
    length += 100
    expect(buffer.get(TIME_WINDOW + 50)).toBeUndefined()
    await settle()
    expect(buffer.get(TIME_WINDOW + 50)).toBe(1_000 + TIME_WINDOW + 50)
    expect(asked.length).toBe(3)
  })
})
