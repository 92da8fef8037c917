/** The replay's pace, driven by a fake clock: frames of wall time against a log whose event times are given. */

import { describe, expect, it } from 'vitest'
import {
  IDLE_PLAY_MS,
  advanceReplay,
  nextSpeed,
  startAt,
  wallGap,
  type ReplayPosition,
  type ReplaySpeed,
} from './replay-clock.ts'

/** Play `times` from the first event in frames of `frameMs`, recording the cursor after each frame. */
function play(times: readonly number[], speed: ReplaySpeed, frameMs: number, frames: number, loaded = times.length) {
  let position: ReplayPosition = startAt(0, times[0])
  const visited: number[] = []
  const idle: (number | null)[] = []
  for (let f = 0; f < frames; f++) {
    const step = advanceReplay(position, frameMs, speed, times.length - 1, (i) => (i < loaded ? times[i] : undefined))
    position = step.position
    visited.push(position.index)
    idle.push(step.idleGapMs)
    if (step.ended) break
  }
  return { visited, idle, position }
}

describe('replay pace', () => {
  it('moves at the log pace times the speed', () => {
    const times = [0, 100, 200, 300, 400].map((t) => 1_000 + t)
    expect(play(times, 1, 50, 20).visited).toStrictEqual([0, 1, 1, 2, 2, 3, 3, 4])
    expect(play(times, 4, 50, 20).visited).toStrictEqual([2, 4])
    // At 64x one 16 ms frame covers a second of the log: all of it.
    expect(play(times, 64, 16, 20).visited).toStrictEqual([4])
  })

  it('a gap over a minute takes one second and is reported while it plays', () => {
    const times = [1_000, 2_000, 2_000 + 600_000, 2_000 + 600_100]
    const { visited, idle } = play(times, 64, 250, 20)
    // 1 s of log at 64x is 16 ms; then the 10 minutes take 1 s: the fifth frame of 250 ms passes them, and the last
    // 100 ms of log (under 2 ms at 64x) with them.
    expect(visited).toStrictEqual([1, 1, 1, 1, 3])
    expect(idle).toStrictEqual([600_000, 600_000, 600_000, 600_000, null])
    expect(wallGap(600_000, 1)).toStrictEqual({ ms: IDLE_PLAY_MS, idle: true })
    expect(wallGap(59_000, 1)).toStrictEqual({ ms: 59_000, idle: false })
  })

  it('unknown times and a clock going back cost no wait; the cursor still passes every event in order', () => {
    const times = [1_000, Number.NaN, 1_100, 900, 1_000, 1_300]
    const { visited } = play(times, 1, 10, 100)
    expect(visited.at(-1)).toBe(5)
    expect(visited).toStrictEqual([...visited].sort((a, b) => a - b))
    // 1 -> (NaN) at once, NaN -> 1100 at once (no clock to measure from? the last reading is 1000: 100 ms), 1100 -> 900
    // at once, 900 -> 1000 100 ms, 1000 -> 1300 300 ms: 500 ms in all, so 50 frames of 10 ms.
    expect(visited.length).toBe(50)
  })

  it('waits where times are not loaded yet, without saving the time up for a burst', () => {
    const times = [0, 10, 20, 30, 40, 50]
    const starved = advanceReplay(startAt(0, 0), 1_000, 1, 5, (i) => (i < 3 ? times[i] : undefined))
    expect(starved).toMatchObject({ position: { index: 2, spent: 0 }, starved: true, ended: false })
    const resumed = advanceReplay(starved.position, 15, 1, 5, (i) => times[i])
    expect(resumed.position.index).toBe(3)
  })

  it('speeds cycle 1, 4, 16, 64', () => {
    expect([nextSpeed(1), nextSpeed(4), nextSpeed(16), nextSpeed(64)]).toStrictEqual([4, 16, 64, 1])
  })
})
