/** The strips' query pacing, on a fake clock: one in flight, the interval, the latest wish last, partial answers, scrubbing. */

import { describe, expect, it } from 'vitest'
import { PACER_TIMING, QueryPacer, type PacerClock } from './query-pacer.ts'

class FakeClock implements PacerClock {
  time = 0
  private timers: { at: number; run: () => void; id: number }[] = []
  private ids = 0
  now = (): number => this.time
  setTimeout = (run: () => void, ms: number): unknown => {
    const id = ++this.ids
    this.timers.push({ at: this.time + ms, run, id })
    return id
  }
  clearTimeout = (handle: unknown): void => {
    this.timers = this.timers.filter((t) => t.id !== handle)
  }
  /** Move time on, running each timer that falls due (in order), with the microtasks after each. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0]
      if (due === undefined) break
      this.timers = this.timers.filter((t) => t !== due)
      this.time = due.at
      due.run()
      await flush()
    }
    this.time = end
    await flush()
  }
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

interface Answer {
  readonly q: number
  readonly complete: boolean
}

/** A pacer whose questions wait until the test answers them. */
function setup() {
  const clock = new FakeClock()
  const asked: { q: number; at: number; answer: (complete?: boolean) => Promise<void> }[] = []
  const shown: Answer[] = []
  const pacer = new QueryPacer<number, Answer>(
    {
      ask: (q) =>
        new Promise<Answer>((resolve) => {
          asked.push({
            q,
            at: clock.time,
            answer: async (complete = true) => {
              resolve({ q, complete })
              await flush()
            },
          })
        }),
      show: (a) => shown.push(a),
      complete: (a) => a.complete,
    },
    clock,
  )
  return { clock, asked, shown, pacer }
}

describe('QueryPacer', () => {
  it('asks at once, then at most once per interval, the latest wish last', async () => {
    const { clock, asked, shown, pacer } = setup()
    pacer.wish(1, true)
    await clock.advance(0)
    expect(asked.map((a) => a.q)).toStrictEqual([1])
    // Wishes while one is in flight: only the latest is asked, after the answer and the interval.
    pacer.wish(2, true)
    pacer.wish(3, true)
    await clock.advance(PACER_TIMING.requeryMs)
    expect(asked.length).toBe(1)
    await asked[0]?.answer()
    expect(shown.map((a) => a.q)).toStrictEqual([1])
    await clock.advance(0)
    expect(asked.map((a) => a.q)).toStrictEqual([1, 3])
  })

  it('while a file loads, the slower pace', async () => {
    const { clock, asked, pacer } = setup()
    pacer.wish(1, false)
    await clock.advance(0)
    await asked[0]?.answer()
    pacer.wish(2, false)
    await clock.advance(PACER_TIMING.loadingRequeryMs - 1)
    expect(asked.length).toBe(1)
    await clock.advance(1)
    expect(asked.map((a) => [a.q, a.at])).toStrictEqual([
      [1, 0],
      [2, PACER_TIMING.loadingRequeryMs],
    ])
  })

  it('an incomplete answer: the rest is asked for at once once loaded; partial answers shown at most once a second', async () => {
    const { clock, asked, shown, pacer } = setup()
    pacer.wish(7, true)
    await clock.advance(0)
    await asked[0]?.answer(false)
    expect(shown.length).toBe(1)
    await clock.advance(0)
    expect(asked.length).toBe(2)
    await asked[1]?.answer(false)
    // Not shown: the previous partial one was shown less than a second ago.
    expect(shown.length).toBe(1)
    await clock.advance(0)
    await clock.advance(PACER_TIMING.partialShowMs)
    await asked[2]?.answer(false)
    expect(shown.length).toBe(2)
    await clock.advance(0)
    await asked[3]?.answer(true)
    expect(shown.map((a) => a.complete)).toStrictEqual([false, false, true])
  })

  it('while the cursor moves nothing is asked or shown; once it is still, the question is asked again', async () => {
    const { clock, asked, shown, pacer } = setup()
    pacer.wish(1, true)
    await clock.advance(0)
    pacer.cursorMoved()
    await asked[0]?.answer()
    // Dropped: it came while the user scrubbed.
    expect(shown).toStrictEqual([])
    await clock.advance(PACER_TIMING.scrubQuietMs - 1)
    expect(asked.length).toBe(1)
    await clock.advance(1)
    expect(asked.length).toBe(2)
    await asked[1]?.answer()
    expect(shown.map((a) => a.q)).toStrictEqual([1])
  })

  it('disposed: nothing more is asked or shown', async () => {
    const { clock, asked, shown, pacer } = setup()
    pacer.wish(1, true)
    await clock.advance(0)
    pacer.wish(2, true)
    pacer.dispose()
    await asked[0]?.answer()
    await clock.advance(10_000)
    expect(asked.length).toBe(1)
    expect(shown).toStrictEqual([])
  })
})
