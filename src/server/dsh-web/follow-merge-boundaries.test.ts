/**
 * The §4.2 merge's checks at their boundaries (issue 35: a small change to one of them passed the whole suite). The
 * page has shown seqs 0..8; the host restarts, and its history, read again, is one of:
 *
 * - one event short of what was shown (ends at 7): the host holds less than the page has, so the page is reset and
 *   shown the host's log (its file) from seq 0;
 * - exactly at it (ends at 8, the same events): resume, nothing emitted;
 * - one past it (ends at 9): resume, seq 9 emitted once;
 * - a tail page that overlaps the shown tail by exactly one event (starts at 8): enough to trust it, no page further
 *   back; one that overlaps by none (starts at 9) is not, and one more page back is read.
 *
 * Each is checked on the merge's actions, and through the HostSession a page subscription reads (its listeners'
 * resets and what its cursor hands out): nothing lost, nothing doubled, every seq once and in order.
 */

import { describe, expect, it } from 'vitest'
import { FollowMerge, type MergeAction } from './follow-merge.ts'
import { HostSession, type HostSessionDeps } from './host-session.ts'
import type { HostRpc } from './host-rpc.ts'
import type { HostEvent } from './host-wire.ts'

const SHOWN = 8

const event = (seq: number, text = `e${seq}`) => ({ type: 'x', seq, time: 1000 + seq, data: { text } })
const hostEvent = (seq: number, text?: string): HostEvent => ({ seq, line: JSON.stringify(event(seq, text)) })
const range = (from: number, to: number, text?: (seq: number) => string): HostEvent[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => hostEvent(from + i, text?.(from + i)))

/** The merge with seqs 0..SHOWN shown, then the host gone and back: the snapshot after the restart is asked for. */
function restarted(): { merge: FollowMerge; sync: number } {
  const merge = new FollowMerge()
  const first = merge.connected()
  expect(merge.page((first[0] as { sync: number }).sync, range(0, SHOWN), false).map((a) => a.kind)).toStrictEqual(['emit'])
  merge.disconnected()
  const pull = merge.connected()[0] as Extract<MergeAction, { kind: 'pull' }>
  expect(pull).toStrictEqual({ kind: 'pull', sync: pull.sync })
  return { merge, sync: pull.sync }
}

const emitted = (actions: readonly MergeAction[]): number[] =>
  actions.flatMap((a) => (a.kind === 'emit' ? a.events.map((e) => e.seq) : []))

describe('the follow merge after a host restart, at each boundary', () => {
  it('a history one event short of what was shown: reset, then the host log from seq 0', () => {
    const { merge, sync } = restarted()
    const actions = merge.page(sync, range(0, SHOWN - 1), false)
    expect(actions.map((a) => a.kind)).toStrictEqual(['diverged', 'pull'])
    expect(actions[0]).toStrictEqual({
      kind: 'diverged',
      seq: SHOWN,
      why: `the host's log ends at seq ${SHOWN - 1}, yet seqs up to ${SHOWN} were shown`,
    })
    expect(merge.tail).toBe(-1)
    const again = (actions[1] as { sync: number }).sync
    const refill = merge.page(again, range(0, SHOWN - 1), false)
    expect(emitted(refill)).toStrictEqual(range(0, SHOWN - 1).map((e) => e.seq))
    expect(merge.phase).toBe('live')
    expect(merge.slice(0, merge.tail)).toStrictEqual(range(0, SHOWN - 1).map((e) => e.line))
  })

  it('the same, from a tail page alone (it reaches back past the shown tail, and ends one short)', () => {
    const { merge, sync } = restarted()
    const actions = merge.page(sync, range(SHOWN - 4, SHOWN - 1), true)
    expect(actions.map((a) => a.kind)).toStrictEqual(['diverged', 'pull'])
    expect((actions[0] as { seq: number }).seq).toBe(SHOWN)
  })

  it('a history that ends exactly at what was shown: resume, nothing emitted, live frames go on from there', () => {
    const { merge, sync } = restarted()
    expect(merge.page(sync, range(0, SHOWN), false)).toStrictEqual([])
    expect(merge.phase).toBe('live')
    expect(merge.tail).toBe(SHOWN)
    expect(merge.frame(hostEvent(SHOWN))).toStrictEqual([])
    expect(emitted(merge.frame(hostEvent(SHOWN + 1)))).toStrictEqual([SHOWN + 1])
    expect(merge.divergences).toBe(0)
  })

  it('a history one past what was shown: resume, that one event emitted once', () => {
    const { merge, sync } = restarted()
    const actions = merge.page(sync, range(SHOWN - 3, SHOWN + 1), true)
    expect(actions).toStrictEqual([{ kind: 'emit', events: [hostEvent(SHOWN + 1)] }])
    expect(merge.phase).toBe('live')
    // The mux repeats it: not emitted again.
    expect(merge.frame(hostEvent(SHOWN + 1))).toStrictEqual([])
    expect(merge.divergences).toBe(0)
  })

  it('a tail page overlapping the shown tail by exactly one event is trusted; by none, one more page is read', () => {
    const one = restarted()
    const actions = one.merge.page(one.sync, range(SHOWN, SHOWN + 4), true)
    expect(emitted(actions)).toStrictEqual([9, 10, 11, 12])
    expect(actions.some((a) => a.kind === 'pull')).toBe(false)
    expect(one.merge.phase).toBe('live')

    const none = restarted()
    const more = none.merge.page(none.sync, range(SHOWN + 1, SHOWN + 4), true)
    expect(more).toStrictEqual([{ kind: 'pull', sync: none.sync, beforeSeq: SHOWN + 1 }])
    const joined = none.merge.page(none.sync, range(SHOWN - 2, SHOWN), true, SHOWN + 1)
    expect(emitted(joined)).toStrictEqual([9, 10, 11, 12])
  })

  it('the one overlapping event is compared: a host that repaired it resets the page', () => {
    const { merge, sync } = restarted()
    const repaired = range(SHOWN, SHOWN + 2, (seq) => (seq === SHOWN ? 'closer' : `e${seq}`))
    const actions = merge.page(sync, repaired, true)
    expect(actions[0]).toStrictEqual({ kind: 'diverged', seq: SHOWN, why: `the host's event at seq ${SHOWN} changed` })
  })

  it('frames buffered during the snapshot at the boundary: the shown tail dropped, the next one emitted once', () => {
    const { merge, sync } = restarted()
    merge.frame(hostEvent(SHOWN))
    merge.frame(hostEvent(SHOWN + 1))
    const actions = merge.page(sync, range(0, SHOWN), false)
    expect(actions).toStrictEqual([{ kind: 'emit', events: [hostEvent(SHOWN + 1)] }])
    expect(merge.phase).toBe('live')
  })
})

/** A host whose `session.history` answers from `log` (paged by `maxMessages` events, newest first). */
class FakeHost {
  log: HostEvent[] = range(0, SHOWN)
  readonly rpc = {
    call: async (_method: string, payload: { beforeSeq?: number; maxMessages: number }) => {
      const end = payload.beforeSeq === undefined ? this.log.length : payload.beforeSeq
      const start = Math.max(0, end - payload.maxMessages)
      const events = this.log.slice(start, end).map((e) => ({ event: JSON.parse(e.line) as unknown }))
      return { ok: true as const, value: { events, hasMore: start > 0 } }
    },
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0))
}

/** A page subscription's view of a HostSession: resets, and what its cursor hands out from seq 0 after the last one. */
async function follow(host: FakeHost, pageMessages: number) {
  const notes: string[] = []
  const deps: HostSessionDeps = {
    rpc: host.rpc as unknown as HostRpc,
    pageMessages,
    base: 'http://127.0.0.1:3080/',
    headerLine: async (id) => JSON.stringify({ type: 'session', version: 0, id, createdAt: 1, cwd: '/w', delegationDepth: 0 }),
    upstream: () => 'connected',
    running: () => false,
    title: () => null,
    note: (what) => notes.push(what),
    retryMs: () => 0,
  }
  const session = new HostSession('session-b', deps)
  const seen = { resets: 0 }
  session.addListener({ grew: () => {}, reset: () => seen.resets++, status: () => {} })
  session.connected()
  await settle()
  const read = async (): Promise<string[]> => {
    const batch = await session.openCursor(0).next(1_000, 1 << 20)
    return batch?.lines ?? []
  }
  return { session, seen, notes, read }
}

describe('the same boundaries through the HostSession a page follows', () => {
  for (const [name, log, resets] of [
    ['one short: reset, then the host log', range(0, SHOWN - 1), 1],
    ['exactly at it: resume', range(0, SHOWN), 0],
    ['one past it: resume with the next event', range(0, SHOWN + 1), 0],
  ] as const) {
    it(name, async () => {
      const host = new FakeHost()
      const followed = await follow(host, 4)
      expect(await followed.read()).toStrictEqual(range(0, SHOWN).map((e) => e.line))
      followed.session.disconnected()
      host.log = log
      followed.session.connected()
      await settle()
      expect(followed.seen.resets).toBe(resets)
      // Every seq the host holds, once, in order: what a page that (re)reads from seq 0 gets.
      expect(await followed.read()).toStrictEqual(log.map((e) => e.line))
      expect(followed.session.headSeq).toBe(log.length - 1)
    })
  }

  it('a tail page that overlaps the shown tail by one event is enough (five events, seqs 8..12)', async () => {
    const host = new FakeHost()
    const followed = await follow(host, 5)
    followed.session.disconnected()
    host.log = range(0, SHOWN + 4)
    const pullsBefore = followed.session.pulls
    followed.session.connected()
    await settle()
    // One page, seqs 8..12: it holds the shown tail, so no second page.
    expect(followed.session.pulls - pullsBefore).toBe(1)
    expect(followed.seen.resets).toBe(0)
    expect(await followed.read()).toStrictEqual(host.log.map((e) => e.line))
  })
})
