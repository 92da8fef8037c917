/**
 * The sessions catalog: rows from headers at once, digests (title, prompt, count, open turn) from a background scan
 * cached per file, live changes to watchers. On a dsh home written by the real harness (../shared/real-dsh: a root
 * with a subagent child in one project, a root in another), and on hand-written logs for what the harness does not do
 * on demand (a turn left open, a file replaced or rewritten, a log made by the `zstd` command, a home that is missing).
 */

import { randomBytes } from 'node:crypto'
import { appendFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { harnessMessages, loadContentChecksum, type ContentChecksum } from '../../core/index.ts'
import type { SessionListItem } from '../../live/protocol.ts'
import { readLog } from '../../cli/read-log.ts'
import { realDshAvailable, runHeadless } from '../../test-support/real-dsh.ts'
import { zstdFrame, zstdFrames } from '../../test-support/zstd-frames.ts'
import { scanDigest, type DigestState, type FileIdentity } from './digest-scan.ts'
import { headerText, waitFor } from '../../test-support/live-test-kit.ts'
import { PathGuard } from '../path-guard.ts'
import type { CatalogUpdate } from './catalog-watchers.ts'
import { SessionCatalog } from './session-catalog.ts'

const line = (event: Record<string, unknown>): string => JSON.stringify(event) + '\n'
const turnStart = (seq: number): string => line({ type: 'turn/start', seq, time: seq, data: { turn: 1 } })
const turnEnd = (seq: number): string =>
  line({ type: 'turn/end', seq, time: seq, data: { turn: 1, reason: { kind: 'completed' } } })
const title = (seq: number, text: string): string =>
  line({ type: 'session/title', seq, time: seq, data: { title: text, messageSeqs: [0], source: { kind: 'fallback' } } })
const prompt = (seq: number, text: string): string =>
  line({
    type: 'user/message',
    seq,
    time: seq,
    data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
    surfaceOp: 'append',
  })

let checksum: ContentChecksum
const dirs: string[] = []

beforeAll(async () => {
  checksum = await loadContentChecksum()
})
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lens-catalog-'))
  dirs.push(dir)
  return dir
}

async function writeSession(root: string, project: string, id: string, text: string | Uint8Array, zstd = false): Promise<string> {
  const dir = join(root, project, id)
  await mkdir(dir, { recursive: true })
  const path = join(dir, zstd ? 'session.jsonl.zstd' : 'session.jsonl')
  await writeFile(path, text)
  return path
}

async function catalogOf(
  roots: string[],
  options: ConstructorParameters<typeof SessionCatalog>[2] = {},
): Promise<SessionCatalog> {
  const guard = await PathGuard.create(roots, { allowMissing: true })
  return new SessionCatalog(guard, checksum, { pollMs: 40, flushMs: 10, ...options })
}

/** Watches the catalog and keeps its rows as a watcher would: the first list, then every update applied. */
function follow(catalog: SessionCatalog): { rows: Map<string, SessionListItem>; updates: CatalogUpdate[]; stop: () => void } {
  const rows = new Map<string, SessionListItem>()
  const updates: CatalogUpdate[] = []
  const stop = catalog.watch((update) => {
    updates.push(update)
    for (const item of update.items) rows.set(item.path, item)
    for (const path of update.removed) rows.delete(path)
  })
  return { rows, updates, stop }
}

async function identity(path: string): Promise<FileIdentity> {
  const st = await stat(path)
  return { dev: st.dev, ino: st.ino, birthtimeMs: st.birthtimeMs, size: st.size, mtimeMs: st.mtimeMs }
}

describe.runIf(realDshAvailable())('a dsh home written by the real harness', () => {
  let home: string
  let parentLog: string
  let otherLog: string

  beforeAll(async () => {
    home = await temp()
    const work = await temp()
    parentLog = await runHeadless('Fix the parser bug SPAWN', { home, workdir: join(work, 'alpha') })
    otherLog = await runHeadless('Write the release notes NOTOOL', { home, workdir: join(work, 'beta') })
  }, 600_000)

  it('lists every session from its header first, then fills in titles, counts and kinds from the scan', async () => {
    const catalog = await catalogOf([join(home, 'sessions')])
    await catalog.refresh()
    const first = catalog.items()
    expect(first).toHaveLength(3)
    // Headers alone: ids, projects, kinds and the parent link, no digest yet.
    expect(first.every((item) => item.scanned === false && item.title === undefined)).toBe(true)
    const byKind = (kind: string): SessionListItem[] => first.filter((item) => item.kind === kind)
    expect(byKind('root')).toHaveLength(2)
    const [child] = byKind('subagent')
    const parent = first.find((item) => item.path === parentLog) as SessionListItem
    expect(child?.parentSession).toBe(parent.sessionId)
    expect(parent.children).toStrictEqual([child?.sessionId])
    expect(parent.cwd).toMatch(/\/alpha$/)
    expect(first.find((item) => item.path === otherLog)?.cwd).toMatch(/\/beta$/)

    const watcher = follow(catalog)
    await waitFor('the scan', () => catalog.progress().scanned === 3)
    await waitFor('the last update', () => [...watcher.rows.values()].filter((r) => r.scanned).length === 3)
    watcher.stop()
    const rows = catalog.items()
    const row = (path: string): SessionListItem => rows.find((item) => item.path === path) as SessionListItem
    // The mock's title provider answers after the harness's fallback title: the latest one wins.
    expect(row(parentLog)).toMatchObject({ title: 'Mock: Fix the parser bug', prompt: 'Fix the parser bug SPAWN' })
    expect(row(otherLog)).toMatchObject({ title: 'Mock: Write the release notes', turnOpen: false, running: false })
    expect(rows.find((item) => item.kind === 'subagent')?.title).toBe('SUBTASK: run echo and report')
    for (const item of rows) {
      const log = await readLog(item.path)
      expect(item.eventCount, item.path).toBe(log.length)
      expect(item.lastSeq).toBe(log.length - 1)
    }
    catalog.close()
  })
})

describe('the catalog', () => {
  it('says a session is running while its last turn is open and its log changed within the minute', async () => {
    const root = await temp()
    let now = Date.now()
    const path = await writeSession(root, '--p--', 's1', headerText('s1') + '\n' + prompt(0, 'go') + turnStart(1))
    const catalog = await catalogOf([root], { now: () => now })
    const watcher = follow(catalog)
    await catalog.refresh()
    await waitFor('the scan', () => catalog.progress().scanned === 1)
    expect(catalog.items()[0]).toMatchObject({ turnOpen: true, running: true, eventCount: 2, prompt: 'go' })
    // No write for a minute: no longer running, and watchers hear it without any change on disk.
    now += 61_000
    await waitFor('running to flip', () => watcher.rows.get(path)?.running === false)
    // The turn ends: not running either way.
    now = Date.now()
    await appendFile(path, turnEnd(2))
    await waitFor('the turn end', () => watcher.rows.get(path)?.turnOpen === false)
    expect(watcher.rows.get(path)).toMatchObject({ running: false, eventCount: 3 })
    watcher.stop()
    catalog.close()
  })

  it('shows new sessions, grown logs and new titles to watchers, and drops deleted ones', async () => {
    const root = await temp()
    await writeSession(root, '--p--', 'old', headerText('old') + '\n' + prompt(0, 'first'))
    const catalog = await catalogOf([root])
    const watcher = follow(catalog)
    await catalog.refresh()
    await waitFor('the first row', () => watcher.rows.size === 1 || catalog.items().length === 1)
    const added = await writeSession(root, '--q--', 'new', headerText('new', { cwd: '/home/u/q' }) + '\n' + prompt(0, 'hello'))
    await waitFor('the new session', () => watcher.rows.get(added)?.prompt === 'hello')
    await appendFile(added, title(1, 'A title at last'))
    await waitFor('the title', () => watcher.rows.get(added)?.title === 'A title at last')
    expect(watcher.rows.get(added)?.eventCount).toBe(2)
    await rm(join(root, '--q--'), { recursive: true })
    await waitFor('the removal', () => watcher.updates.some((u) => u.removed.includes(added)))
    expect(catalog.items().map((i) => i.sessionId)).toStrictEqual(['old'])
    watcher.stop()
    catalog.close()
  })

  it('lists a missing home as empty, says it is missing, and finds sessions once it exists', async () => {
    const base = await temp()
    const home = join(base, 'no-such-home', 'sessions')
    const catalog = await catalogOf([home])
    const watcher = follow(catalog)
    await catalog.refresh()
    expect(catalog.items()).toStrictEqual([])
    expect(catalog.rootsInfo()).toStrictEqual([{ path: home, exists: false }])
    const path = await writeSession(home, '--p--', 'late', headerText('late') + '\n' + prompt(0, 'finally'))
    await waitFor('the first session', () => watcher.rows.get(path)?.prompt === 'finally')
    expect(catalog.rootsInfo()).toStrictEqual([{ path: home, exists: true }])
    watcher.stop()
    catalog.close()
  })

  it('lists a log compressed in one frame by the zstd command, with the core diagnostic as a warning', async () => {
    const root = await temp()
    const plain = headerText('one-frame') + '\n' + prompt(0, 'compressed whole') + title(1, 'One frame')
    const small = await writeSession(root, '--p--', 'one-frame', zstdFrame(plain), true)
    // Big enough that its single frame is not complete in the first megabyte read for the header.
    const filler = Array.from({ length: 3000 }, (_, i) => prompt(2 + i, `line ${i} ${randomBytes(384).toString('base64')}`))
    const big = await writeSession(root, '--p--', 'big-frame', zstdFrame(headerText('big-frame') + '\n' + filler.join('')), true)
    expect((await stat(big)).size).toBeGreaterThan(1024 * 1024)
    const catalog = await catalogOf([root])
    await catalog.refresh()
    await catalog.scanNow(Infinity)
    const rows = catalog.items()
    for (const [path, id, count] of [
      [small, 'one-frame', 2],
      [big, 'big-frame', 3000],
    ] as const) {
      const row = rows.find((item) => item.path === path)
      expect(row).toMatchObject({ sessionId: id, warning: harnessMessages.ZSTD.headerFrame, eventCount: count })
      expect(row?.headerError).toBeUndefined()
    }
    catalog.close()
  })
})

describe('the scan cache', () => {
  const scan = async (path: string, previous?: DigestState): Promise<DigestState> =>
    scanDigest(path, await identity(path), previous, { checksum, chunkBytes: 64 })

  it('reads an unchanged log not at all, and a grown one only from where it stopped (jsonl and zstd)', async () => {
    const root = await temp()
    const body = prompt(0, 'start') + turnStart(1)
    for (const zstd of [false, true]) {
      const head = headerText(`grow-${zstd}`) + '\n'
      const path = await writeSession(root, '--p--', `grow-${zstd}`, zstd ? zstdFrames([head, body]) : head + body, zstd)
      const first = await scan(path)
      expect(first).toMatchObject({ how: 'full', bytesRead: (await stat(path)).size })
      expect(first.digest).toMatchObject({ eventCount: 2, turnOpen: true, title: null })
      expect(await scan(path, first)).toMatchObject({ how: 'cached', bytesRead: 0 })
      const more = title(2, 'Grown') + turnEnd(3)
      const added = zstd ? zstdFrame(more) : new TextEncoder().encode(more)
      await appendFile(path, added)
      const second = await scan(path, first)
      expect(second).toMatchObject({ how: 'resumed', bytesRead: added.length })
      expect(second.digest).toMatchObject({ eventCount: 4, turnOpen: false, title: 'Grown', prompt: 'start' })
      // A torn tail (half a line, half a frame) is held back and read once it is whole.
      const tail = zstd ? zstdFrame(title(4, 'Torn')) : new TextEncoder().encode(title(4, 'Torn'))
      await appendFile(path, tail.subarray(0, 10))
      const third = await scan(path, second)
      expect(third.digest).toMatchObject({ eventCount: 4, title: 'Grown' })
      await appendFile(path, tail.subarray(10))
      const fourth = await scan(path, third)
      expect(fourth).toMatchObject({ how: 'resumed', bytesRead: tail.length })
      expect(fourth.digest).toMatchObject({ eventCount: 5, title: 'Torn' })
    }
  })

  it('scans a file replaced under the same name, or rewritten in place, from the start', async () => {
    const root = await temp()
    const path = await writeSession(root, '--p--', 'r', headerText('r') + '\n' + title(0, 'Before') + prompt(1, 'x'))
    const first = await scan(path)
    expect(first.digest.title).toBe('Before')
    // Replaced: a new inode under the same name (how a writer swaps a file in).
    await writeFile(`${path}.0123456789ab.tmp`, headerText('r') + '\n' + title(0, 'After') + prompt(1, 'x') + prompt(2, 'y'))
    await rename(`${path}.0123456789ab.tmp`, path)
    const replaced = await scan(path, first)
    expect(replaced).toMatchObject({ how: 'full' })
    expect(replaced.digest).toMatchObject({ title: 'After', eventCount: 3 })
    // Rewritten in place, longer: the bytes just before the old end changed, so nothing read before is trusted.
    await writeFile(path, headerText('r') + '\n' + title(0, 'Again') + prompt(1, 'w') + prompt(2, 'v') + prompt(3, 'z'))
    const rewritten = await scan(path, replaced)
    expect(rewritten).toMatchObject({ how: 'full' })
    expect(rewritten.digest).toMatchObject({ title: 'Again', eventCount: 4 })
  })

  it('is what the catalog keeps: a refresh reads nothing again, a grown log only its new bytes', async () => {
    const root = await temp()
    const path = await writeSession(root, '--p--', 'c', headerText('c') + '\n' + title(0, 'Cached'))
    const catalog = await catalogOf([root])
    await catalog.refresh()
    await catalog.scanNow(Infinity)
    const size = (await stat(path)).size
    expect(catalog.stats()).toStrictEqual({ full: 1, resumed: 0, bytesRead: size })
    await catalog.refresh()
    await catalog.scanNow(Infinity)
    expect(catalog.stats()).toStrictEqual({ full: 1, resumed: 0, bytesRead: size })
    const more = title(1, 'Cached, then grown')
    await appendFile(path, more)
    await catalog.refresh()
    await catalog.scanNow(Infinity)
    expect(catalog.stats()).toStrictEqual({ full: 1, resumed: 1, bytesRead: size + more.length })
    expect(catalog.items()[0]).toMatchObject({ title: 'Cached, then grown', scanned: true, eventCount: 2 })
    expect(catalog.progress()).toStrictEqual({ scanned: 1, total: 1 })
    catalog.close()
  })
})
