/**
 * The home's content search on the server: the first watch builds the index in the background and says how far it
 * is until it is ready; a search answers with hits (seq, surface, snippet) or one sentence; a session added later is
 * found by the next search after the refresh it starts.
 */

import { afterEach, beforeEach, expect, it } from 'vitest'
import type { IndexProgressView } from '../../live/protocol.ts'
import { ContentHome } from '../../test-support/content-home.ts'
import { PLANTED_AT, plantedEvents, writeSession } from '../../test-support/planted-home.ts'
import { ContentSearchRoom } from './content-search-room.ts'

let home: ContentHome
let room: ContentSearchRoom

beforeEach(() => {
  home = new ContentHome()
})

afterEach(async () => {
  await room.close()
  home.remove()
})

it('builds on the first watch, says its progress, and answers a search with each hit’s seq and surface', async () => {
  home.twoSessions()
  room = new ContentSearchRoom({ roots: [home.root], cacheDir: home.cacheDir, note: () => undefined })
  const seen: IndexProgressView[] = []
  room.watch((index) => seen.push(index))
  expect(seen[0]).toStrictEqual({ state: 'idle', done: 0, total: 0, sessions: 0, events: 0 })
  await expect.poll(() => seen.at(-1)?.state, { timeout: 30_000 }).toBe('ready')
  expect(seen.at(-1)).toMatchObject({ done: 2, total: 2, sessions: 2 })
  const answer = await room.search('PLANTFAIL', 20)
  expect(answer.ok).toBe(true)
  expect(answer.sessions.map((s) => s.id).sort()).toStrictEqual(['session-alpha', 'session-beta'])
  // Few matches: every one ranked, the strongest session first (docs/find.md says when it is newest first instead).
  expect(answer.order).toBe('strength')
  expect(answer.sessions[0]?.hits).toStrictEqual([
    {
      seq: PLANTED_AT.failedResult,
      turn: 1,
      step: 1,
      type: 'tool/result',
      tool: 'bash',
      surface: 'shadowed',
      shadowedBy: PLANTED_AT.summary,
      snippet: 'grep: PLANTFAIL no such file',
      highlight: [6, 15],
    },
  ])
  expect(await room.search('  ', 20)).toMatchObject({ ok: false, message: expect.stringMatching(/^the query is empty/) })
})

it('finds a session written after the build once a search has refreshed the index', async () => {
  home.twoSessions()
  room = new ContentSearchRoom({ roots: [home.root], cacheDir: home.cacheDir, note: () => undefined })
  expect((await room.search('PLANTUSER', 20)).index.state).not.toBe('unavailable')
  writeSession(home.root, { id: 'session-gamma', project: '/work/gamma', events: plantedEvents('gamma') })
  await expect
    .poll(async () => (await room.search('PLANTUSER', 20)).sessions.map((s) => s.id).sort(), { timeout: 30_000, interval: 500 })
    .toStrictEqual(['session-alpha', 'session-beta', 'session-gamma'])
})
