import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FollowMerge, type MergeAction } from './follow-merge.ts'
import type { HostEvent } from './host-wire.ts'

const ev = (seq: number, text = `e${seq}`): HostEvent => ({
  seq,
  line: JSON.stringify({ type: 'x', seq, time: seq, data: { text } }),
})
const range = (from: number, to: number, text?: (seq: number) => string): HostEvent[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ev(from + i, text?.(from + i)))

/** What the merge emitted so far, checked for contiguity as it goes (resets on `diverged`). */
class Sink {
  seqs: number[] = []
  lines: string[] = []
  resets = 0
  pulls: Array<{ sync: number; beforeSeq?: number }> = []
  retries: string[] = []
  apply(actions: MergeAction[]): void {
    for (const a of actions) {
      if (a.kind === 'emit') {
        for (const e of a.events) {
          expect(e.seq).toBe(this.seqs.length)
          this.seqs.push(e.seq)
          this.lines.push(e.line)
        }
      } else if (a.kind === 'diverged') {
        this.resets++
        this.seqs = []
        this.lines = []
      } else if (a.kind === 'pull')
        this.pulls.push(a.beforeSeq === undefined ? { sync: a.sync } : { sync: a.sync, beforeSeq: a.beforeSeq })
      else this.retries.push(a.why)
    }
  }
  lastPull(): { sync: number; beforeSeq?: number } {
    return this.pulls[this.pulls.length - 1] as { sync: number; beforeSeq?: number }
  }
}

describe('FollowMerge', () => {
  it('buffers frames while the snapshot is taken, then drains them dropping seq <= tail', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    expect(s.pulls).toStrictEqual([{ sync: 1 }])
    for (const e of range(4, 7)) s.apply(m.frame(e))
    expect(s.seqs).toStrictEqual([])
    s.apply(m.page(1, range(0, 5), false))
    expect(s.seqs).toStrictEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(m.phase).toBe('live')
    s.apply(m.frame(ev(8)))
    s.apply(m.frame(ev(8)))
    expect(s.seqs).toStrictEqual(range(0, 8).map((e) => e.seq))
  })

  it('pages backwards with beforeSeq until it reaches seq 0', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(6, 9), true))
    expect(s.lastPull()).toStrictEqual({ sync: 1, beforeSeq: 6 })
    s.apply(m.page(1, range(2, 5), true, 6))
    expect(s.lastPull()).toStrictEqual({ sync: 1, beforeSeq: 2 })
    s.apply(m.page(1, range(0, 1), false, 2))
    expect(s.seqs).toStrictEqual(range(0, 9).map((e) => e.seq))
  })

  it('a page that does not end right before beforeSeq is retried, never stitched', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(6, 9), true))
    s.apply(m.page(1, range(2, 4), true, 6))
    expect(s.retries).toHaveLength(1)
    expect(s.seqs).toStrictEqual([])
  })

  it('a gap in live frames re-pulls the tail; frames after the gap wait for it', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(0, 3), false))
    s.apply(m.frame(ev(6)))
    expect(s.lastPull()).toStrictEqual({ sync: 2 })
    s.apply(m.frame(ev(7)))
    expect(s.seqs).toStrictEqual([0, 1, 2, 3])
    s.apply(m.page(2, range(0, 6), false))
    expect(s.seqs).toStrictEqual(range(0, 7).map((e) => e.seq))
  })

  it('a session/subscribed baseline past the tail re-pulls; one at the tail does not', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(0, 3), false))
    s.apply(m.subscribed(3))
    expect(s.pulls).toHaveLength(1)
    s.apply(m.subscribed(5))
    expect(s.lastPull()).toStrictEqual({ sync: 2 })
    s.apply(m.page(2, range(0, 5), false))
    expect(s.seqs).toHaveLength(6)
  })

  it('a baseline seen while syncing that the page does not reach pulls again', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.subscribed(9))
    s.apply(m.page(1, range(0, 7), false))
    expect(s.lastPull()).toStrictEqual({ sync: 2 })
    expect(m.phase).toBe('syncing')
    s.apply(m.page(2, range(0, 9), false))
    expect(m.phase).toBe('live')
    expect(s.seqs).toHaveLength(10)
  })

  it('after a reconnect only events past the tail are emitted; a page from before it is stale', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(0, 5), false))
    m.disconnected()
    s.apply(m.frame(ev(6)))
    s.apply(m.connected())
    s.apply(m.page(1, range(0, 9), false))
    expect(s.seqs).toStrictEqual(range(0, 5).map((e) => e.seq))
    s.apply(m.page(s.lastPull().sync, range(3, 9), true))
    expect(s.seqs).toStrictEqual(range(0, 9).map((e) => e.seq))
    expect(s.resets).toBe(0)
  })

  it('a host whose log is now shorter than what was shown diverges and starts over from seq 0', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(0, 8), false))
    m.disconnected()
    s.apply(m.connected())
    s.apply(m.page(s.lastPull().sync, range(3, 6), true))
    expect(s.resets).toBe(1)
    expect(m.tail).toBe(-1)
    expect(s.lastPull().beforeSeq).toBeUndefined()
    s.apply(m.page(s.lastPull().sync, range(0, 6), false))
    expect(s.seqs).toStrictEqual(range(0, 6).map((e) => e.seq))
  })

  it('an event the host changed (repaired with a closer) diverges at that seq', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(0, 8), false))
    m.disconnected()
    s.apply(m.connected())
    const repaired = range(0, 9, (seq) => (seq >= 7 ? `closer${seq}` : `e${seq}`))
    const actions = m.page(s.lastPull().sync, repaired, false)
    expect(actions[0]).toStrictEqual({ kind: 'diverged', seq: 7, why: "the host's event at seq 7 changed" })
    s.apply(actions)
    s.apply(m.page(s.lastPull().sync, repaired, false))
    expect(s.lines).toStrictEqual(repaired.map((e) => e.line))
  })

  it('a page that only joins at tail + 1 is not trusted: one more page back must overlap what was shown', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, range(0, 4), false))
    m.disconnected()
    s.apply(m.connected())
    // The restarted host repaired seq 4 and went on; its tail page starts right after what was shown.
    const repaired = range(0, 7, (seq) => (seq >= 4 ? `after-restart${seq}` : `e${seq}`))
    s.apply(m.page(s.lastPull().sync, repaired.slice(5), true))
    expect(s.lastPull().beforeSeq).toBe(5)
    expect(s.seqs).toStrictEqual([0, 1, 2, 3, 4])
    s.apply(m.page(s.lastPull().sync, repaired.slice(3, 5), true, 5))
    expect(s.resets).toBe(1)
    s.apply(m.page(s.lastPull().sync, repaired, false))
    expect(s.lines).toStrictEqual(repaired.map((e) => e.line))
  })

  it('the same event with its keys in another order is not a divergence', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, [{ seq: 0, line: '{"type":"x","seq":0,"data":{"a":1,"b":2}}' }], false))
    s.apply(m.frame({ seq: 0, line: '{"seq":0,"type":"x","data":{"b":2,"a":1}}' }))
    expect(s.resets).toBe(0)
    s.apply(m.frame({ seq: 0, line: '{"seq":0,"type":"x","data":{"b":3,"a":1}}' }))
    expect(s.resets).toBe(1)
  })

  it('an empty log is live at once, and its first frames are emitted', () => {
    const m = new FollowMerge()
    const s = new Sink()
    s.apply(m.connected())
    s.apply(m.page(1, [], false))
    expect(m.phase).toBe('live')
    s.apply(m.frame(ev(0)))
    expect(s.seqs).toStrictEqual([0])
  })

  it('a buffer that overflows is dropped and the snapshot taken again', () => {
    const m = new FollowMerge(3)
    const s = new Sink()
    s.apply(m.connected())
    for (const e of range(2, 8)) s.apply(m.frame(e))
    s.apply(m.page(1, range(0, 4), false))
    expect(s.seqs).toHaveLength(5)
    expect(s.lastPull()).toStrictEqual({ sync: 2 })
    s.apply(m.page(2, range(0, 8), false))
    expect(s.seqs).toHaveLength(9)
    expect(m.phase).toBe('live')
  })

  it('property: whatever the host does, emits stay contiguous and end equal to the host log', () => {
    type Op =
      | { op: 'append'; n: number }
      | { op: 'drop-socket' }
      | { op: 'reconnect'; baseline: boolean }
      | { op: 'answer'; cut: number }
      | { op: 'duplicate' }
      | { op: 'restart-losing'; lose: number }
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ op: fc.constant('append' as const), n: fc.integer({ min: 1, max: 4 }) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('drop-socket' as const) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('reconnect' as const), baseline: fc.boolean() }) },
      { weight: 4, arbitrary: fc.record({ op: fc.constant('answer' as const), cut: fc.integer({ min: 1, max: 6 }) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('duplicate' as const) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('restart-losing' as const), lose: fc.integer({ min: 1, max: 3 }) }) },
    )
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const host: HostEvent[] = []
        let generation = 0
        let connected = false
        const m = new FollowMerge()
        const s = new Sink()
        let pending: { sync: number; beforeSeq?: number } | null = null
        const run = (actions: MergeAction[]): void => {
          s.apply(actions)
          for (const a of actions) if (a.kind === 'pull') pending = a.beforeSeq === undefined ? { sync: a.sync } : a
        }
        /** The host's paging: up to `cut` events ending before beforeSeq (or at the tail). */
        const answer = (cut: number): void => {
          const want = pending
          if (want === null || !connected) return
          pending = null
          const end = want.beforeSeq === undefined ? host.length : want.beforeSeq
          const start = Math.max(0, end - cut)
          run(m.page(want.sync, host.slice(start, end), start > 0, want.beforeSeq))
        }
        const connect = (baseline: boolean): void => {
          connected = true
          run(m.connected())
          // The real host sends session/subscribed for an attached session when the mux opens.
          if (baseline) run(m.subscribed(host.length - 1))
        }
        const drop = (): void => {
          connected = false
          pending = null
          m.disconnected()
        }
        connect(true)
        for (const o of ops) {
          if (o.op === 'append') {
            for (let k = 0; k < o.n; k++) {
              const e = ev(host.length, `g${generation}-${host.length}`)
              host.push(e)
              // The mux delivers every frame while it is open; frames sent while it is down are lost.
              if (connected) run(m.frame(e))
            }
          } else if (o.op === 'drop-socket') drop()
          else if (o.op === 'reconnect') {
            if (!connected) connect(o.baseline)
          } else if (o.op === 'answer') answer(o.cut)
          else if (o.op === 'duplicate') {
            const last = host[host.length - 1]
            if (last !== undefined && connected) run(m.frame(last))
          } else {
            // Killed before writing its last events; the restarted host repairs the log with other events there.
            drop()
            host.length = Math.max(0, host.length - o.lose)
            generation++
            host.push(ev(host.length, `closer${generation}`))
          }
        }
        if (!connected) connect(false)
        // Let the host answer until the merge is live: it must converge on exactly the host's log.
        for (let guard = 0; m.phase !== 'live' && guard < 1000; guard++) answer(3)
        expect(m.phase).toBe('live')
        expect(s.lines).toStrictEqual(host.map((e) => e.line))
      }),
      { numRuns: 1000 },
    )
  })
})
