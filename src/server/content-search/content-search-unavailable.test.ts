/**
 * A server that cannot search session text still answers the home, as a state: started without a cache directory
 * (the bench's sessions-home server, a test), `watch-index` gets `index-progress` state `unavailable` and
 * `content-search` an `ok:false` answer, both with one sentence why, never an `error` (which the page would show as a
 * connection error); an index that cannot be placed (its cache directory under the dsh home) says so the same way.
 */

import { afterEach, expect, it } from 'vitest'
import { TailClient } from '../../live/tail-client.ts'
import type { IndexProgressView } from '../../live/protocol.ts'
import { ContentHome } from '../../test-support/content-home.ts'
import { wsFactory } from '../../test-support/live-test-kit.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { ContentSearchRoom, NO_CONTENT_INDEX } from './content-search-room.ts'

let home: ContentHome
let server: LensServer | undefined
let client: TailClient | undefined
let room: ContentSearchRoom | undefined

afterEach(async () => {
  client?.close()
  await server?.close()
  await room?.close()
  home.remove()
  client = server = room = undefined
})

const unavailable = (message: string): IndexProgressView => ({
  state: 'unavailable',
  done: 0,
  total: 0,
  sessions: 0,
  events: 0,
  message,
})

it('a server without a content index answers watch-index and content-search with why, never an error', async () => {
  home = new ContentHome()
  home.twoSessions()
  server = await startLensServer({ roots: [home.root] })
  const errors: unknown[] = []
  const statuses: string[] = []
  client = new TailClient({
    url: server.streamUrl,
    token: server.token,
    webSocket: wsFactory(),
    onError: (error) => errors.push(error),
    onStatus: (status) => statuses.push(status),
  })
  client.connect()
  const progress: IndexProgressView[] = []
  client.watchIndex((index) => progress.push(index))
  await expect.poll(() => progress.length, { timeout: 10_000 }).toBe(1)
  expect(progress).toStrictEqual([unavailable(NO_CONTENT_INDEX)])

  expect(await client.searchContent('PLANTUSER')).toStrictEqual({
    type: 'content-hits',
    req: expect.any(String) as string,
    query: 'PLANTUSER',
    ok: false,
    message: NO_CONTENT_INDEX,
    sessions: [],
    index: unavailable(NO_CONTENT_INDEX),
  })
  expect(errors).toStrictEqual([])
  expect(statuses).toStrictEqual(['connecting', 'connected'])
})

it('an index that cannot open (its cache directory under the dsh home) is unavailable with the index’s sentence', async () => {
  home = new ContentHome()
  home.twoSessions()
  room = new ContentSearchRoom({ roots: [home.root], cacheDir: `${home.root}/../lens-cache`, note: () => undefined })
  const seen: IndexProgressView[] = []
  room.watch((index) => seen.push(index))
  await expect.poll(() => seen.at(-1)?.state, { timeout: 10_000 }).toBe('unavailable')
  expect(seen.at(-1)?.message).toMatch(/^the content index would be written under the dsh home \(.*\): set XDG_CACHE_HOME/)
  const answer = await room.search('PLANTUSER', 20)
  expect([answer.ok, answer.message, answer.index.state]).toStrictEqual([false, seen.at(-1)?.message, 'unavailable'])
})
