/**
 * The error paths a real dsh web host will not produce on demand, replayed from frames recorded from the real host
 * (recorded/notool-turn.json, trimmed) through a stand-in that speaks its wire: malformed frames, a binary frame, an
 * unknown method, frames for another session, a seq gap, a stream/error, a host that does not know the session, and a
 * slow page. Whatever the noise, a page holds exactly the recorded events, each once, in order.
 */

import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionListItem } from '../../live/protocol.ts'
import { TailClient } from '../../live/tail-client.ts'
import { startStandInHost, type StandInHost } from '../../test-support/stand-in-dsh-host.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { Follower, waitFor, wsFactory } from '../../test-support/live-test-kit.ts'

interface Recorded {
  sessionId: string
  sessionList: { items: Array<Record<string, unknown>> }
  history: { events: Array<{ event: { seq: number; type: string } }>; hasMore: boolean }
  mux: string[]
  host: string[]
}

const recorded = JSON.parse(await readFile(new URL('./recorded/notool-turn.json', import.meta.url), 'utf8')) as Recorded
const SID = recorded.sessionId
const entries = recorded.history.events
const lines = entries.map((e) => JSON.stringify(e.event))
const last = entries.length - 1
/** The recorded mux frames for one seq. */
const frameOf = (seq: number): string =>
  recorded.mux.find((f) => {
    const p = (JSON.parse(f) as { payload: { type: string; event?: { seq: number } } }).payload
    return p.type === 'session/event' && p.event?.seq === seq
  }) as string
const envelope = (method: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ type: 'server-request', rpcId: 'x', method, payload: { type: method, ...payload } })

let host: StandInHost
let server: LensServer
let followers: Follower[]
/** How far the history answers reach (the host's log "so far"). */
let historyTo: number

beforeEach(async () => {
  host = await startStandInHost()
  historyTo = 9
  host.answer('session.list', () => ({ value: recorded.sessionList }))
  host.answer('subagent.list', () => ({ value: { entries: [], parentAvailable: true } }))
  host.answer('session.history', (p) => {
    if (p['sessionId'] !== SID) return { error: 'session-not-found' }
    return { value: { events: entries.filter((e) => e.event.seq <= historyTo), hasMore: false } }
  })
  const root = await mkdtemp(join(tmpdir(), 'lens-standin-'))
  server = await startLensServer({ roots: [root], dsh: { url: new URL(host.url), backoff: { initialMs: 20, maxMs: 100 } } })
  followers = []
  await waitFor('connected', () => server.dshWeb?.state === 'connected' && host.sockets.mux.length === 1)
})

afterEach(async () => {
  for (const f of followers) f.close()
  await server.close()
  await host.close()
})

function follow(window?: number): Follower {
  const f = new Follower(server.streamUrl, server.token, { kind: 'dsh-web', sessionId: SID }, window)
  followers.push(f)
  return f
}

describe('dsh web adapter: recorded frames and the noise a host may send', () => {
  it('malformed, binary, unknown and foreign frames never reach the page, and nothing is doubled or lost', async () => {
    const f = follow()
    await waitFor('the snapshot', () => f.lastSeq === 9)
    const noise = [
      'not json {',
      JSON.stringify({ type: 'server-response', rpcId: 'x', result: { ok: true } }),
      envelope('session/frobnicate', { sessionId: SID }),
      JSON.stringify({ type: 'server-request', rpcId: 'x', method: 'session/event', payload: { type: 'session/other' } }),
      envelope('session/event', { sessionId: SID, event: { type: 'assistant/chunk', time: 1 } }),
      envelope('session/event', {
        sessionId: 'session-someone-else',
        event: { type: 'user/message', seq: 10, time: 1, data: {} },
      }),
    ]
    host.push('mux', noise[0] as string)
    host.push('mux', Buffer.from([1, 2, 3]))
    for (let seq = 10; seq <= last; seq++) {
      host.push('mux', noise[seq % noise.length] as string)
      host.push('mux', frameOf(seq))
    }
    historyTo = last
    await waitFor('every event', () => f.lastSeq === last)
    expect(f.lines).toStrictEqual(lines)
    expect(f.violations).toStrictEqual([])
    expect(f.resets).toBe(0)
    const stats = server.dshWeb?.stats()
    // not JSON, a response on a downlink, method != payload.type, an event without a seq, and the binary frame.
    expect(stats?.malformed).toBeGreaterThanOrEqual(5)
    expect(stats?.foreign).toBeGreaterThanOrEqual(1)
    expect(stats?.ignored).toBeGreaterThanOrEqual(1)
    // Downlink sockets are never written to (the host would close them with 1008), and only read methods are called.
    expect(host.clientMessages).toBe(0)
    expect(new Set(host.calls.map((c) => c.method))).toStrictEqual(new Set(['session.list', 'session.history']))
  })

  it('a seq gap on the mux re-pulls the tail page', async () => {
    const f = follow()
    await waitFor('the snapshot', () => f.lastSeq === 9)
    const pullsBefore = host.calls.filter((c) => c.method === 'session.history').length
    host.push('mux', frameOf(10))
    host.push('mux', frameOf(11))
    historyTo = 14
    host.push('mux', frameOf(14))
    await waitFor('the gap filled from history', () => f.lastSeq === 14)
    expect(host.calls.filter((c) => c.method === 'session.history').length).toBeGreaterThan(pullsBefore)
    for (let seq = 15; seq <= last; seq++) host.push('mux', frameOf(seq))
    await waitFor('every event', () => f.lastSeq === last)
    expect(f.lines).toStrictEqual(lines)
    expect(f.violations).toStrictEqual([])
  })

  it('a stream/error drops both sockets; the link is rebuilt and the page carries on from its seq', async () => {
    const f = follow()
    await waitFor('the snapshot', () => f.lastSeq === 9)
    for (let seq = 10; seq <= 12; seq++) host.push('mux', frameOf(seq))
    await waitFor('live frames', () => f.lastSeq === 12)
    historyTo = 20
    host.push('mux', envelope('stream/error', { error: { code: 'internal', message: 'boom' } }))
    await waitFor('reconnected', () => (server.dshWeb?.stats().connects ?? 0) >= 2 && host.sockets.mux.length === 1)
    await waitFor('the re-pulled tail', () => f.lastSeq === 20)
    for (let seq = 21; seq <= last; seq++) host.push('mux', frameOf(seq))
    await waitFor('every event', () => f.lastSeq === last)
    expect(f.lines).toStrictEqual(lines)
    expect(f.violations).toStrictEqual([])
    expect(f.resets).toBe(0)
  })

  it('another host on the port (it does not know the session): shown read-only as missing, resumed when it is back', async () => {
    const f = follow()
    await waitFor('the snapshot', () => f.lastSeq === 9)
    let known = false
    host.answer('session.history', (p) => {
      if (p['sessionId'] !== SID || !known) return { error: 'session-not-found' }
      return { value: { events: entries.filter((e) => e.event.seq <= historyTo), hasMore: false } }
    })
    host.push('mux', envelope('stream/error', { error: { code: 'internal', message: 'restarting' } }))
    await waitFor('told it is missing', () => f.writerStatuses.some((s) => s.writer === 'missing' && s.upstream === 'connected'))
    expect(f.lastSeq).toBe(9)
    known = true
    historyTo = last
    host.push('host', envelope('host/session-added', { sessionId: SID, blank: false, cwd: '/w' }))
    await waitFor('every event', () => f.lastSeq === last)
    expect(f.lines).toStrictEqual(lines)
    expect(f.writerStatuses.at(-1)?.writer).toBe('active')
    expect(f.resets).toBe(0)
  })

  it('a slow page (one event of credit) still gets every event once', async () => {
    const slow = follow(1)
    historyTo = last
    await waitFor('every event', () => slow.lastSeq === last)
    expect(slow.lines).toStrictEqual(lines)
    expect(slow.appends).toBe(entries.length)
  })

  it('host frames: a new session is listed at once and watchers are told; running and title follow the host', async () => {
    const client = new TailClient({ url: server.streamUrl, token: server.token, webSocket: wsFactory() })
    // What a watching page holds: the whole list, then the changes by path.
    const watched = new Map<string, SessionListItem>()
    client.watchSessions({
      onList: (items) => {
        watched.clear()
        for (const i of items) watched.set(i.path, i)
      },
      onChange: (items, removed) => {
        for (const path of removed) watched.delete(path)
        for (const i of items) watched.set(i.path, i)
      },
    })
    client.connect()
    try {
      await waitFor('the first list', () => watched.size === 1)
      expect([...watched.values()].map((i) => i.sessionId)).toStrictEqual([SID])
      host.push('host', envelope('host/session-added', { sessionId: 'session-new', blank: true, cwd: '/w' }))
      host.push(
        'host',
        envelope('host/session-added', {
          sessionId: 'child-1',
          blank: true,
          parentSessionId: 'session-new',
          origin: 'subagent',
          cwd: '/w',
        }),
      )
      host.push('host', envelope('host/session-status', { sessionId: 'session-new', running: true }))
      host.push('mux', envelope('session/projection', { sessionId: 'session-new', key: 'title', value: 'Fresh', seq: 4 }))
      host.push('mux', envelope('session/projection', { sessionId: 'session-new', key: 'title', value: 'Stale', seq: 2 }))
      // Told at once, from the host's frames alone (no session.list; the two sockets race each other).
      const fresh = (): SessionListItem | undefined => watched.get('dsh-web:session-new')
      await waitFor('the frames applied', () => fresh()?.title === 'Fresh' && fresh()?.running === true)
      expect(fresh()).toMatchObject({ source: 'dsh-web', kind: 'root', running: true, title: 'Fresh', children: ['child-1'] })
      expect(watched.get('dsh-web:child-1')).toMatchObject({ kind: 'subagent', parentSession: 'session-new' })
      // The next list asks the host again; a list without a title keeps the newer projection's.
      const rows = recorded.sessionList.items
      host.answer('session.list', () => ({
        value: {
          items: [
            ...rows,
            { sessionId: 'session-new', updatedAt: 2, running: true, blank: false, cwd: '/w' },
            {
              sessionId: 'child-1',
              updatedAt: 1,
              running: false,
              blank: false,
              cwd: '/w',
              parentSessionId: 'session-new',
              origin: 'subagent',
            },
          ],
        },
      }))
      const items = await client.list()
      const listed = items.find((i) => i.sessionId === 'session-new')
      expect(listed).toMatchObject({ source: 'dsh-web', running: true, title: 'Fresh', cwd: '/w', children: ['child-1'] })
      expect(items.find((i) => i.sessionId === 'child-1')).toMatchObject({ parentSession: 'session-new', origin: 'subagent' })
    } finally {
      client.close()
    }
  })

  it('a session the host does not list is refused with upstream-unavailable', async () => {
    host.answer('session.list', () => ({ value: { items: [] } }))
    const f = new Follower(server.streamUrl, server.token, { kind: 'dsh-web', sessionId: 'session-later' })
    followers.push(f)
    await waitFor('refused', () => f.streamErrors.length > 0)
    expect(f.streamErrors[0]).toMatchObject({ code: 'upstream-unavailable' })
  })
})
