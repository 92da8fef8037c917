/**
 * The list a watching page keeps with a dsh web host attached: files and host as one list, told by path what changed
 * on either side. A session the host starts that is also on disk replaces its file row in the same update; a host
 * change that does not change the merged list tells nothing; the host's session leaving brings the file row back.
 */

import { describe, expect, it } from 'vitest'
import type { SessionListItem } from '../../live/protocol.ts'
import type { CatalogUpdate } from '../catalog/catalog-watchers.ts'
import type { SessionCatalog } from '../catalog/session-catalog.ts'
import type { DshWebUpstream } from './dsh-web-upstream.ts'
import { MergedSessions } from './merged-sessions.ts'

const fileRow = (id: string): SessionListItem => ({
  sessionId: id,
  path: `/home/.dsh/sessions/--w--/${id}/session.jsonl.zstd`,
  encoding: 'zstd',
  cwd: '/w',
  createdAt: 5,
  children: [],
  sizeBytes: 100,
  mtimeMs: 10,
  turnOpen: false,
  lastSeq: 3,
  source: 'file',
})
const hostRow = (id: string, extra: Partial<SessionListItem> = {}): SessionListItem => ({
  sessionId: id,
  path: `dsh-web:${id}`,
  source: 'dsh-web',
  encoding: 'dsh-web',
  cwd: '/w',
  children: [],
  sizeBytes: 0,
  mtimeMs: 20,
  turnOpen: false,
  lastSeq: null,
  running: false,
  blank: true,
  upstream: 'connected',
  ...extra,
})

/** Both sides as plain lists the test changes, each telling its listeners as the real ones do. */
function sides() {
  let files: SessionListItem[] = []
  let host: SessionListItem[] = []
  const fileListeners = new Set<(u: CatalogUpdate) => void>()
  const hostListeners = new Set<() => void>()
  const catalog = {
    items: () => files,
    progress: () => ({ scanned: files.length, total: files.length }),
    rootsInfo: () => [{ path: '/home/.dsh/sessions', exists: true }],
    watch: (l: (u: CatalogUpdate) => void) => {
      fileListeners.add(l)
      return () => fileListeners.delete(l)
    },
  }
  const upstream = {
    currentItems: () => host,
    onChange: (l: () => void) => {
      hostListeners.add(l)
      return () => hostListeners.delete(l)
    },
  }
  return {
    merged: new MergedSessions(catalog as unknown as SessionCatalog, upstream as unknown as DshWebUpstream),
    setFiles(next: SessionListItem[]) {
      files = next
      const update = { items: next, removed: [], scan: catalog.progress(), roots: catalog.rootsInfo() }
      for (const l of fileListeners) l(update)
    },
    setHost(next: SessionListItem[]) {
      host = next
      for (const l of hostListeners) l()
    },
    listeners: () => fileListeners.size + hostListeners.size,
  }
}

describe('MergedSessions: files and the dsh web host as one watched list', () => {
  it('a host session that is also on disk replaces its file row in one update; no-op changes tell nothing', () => {
    const s = sides()
    s.setFiles([fileRow('a'), fileRow('b')])
    const updates: CatalogUpdate[] = []
    const watch = s.merged.watch((u) => updates.push(u))
    expect(watch.snapshot().map((i) => [i.path, i.source])).toStrictEqual([
      ['/home/.dsh/sessions/--w--/a/session.jsonl.zstd', 'file'],
      ['/home/.dsh/sessions/--w--/b/session.jsonl.zstd', 'file'],
    ])

    // The host starts `b` (on disk too) and a new session `c`.
    s.setHost([hostRow('b', { running: true }), hostRow('c')])
    expect(updates).toHaveLength(1)
    const first = updates[0] as CatalogUpdate
    expect(first.items.map((i) => [i.path, i.source, i.running, i.diskPath])).toStrictEqual([
      ['dsh-web:b', 'dsh-web', true, '/home/.dsh/sessions/--w--/b/session.jsonl.zstd'],
      ['dsh-web:c', 'dsh-web', false, undefined],
    ])
    expect(first.removed).toStrictEqual(['/home/.dsh/sessions/--w--/b/session.jsonl.zstd'])
    expect(first.scan).toStrictEqual({ scanned: 2, total: 2 })

    // The same lists again (a debounced host tick, a file poll with nothing new): nothing to tell.
    s.setHost([hostRow('b', { running: true }), hostRow('c')])
    s.setFiles([fileRow('a'), fileRow('b')])
    expect(updates).toHaveLength(1)

    // `b` stops running: only its row.
    s.setHost([hostRow('b'), hostRow('c')])
    expect(updates[1]?.items.map((i) => [i.path, i.running])).toStrictEqual([['dsh-web:b', false]])
    expect(updates[1]?.removed).toStrictEqual([])

    // The host no longer lists `b` (and the link is gone for `c`): the file row is back, `b`'s host row removed.
    s.setHost([hostRow('c', { upstream: 'gone' })])
    expect(updates[2]?.items.map((i) => [i.path, i.source, i.upstream])).toStrictEqual([
      ['dsh-web:c', 'dsh-web', 'gone'],
      ['/home/.dsh/sessions/--w--/b/session.jsonl.zstd', 'file', undefined],
    ])
    expect(updates[2]?.removed).toStrictEqual(['dsh-web:b'])

    watch.stop()
    expect(s.listeners()).toBe(0)
  })
})
