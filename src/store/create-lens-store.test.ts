/** The store over an in-thread worker host: loads, live feeds, cursor following and coalesced cursor queries. */

import { describe, expect, it } from 'vitest'
import { createInThreadClient } from '../worker/in-thread-client.ts'
import { createLensStore, type LensState, type LensStore } from './create-lens-store.ts'

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}\n'
const user = (seq: number) =>
  `${JSON.stringify({ type: 'user/message', seq, time: seq, data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `hi ${seq}` }], source: { kind: 'user' } }, surfaceOp: 'append' })}\n`

function until(store: LensStore, predicate: (s: LensState) => boolean, timeoutMs = 5000): Promise<LensState> {
  return new Promise((resolve, reject) => {
    if (predicate(store.getState())) return resolve(store.getState())
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`timed out; state: ${store.getState().loadState} cursor ${store.getState().cursor}`))
    }, timeoutMs)
    const unsubscribe = store.subscribe((s) => {
      if (!predicate(s)) return
      clearTimeout(timer)
      unsubscribe()
      resolve(s)
    })
  })
}

describe('createLensStore', () => {
  it('loads a File and opens on the last event', async () => {
    const store = createLensStore({ lens: createInThreadClient() })
    store.getState().loadFile(new File([HEADER + user(0) + user(1) + user(2)], 'three.jsonl'))
    expect(store.getState().loadState).toBe('loading')
    const s = await until(store, (s) => s.loadState === 'ready' && s.snapshot !== null)
    expect(s.summary?.length).toBe(3)
    expect(s.cursor).toBe(2)
    expect(Array.from(s.snapshot?.surfaceSeqs ?? [])).toStrictEqual([0, 1, 2])
    store.client.dispose()
  })

  it('takes the first window off the first summary: snapshot and rows without asking the worker', async () => {
    const client = createInThreadClient()
    const asked: string[] = []
    const query = client.query.bind(client)
    client.query = ((type, args) => {
      asked.push(type)
      return query(type, args)
    }) as typeof client.query
    const store = createLensStore({ lens: client })
    // Right after the store handled the first summary (its listener runs before this one), the cursor's snapshot
    // is there too: no query was answered in between.
    let snapshotWithSummary: boolean | null = null
    const unsubscribe = client.subscribe((event) => {
      if (event.type !== 'summary' || snapshotWithSummary !== null) return
      const s = store.getState()
      snapshotWithSummary = s.snapshot !== null && s.snapshot.index === s.cursor && s.cursor === event.summary.length - 1
    })
    store.getState().loadFile(new File([HEADER + user(0) + user(1) + user(2)], 'three.jsonl'))
    await until(store, (s) => s.loadState === 'ready' && s.snapshot !== null)
    unsubscribe()
    expect(snapshotWithSummary).toBe(true)
    // The panes' first rows are cached: asking for them sends nothing to the worker. (The last row of a prefix is
    // dropped when the next summary comes, as a chunk run may have grown: the final summary did that to row 2.)
    store.getState().ensureTranscriptRows('messages', 0, 2)
    store.getState().ensureTranscriptRows('all', 0, 2)
    store.getState().ensureSummaries([0, 1, 2])
    expect(asked.filter((t) => t === 'transcript-rows' || t === 'summaries')).toStrictEqual([])
    expect(store.getState().cache.row('messages', 1)?.index).toBe(1)
    expect(store.getState().cache.summary(1)?.text).toContain('hi 1')
    store.client.dispose()
  })

  it('fetches again the last row a later summary dropped, even when the log did not grow past it', async () => {
    const store = createLensStore({ lens: createInThreadClient() })
    const feed = store.getState().startLiveFeed('live')
    feed.append(HEADER + user(0) + user(1))
    await until(store, (s) => s.summary?.length === 2 && s.snapshot?.index === 1)
    // The pane asks for its window (both rows), as the transcript does when it mounts.
    store.getState().ensureTranscriptRows('messages', 0, 2)
    await until(store, (s) => s.cache.hasRow('messages', 1))
    // A log-only event: no new message row, but the summary drops the last cached row (its run may have grown).
    feed.append(`${JSON.stringify({ type: 'turn/start', seq: 2, time: 2, data: { turn: 1 } })}\n`)
    const s = await until(store, (s) => s.summary?.length === 3 && s.cache.hasRow('messages', 1), 3000)
    expect(s.cache.row('messages', 1)?.index).toBe(1)
    store.client.dispose()
  })

  it('follows the end of a live feed while the cursor sits there, and stays put otherwise', async () => {
    const store = createLensStore({ lens: createInThreadClient() })
    const feed = store.getState().startLiveFeed('live')
    feed.append(HEADER + user(0))
    feed.append(user(1))
    let s = await until(store, (s) => s.summary?.length === 2 && s.snapshot?.index === 1)
    expect(s.loadState).toBe('ready')
    expect(s.live).toBe(true)
    feed.append(user(2))
    s = await until(store, (s) => s.snapshot?.index === 2)
    store.getState().setCursor(0)
    feed.append(user(3))
    s = await until(store, (s) => s.summary?.length === 4)
    expect(s.cursor).toBe(0)
    feed.end()
    s = await until(store, (s) => s.summary?.final === true)
    expect(s.live).toBe(false)
    store.client.dispose()
  })

  it('drops an open lifespan from the row cache when a live replace shadows it, and fetches it again', async () => {
    const store = createLensStore({ lens: createInThreadClient() })
    const feed = store.getState().startLiveFeed('live')
    feed.append(HEADER + user(0) + user(1) + user(2))
    await until(store, (s) => s.summary?.length === 3 && s.snapshot?.index === 2)
    store.getState().ensureTranscriptRows('messages', 0, 3)
    await until(store, (s) => s.cache.summary(0) !== undefined)
    expect(store.getState().cache.summary(0)?.surface?.shadowedAtIndex).toBeNull()
    const replace = {
      type: 'user/message',
      seq: 3,
      time: 3,
      data: { id: 'c', role: 'user', content: [{ type: 'text', text: 'summary' }], source: { kind: 'user' } },
      surfaceOp: { op: 'replace', start: 0, end: 1 },
      sourceEventSeqs: [0, 1],
    }
    feed.append(`${JSON.stringify(replace)}\n`)
    // The pane did not scroll: the store itself asks again for the window it last showed.
    const s = await until(store, (s) => s.cache.summary(0)?.surface?.shadowedAtIndex === 3)
    expect(s.cache.summary(1)?.surface?.shadowedAtIndex).toBe(3)
    expect(s.cache.summary(2)?.surface?.shadowedAtIndex).toBeNull()
    store.client.dispose()
  })

  it('publishes only the snapshot for the latest cursor of a burst', async () => {
    const store = createLensStore({ lens: createInThreadClient() })
    let text = HEADER
    for (let i = 0; i < 200; i++) text += user(i)
    store.getState().loadFile(new File([text], 'many.jsonl'))
    await until(store, (s) => s.loadState === 'ready' && s.snapshot?.index === 199)
    const published: number[] = []
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.snapshot !== prev.snapshot && s.snapshot !== null) published.push(s.snapshot.index)
    })
    for (let i = 0; i <= 100; i++) store.getState().setCursor(i)
    await until(store, (s) => s.snapshot?.index === 100)
    unsubscribe()
    expect(published.at(-1)).toBe(100)
    expect(published.length).toBeLessThan(10)
    store.client.dispose()
  })

  it('a second load replaces the first and clears selection and cache', async () => {
    const store = createLensStore({ lens: createInThreadClient() })
    store.getState().loadFile(new File([HEADER + user(0) + user(1)], 'a.jsonl'))
    await until(store, (s) => s.loadState === 'ready' && s.snapshot !== null)
    store.getState().select(1, 'transcript')
    await until(store, (s) => s.detail !== null)
    store.getState().loadFile(new File([HEADER + user(0)], 'b.jsonl'))
    expect(store.getState().selected).toBeNull()
    const s = await until(store, (s) => s.loadState === 'ready' && s.summary?.name === 'b.jsonl' && s.snapshot !== null)
    expect(s.summary?.length).toBe(1)
    expect(s.cursor).toBe(0)
    store.client.dispose()
  })

  it('cancelling a file load keeps what parsed and says so', async () => {
    const store = createLensStore({ lens: createInThreadClient() })
    let text = HEADER
    for (let i = 0; i < 60_000; i++) text += user(i)
    store.getState().loadFile(new File([text], 'big.jsonl'))
    store.getState().cancelLoad()
    const s = await until(store, (s) => s.summary?.final === true)
    expect(s.summary?.cancelled).toBe(true)
    expect(s.loadState).toBe('ready')
    expect(s.summary?.length).toBeLessThan(60_000)
    store.client.dispose()
  })
})
