/**
 * A packed row's member times go through the clock checks as one-event lines do: a row that starts at time 0 (no
 * clock) after a reading, then steps to a time before that reading, is a backward step at that member; a row whose
 * members run forward from the previous reading is none.
 */

import { describe, expect, it } from 'vitest'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'

const checksum = await loadContentChecksum()

function read(time0: number, dt: number[]): LensLog {
  const lines = [
    { type: 'session', version: 0, id: 's', createdAt: 0, delegationDepth: 0 },
    { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
    { type: 'step/start', seq: 1, time: 1000, data: { turn: 1, step: 1 } },
    {
      type: 'text-chunks',
      seq0: 2,
      time0,
      data: { turn: 1, step: 1, index: 0, dt, texts: Array.from({ length: dt.length + 1 }, (_, k) => `t${k}`) },
    },
  ]
  const log = new LensLog({ checksum, keep: ['timing'] })
  log.push(new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n') + '\n'))
  log.finish()
  return log
}

describe('the clock checks inside a packed row', () => {
  it('a row starting at 0 after a reading, then behind it: a backward step at that member', () => {
    const log = read(0, [500, 10])
    expect(log.timing.zero).toStrictEqual({ count: 1, firstIndex: 2, firstBackMs: 0 })
    expect(log.timing.backwards).toStrictEqual({ count: 1, firstIndex: 3, firstBackMs: 500 })
    expect(log.timing.spansBackStep(2, 3)).toBe(true)
    expect(log.timing.lastTime).toBe(510)
  })

  it('members running forward from the last reading: no backward step, the clock at the last member', () => {
    const log = read(1200, [0, 30, 5])
    expect(log.timing.backwards.count).toBe(0)
    expect(log.timing.zero.count).toBe(0)
    expect(log.timing.lastTime).toBe(1235)
  })

  it('a step back inside the row is found at its member', () => {
    const log = read(1200, [30, -100, 5])
    expect(log.timing.backwards).toStrictEqual({ count: 1, firstIndex: 4, firstBackMs: 100 })
  })
})
