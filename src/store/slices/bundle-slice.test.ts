/** The sessions bundle in the page's store: the lineage client it was made with scans, the first root opens, links jump. */

import { describe, expect, it } from 'vitest'
import { buildSessionTree, type SessionHeader } from '../../core/index.ts'
import type { BundleResult, BundleSource, LineageClient } from '../../protocol/lineage.ts'
import { createInThreadClient } from '../../worker/in-thread-client.ts'
import { createLensStore, type LensState, type LensStore } from '../create-lens-store.ts'

const header = (id: string, extra: Partial<SessionHeader> = {}): SessionHeader =>
  ({ type: 'session', version: 0, id, createdAt: 0, delegationDepth: 0, ...extra }) as SessionHeader
const user = (seq: number): string =>
  `${JSON.stringify({ type: 'user/message', seq, time: seq, data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `hi ${seq}` }], source: { kind: 'user' } }, surfaceOp: 'append' })}\n`
const log = (h: SessionHeader, events: number): File =>
  new File([JSON.stringify(h) + '\n' + Array.from({ length: events }, (_, i) => user(i)).join('')], `${h.id}.jsonl`)

function until(store: LensStore, predicate: (s: LensState) => boolean): Promise<LensState> {
  return new Promise((resolve, reject) => {
    if (predicate(store.getState())) return resolve(store.getState())
    const timer = setTimeout(() => reject(new Error('timed out')), 5000)
    const stop = store.subscribe((s) => {
      if (!predicate(s)) return
      clearTimeout(timer)
      stop()
      resolve(s)
    })
  })
}

/** A lineage client that answers from a fixed result after two progress steps, and records what it was asked. */
function fakeLineage(result: BundleResult | Error): LineageClient & { asked: BundleSource[][] } {
  const asked: BundleSource[][] = []
  return {
    asked,
    scan: async (sources, progress) => {
      asked.push([...sources])
      await Promise.resolve()
      progress(1, 2)
      progress(2, 2)
      if (result instanceof Error) throw result
      return result
    },
  }
}

function bundleOf(files: Array<{ key: string; file: File; header: SessionHeader; events: number }>): BundleResult {
  const tree = buildSessionTree(files.map((f) => ({ key: f.key, header: f.header, eventCount: f.events, facts: null })))
  return { sessions: files.map((f) => ({ ...f, eventCount: f.events })), tree, seeds: {}, skipped: [] }
}

describe('bundle slice', () => {
  it('scans through the injected lineage client, opens the first root, and jumps to a seq in a session', async () => {
    const parent = header('session-parent')
    const child = header('session-child', { parentSession: 'session-parent' } as Partial<SessionHeader>)
    const result = bundleOf([
      { key: 'p.jsonl', file: log(parent, 6), header: parent, events: 6 },
      { key: 'c.jsonl', file: log(child, 3), header: child, events: 3 },
    ])
    const lineage = fakeLineage(result)
    const store = createLensStore({ lens: createInThreadClient(), lineage })
    const sources = [{ path: 'p.jsonl', blob: new Blob([]) }]
    store.getState().openBundle(sources)
    expect(store.getState().bundle).toMatchObject({ scanning: { done: 0, total: 1 }, drawerOpen: true, error: null })
    const opened = await until(store, (s) => s.bundle.active !== null && s.loadState === 'ready')
    expect(lineage.asked).toStrictEqual([sources])
    expect(opened.bundle.scanning).toBeNull()
    expect(opened.bundle.active?.key).toBe('p.jsonl')
    expect(opened.sourceName).toBe('session-parent.jsonl')

    store.getState().openBundleSession('c.jsonl', 1)
    const jumped = await until(store, (s) => s.bundle.active?.key === 'c.jsonl' && s.selected === 1 && s.detail !== null)
    expect(jumped.cursor).toBe(1)
    expect(jumped.sourceName).toBe('session-child.jsonl')
    store.client.dispose()
  })

  it('says why when the scan fails, or when no file is a session log', async () => {
    const failing = createLensStore({ lens: createInThreadClient(), lineage: fakeLineage(new Error('zip is damaged')) })
    failing.getState().openBundle([])
    expect((await until(failing, (s) => s.bundle.error !== null)).bundle.error).toBe('zip is damaged')
    const empty = createLensStore({ lens: createInThreadClient(), lineage: fakeLineage(bundleOf([])) })
    empty.getState().openBundle([])
    expect((await until(empty, (s) => s.bundle.error !== null)).bundle.error).toBe('none of the files is a session log')
    const none = createLensStore({ lens: createInThreadClient() })
    none.getState().openBundle([])
    expect((await until(none, (s) => s.bundle.error !== null)).bundle.error).toBe('this page has no lineage worker')
    for (const s of [failing, empty, none]) s.client.dispose()
  })
})
