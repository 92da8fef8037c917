/**
 * The dsh web adapter against the real harness host (`../shared/real-dsh`, keyless, scripted model), end to end through
 * the companion server and the real TailClient: the catalog, a turn followed as it streams, and the faults a real host
 * produces on demand (the mux dropped mid-turn, the host stopped and restarted on its port, the host killed). Each case
 * ends with the one check that matters: the events a viewer holds equal, by seq and content, the log the harness wrote,
 * and our fold of them equals the harness's fold of that file.
 */

import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TailClient } from '../../live/tail-client.ts'
import type { SessionListItem } from '../../live/protocol.ts'
import { createRealHost, realDshAvailable, type RealHost } from '../../test-support/real-dsh-host.ts'
import { startTcpRelay, type TcpRelay } from '../../test-support/tcp-relay.ts'
import { harnessFoldOf, viewOf } from '../../test-support/log-view.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { Follower, waitFor, wsFactory } from '../../test-support/live-test-kit.ts'

const enabled = realDshAvailable()
const FAST_BACKOFF = { initialMs: 50, maxMs: 400 }

async function list(server: LensServer): Promise<readonly SessionListItem[]> {
  const client = new TailClient({ url: server.streamUrl, token: server.token, webSocket: wsFactory() })
  client.connect()
  try {
    return await client.list()
  } finally {
    client.close()
  }
}

/** The follower holds exactly the file's events, and our fold of them is the harness's fold of the file. */
async function expectHoldsFile(follower: Follower, host: RealHost, sessionId: string): Promise<void> {
  const read = async () => viewOf([new Uint8Array(await readFile(await host.logPath(sessionId)))])
  // The host says idle before its last write batch is on disk: a file read once may stop short of what the follower
  // already holds (it never equals it then), so the file is read again until both agree.
  let file = await read()
  try {
    await waitFor(
      "the follower at the file's last seq",
      async () => {
        if (follower.lastSeq === file.events.length - 1) return true
        file = await read()
        return follower.lastSeq === file.events.length - 1
      },
      30_000,
    )
  } catch (error) {
    throw new Error(`${(error as Error).message}: follower at ${follower.lastSeq}, file at ${file.events.length - 1}`)
  }
  const held = viewOf([follower.bytes()])
  expect(held.events.length).toBe(file.events.length)
  expect(held.events).toStrictEqual(file.events)
  const harness = harnessFoldOf(file)
  expect(harness.error).toBeNull()
  expect(held.nodes).toStrictEqual(harness.nodes)
  expect(held.replacements).toStrictEqual(harness.replacements)
  expect(follower.violations).toStrictEqual([])
}

/** Until the host says the session's turn is over (the catalog's running flag, from host/session-status). */
async function turnOver(server: LensServer, sessionId: string): Promise<void> {
  await waitFor(
    `${sessionId} idle`,
    () => server.dshWeb?.catalog.has(sessionId) === true && !server.dshWeb.catalog.running(sessionId),
    60_000,
  )
}

describe.skipIf(!enabled)('dsh web adapter against the real host', () => {
  let host: RealHost
  let server: LensServer
  const cleanup: Array<() => Promise<unknown>> = []

  beforeAll(async () => {
    host = await createRealHost()
    await host.start()
    await mkdir(join(host.home, 'sessions'), { recursive: true })
    server = await startLensServer({
      roots: [join(host.home, 'sessions')],
      dsh: { url: new URL(host.url), backoff: FAST_BACKOFF },
      ...(process.env['LENS_DEBUG'] === '1' ? { log: (line: string) => console.log(line) } : {}),
    })
    cleanup.push(
      () => server.close(),
      () => host.stop(),
    )
    await waitFor('the upstream connected', () => server.dshWeb?.state === 'connected')
  }, 600_000)

  afterAll(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined)
  })

  it('lists the host sessions once each, with titles, running state and subagents under their parent', async () => {
    const sid = await host.prompt('new', 'SPAWN list me')
    await turnOver(server, sid)
    let items: readonly SessionListItem[] = []
    await waitFor('the session, its title and its child', async () => {
      items = await list(server)
      const row = items.find((i) => i.sessionId === sid)
      return row?.title === 'Mock: SPAWN list me' && items.some((i) => i.parentSession === sid)
    })
    const row = items.find((i) => i.sessionId === sid) as SessionListItem
    // The log is on disk below the served paths too: listed once, from the host, with its file beside it.
    expect(items.filter((i) => i.sessionId === sid)).toHaveLength(1)
    expect(row.source).toBe('dsh-web')
    expect(row.diskPath).toBe(await host.logPath(sid))
    expect(row.running).toBe(false)
    expect(row.upstream).toBe('connected')
    const child = items.find((i) => i.parentSession === sid) as SessionListItem
    expect(child.origin).toBe('subagent')
    expect(child.source).toBe('dsh-web')
    expect(row.children).toStrictEqual([child.sessionId])
    expect(child.label).toBe('sub check')
  })

  it('follows a turn as it streams: chunk by chunk, then equal to the file and to the harness fold', async () => {
    const sid = await host.prompt('new', 'NOTOOL warm up')
    await turnOver(server, sid)
    const follower = new Follower(server.streamUrl, server.token, { kind: 'dsh-web', sessionId: sid })
    cleanup.push(async () => follower.close())
    await waitFor('the follower live', () => follower.statuses.includes('live'))
    const before = follower.appends
    const base = follower.lastSeq
    await host.prompt(sid, 'LOOP1 follow me')
    await waitFor('running seen', () => follower.writerStatuses.some((s) => s.running === true))
    await turnOver(server, sid)
    await expectHoldsFile(follower, host, sid)
    // The live turn arrived as many small appends (the mock streams a chunk every 30 ms), not one catch-up batch.
    expect(follower.appends - before).toBeGreaterThan((follower.lastSeq - base) / 4)
    expect(follower.resets).toBe(0)
    // The live events are unpacked chunks; the file packs them into rows; the transcript and fold read both alike.
    const file = viewOf([new Uint8Array(await readFile(await host.logPath(sid)))])
    const live = viewOf(
      follower.lines.map((l, i) => new TextEncoder().encode((i === 0 ? `${follower.headerLine}\n` : '') + `${l}\n`)),
    )
    expect(live.rows).toStrictEqual(file.rows)
    expect(live.messageRows).toStrictEqual(file.messageRows)
  })

  it('the mux dropped mid-turn: resumes with no gap and no duplicate', async () => {
    const relay: TcpRelay = await startTcpRelay(host.port)
    const viaRelay = await startLensServer({
      roots: [join(host.home, 'sessions')],
      dsh: { url: new URL(`http://127.0.0.1:${relay.port}/`), backoff: FAST_BACKOFF },
    })
    cleanup.push(
      () => relay.close(),
      () => viaRelay.close(),
    )
    await waitFor('connected through the relay', () => viaRelay.dshWeb?.state === 'connected')
    const sid = await host.prompt('new', 'NOTOOL first')
    await turnOver(viaRelay, sid)
    const follower = new Follower(viaRelay.streamUrl, viaRelay.token, { kind: 'dsh-web', sessionId: sid })
    cleanup.push(async () => follower.close())
    await waitFor('the follower live', () => follower.statuses.includes('live'))
    const base = follower.lastSeq
    await host.prompt(sid, 'LOOP2 cut me')
    await waitFor('the turn streaming', () => follower.lastSeq > base + 15)
    expect(relay.cutAll()).toBeGreaterThanOrEqual(2)
    await waitFor('reconnected', () => (viaRelay.dshWeb?.stats().connects ?? 0) >= 2)
    await turnOver(viaRelay, sid)
    await expectHoldsFile(follower, host, sid)
    expect(follower.resets).toBe(0)
  })

  it('the host stopped and started again on its port mid-turn: resumes with no gap and no duplicate', async () => {
    const sid = await host.prompt('new', 'NOTOOL first')
    await turnOver(server, sid)
    const follower = new Follower(server.streamUrl, server.token, { kind: 'dsh-web', sessionId: sid })
    cleanup.push(async () => follower.close())
    await waitFor('the follower live', () => follower.statuses.includes('live'))
    const base = follower.lastSeq
    await host.prompt(sid, 'LOOP3 stop me')
    await waitFor('the turn streaming', () => follower.lastSeq > base + 15)
    await host.stop()
    await waitFor('the page told the host is gone', () => follower.writerStatuses.some((s) => s.upstream === 'gone'))
    await host.start()
    await waitFor('reconnected', () => follower.writerStatuses[follower.writerStatuses.length - 1]?.upstream === 'connected')
    // A restarted host does not resume the turn: the next prompt attaches the session again.
    await host.prompt(sid, 'NOTOOL after the restart')
    await waitFor('running again', () => server.dshWeb?.catalog.running(sid) === true)
    await turnOver(server, sid)
    await expectHoldsFile(follower, host, sid)
    expect(follower.resets).toBe(0)
  })

  it('the host killed mid-turn: open read-only while gone, then the repaired log, equal to the file', async () => {
    const sid = await host.prompt('new', 'NOTOOL first')
    await turnOver(server, sid)
    const follower = new Follower(server.streamUrl, server.token, { kind: 'dsh-web', sessionId: sid })
    cleanup.push(async () => follower.close())
    await waitFor('the follower live', () => follower.statuses.includes('live'))
    const base = follower.lastSeq
    await host.prompt(sid, 'LOOP3 kill me')
    await waitFor('the turn streaming', () => follower.lastSeq > base + 15)
    await host.kill()
    await waitFor('the page told the host is gone', () => follower.writerStatuses.some((s) => s.upstream === 'gone'))
    // Read-only while gone: what was shown stays.
    const shown = follower.lastSeq
    expect(shown).toBeGreaterThan(base + 15)
    await host.start()
    await host.prompt(sid, 'NOTOOL after the crash')
    await waitFor('running again', () => server.dshWeb?.catalog.running(sid) === true)
    await turnOver(server, sid)
    await expectHoldsFile(follower, host, sid)
    // Events the host had streamed but not written are gone from its log: the viewer starts over once, with the reason.
    expect(follower.resets).toBeLessThanOrEqual(1)
    if (follower.resets === 1) expect(follower.resetReasons).toStrictEqual(['upstream-restart'])
  })

  it('a session the host does not know is refused with a reason', async () => {
    const follower = new Follower(server.streamUrl, server.token, { kind: 'dsh-web', sessionId: 'session-nope' })
    cleanup.push(async () => follower.close())
    await waitFor('the refusal', () => follower.streamErrors.length > 0)
    expect(follower.streamErrors[0]?.code).toBe('upstream-unavailable')
  })
})
