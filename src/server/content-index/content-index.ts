/**
 * The content index of one sessions root: every session log below it, one document per semantic event (the core's
 * ContentExtractor), in an SQLite FTS5 file in the user's cache directory (content-db.ts). `refresh()` brings it up
 * to date with the files as they are now, incrementally: an unchanged file is not read; a file that only grew adds
 * its new events (and updates the standing of earlier ones a new replacement shadowed); anything else is indexed
 * anew; a file gone takes its session out. `search()` answers from what is indexed (content-search.ts).
 *
 * One writer per index across processes (writer-lock.ts); every other process reads what is committed (each session
 * is committed whole, so a reader never sees half of one). A damaged index is rebuilt, never trusted.
 */

import { chmodSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { loadContentChecksum, type ContentChecksum } from '../../core/index.ts'
import { logsBelow } from '../catalog/log-discovery.ts'
import { PathGuard } from '../path-guard.ts'
import { IndexBusyError, indexPathFor, SURFACE_CODE, type Db } from './content-db.ts'
import * as rows from './file-rows.ts'
import type { ContentIndexOptions, IndexStatus, RefreshOptions, RefreshReport, SkippedFile } from './index-api.ts'
import { dshHomeOf, IndexPlaceError, isCorruption, isInside, openOrRebuild, realRoot } from './index-place.ts'
import { identityOf, readForIndex, sameFile, type FileIdentity, type OpenLog } from './log-reading.ts'
import { searchIndex, type SearchPage, type SearchRequest } from './content-search.ts'
import { WriterLock } from './writer-lock.ts'

export type { ContentIndexOptions, IndexProgress, IndexStatus, RefreshOptions, RefreshReport, SkippedFile } from './index-api.ts'

/** Logs kept open while their session runs (their next append is read from where they stopped), at most this many. */
const MAX_OPEN_LOGS = 16
/** A group of sessions is committed after this many bytes of logs, or this long (see refreshLocked). */
const COMMIT_BYTES = 32 << 20
const COMMIT_MS = 1000

export class ContentIndex {
  private readonly openLogs = new Map<string, OpenLog>()

  private constructor(
    private db: Db,
    readonly path: string,
    readonly root: string,
    private readonly checksum: ContentChecksum,
    private readonly notice: (line: string) => void,
  ) {}

  /**
   * Opens the index of `root` (creating it when missing). Takes the writer lock for a moment when the file must be
   * made or rebuilt; if another process holds it that long, reading waits for it.
   */
  static async open(options: ContentIndexOptions): Promise<ContentIndex> {
    const root = realRoot(options.root)
    const path = indexPathFor(options.cacheDir, root)
    const home = dshHomeOf(root)
    if (isInside(path, root) || (home !== null && isInside(path, home))) {
      throw new IndexPlaceError(
        `the content index would be written under the dsh home (${path}): set XDG_CACHE_HOME to a directory outside it`,
      )
    }
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    chmodSync(dirname(path), 0o700)
    const notice = options.notice ?? (() => undefined)
    const db = openOrRebuild(path, notice, undefined)
    return new ContentIndex(db, path, root, await loadContentChecksum(), notice)
  }

  /** What is indexed now. */
  status(): IndexStatus {
    const files = this.db
      .prepare('SELECT count(*) AS sessions, coalesce(sum(events), 0) AS events FROM files WHERE skipped IS NULL')
      .get() as { sessions: number; events: number }
    const documents = (this.db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n
    const skipped = this.db
      .prepare('SELECT path, skipped AS reason FROM files WHERE skipped IS NOT NULL ORDER BY path')
      .all() as SkippedFile[]
    return { sessions: files.sessions, events: files.events, documents, skipped, path: this.path }
  }

  search(request: SearchRequest): SearchPage {
    return this.guarded(() => searchIndex(this.db, request))
  }

  /** Brings the index up to date with the files below the root (see the file's comment). */
  async refresh(options: RefreshOptions = {}): Promise<RefreshReport> {
    const lock = WriterLock.acquire(`${this.path}.lock`, options.waitMs ?? 0)
    if (lock === null) return { upToDate: false, indexed: 0, appended: 0, removed: 0, unchanged: 0, skipped: [], bytesRead: 0 }
    try {
      if (options.rebuild === true) {
        this.db.close()
        this.openLogs.clear()
        this.db = openOrRebuild(this.path, this.notice, 'a rebuild was asked for', lock)
      }
      try {
        return await this.refreshLocked(options)
      } catch (error) {
        if (!isCorruption(error)) throw error
        // A damaged page met while writing: start over from an empty index, once.
        this.db.close()
        this.openLogs.clear()
        this.db = openOrRebuild(this.path, this.notice, `it is damaged (${(error as Error).message})`, lock)
        return await this.refreshLocked(options)
      }
    } finally {
      lock.release()
    }
  }

  close(): void {
    this.openLogs.clear()
    if (this.db.open) this.db.close()
  }

  private async refreshLocked(options: RefreshOptions): Promise<RefreshReport> {
    const guard = await PathGuard.create([this.root], { allowMissing: true })
    const found = await logsBelow(guard.roots[0] as string, guard)
    const known = new Map<string, rows.FileRow>()
    for (const row of this.db
      .prepare('SELECT id, path, dev, ino, birthtime, size, mtime, seam, last_seq, skipped FROM files')
      .all() as rows.FileRow[])
      known.set(row.path, row)
    const only = options.paths === undefined ? null : new Set(options.paths.map((p) => resolve(p)))
    const present = new Set(found.logs.map((l) => l.path))
    const gone = [...known.values()].filter((row) => !present.has(row.path) && (only === null || only.has(row.path)))
    this.db.transaction(() => {
      for (const row of gone) rows.deleteFile(this.db, row.id)
    })()
    for (const row of gone) this.openLogs.delete(row.path)
    const removed = gone.length
    const work: Array<{ path: string; identity: FileIdentity; row: rows.FileRow | undefined }> = []
    let unchanged = 0
    for (const { path, stats } of found.logs) {
      if (only !== null && !only.has(path)) continue
      const identity = identityOf(stats)
      const row = known.get(path)
      if (
        row !== undefined &&
        sameFile(rows.rowIdentity(row), identity) &&
        row.size === identity.size &&
        row.mtime === identity.mtimeMs
      ) {
        unchanged++
        continue
      }
      work.push({ path, identity, row })
    }
    // Small logs first: most sessions are searchable soon, the few big ones come last.
    work.sort((a, b) => a.identity.size - b.identity.size || (a.path < b.path ? -1 : 1))
    const totalBytes = work.reduce((n, w) => n + w.identity.size, 0)
    let bytes = 0
    let indexed = 0
    let appended = 0
    const skipped: SkippedFile[] = []
    const progress = (done: number): void =>
      options.onProgress?.({ done: unchanged + done, total: unchanged + work.length, bytes, totalBytes })
    progress(0)
    // Sessions are committed in groups (each whole, so a reader never sees half of one): FTS5 writes a new segment
    // at every commit and merges segments as they pile up, so one commit per small session costs more in merging
    // than in indexing. A group closes after COMMIT_BYTES of logs or COMMIT_MS, so readers see progress soon.
    let group: { bytes: number; since: number } | null = null
    const commit = (): void => {
      if (group === null) return
      this.db.exec('COMMIT')
      group = null
    }
    try {
      for (const [k, item] of work.entries()) {
        if (group === null) {
          this.db.exec('BEGIN IMMEDIATE')
          group = { bytes: 0, since: performance.now() }
        }
        const result = await this.indexFile(item.path, item.identity, item.row)
        if (result.kind === 'skipped') skipped.push({ path: item.path, reason: result.reason })
        else if (result.kind === 'appended') appended++
        else indexed++
        bytes += item.identity.size
        group.bytes += item.identity.size
        if (group.bytes >= COMMIT_BYTES || performance.now() - group.since >= COMMIT_MS) commit()
        progress(k + 1)
      }
      commit()
    } finally {
      if (group !== null && this.db.inTransaction) this.db.exec('ROLLBACK')
    }
    for (const row of this.db.prepare('SELECT path, skipped FROM files WHERE skipped IS NOT NULL').all() as rows.FileRow[]) {
      if (!skipped.some((s) => s.path === row.path)) skipped.push({ path: row.path, reason: row.skipped as string })
    }
    skipped.sort((a, b) => (a.path < b.path ? -1 : 1))
    return { upToDate: true, indexed, appended, removed, unchanged, skipped, bytesRead: bytes }
  }

  /** Indexes one file: its new events when it only grew, else all of it. */
  private async indexFile(
    path: string,
    identity: FileIdentity,
    row: rows.FileRow | undefined,
  ): Promise<{ kind: 'indexed' | 'appended' } | { kind: 'skipped'; reason: string }> {
    const grown = row !== undefined && row.skipped === null && (await rows.isAppend(path, row, identity))
    let live = this.openLogs.get(path)
    if (live !== undefined && !grown) live = undefined
    let read
    try {
      read = await readForIndex(path, identity, this.checksum, live)
    } catch (error) {
      const reason = rows.readError(error)
      rows.saveSkipped(this.db, path, identity, row, reason)
      return { kind: 'skipped', reason }
    }
    const { outcome, keep } = read
    if (keep !== undefined) {
      this.openLogs.delete(path)
      this.openLogs.set(path, keep)
      while (this.openLogs.size > MAX_OPEN_LOGS) this.openLogs.delete(this.openLogs.keys().next().value as string)
    } else this.openLogs.delete(path)
    if (outcome.refusal !== null) {
      rows.saveSkipped(this.db, path, outcome.identity, row, outcome.refusal)
      return { kind: 'skipped', reason: outcome.refusal }
    }
    const header = outcome.header ?? {}
    const str = (key: string): string | null => (typeof header[key] === 'string' ? (header[key] as string) : null)
    const meta = {
      session_id: str('id'),
      parent_id: str('parentSession'),
      project: str('cwd'),
      title: outcome.title,
      created_at: typeof header['createdAt'] === 'number' ? Math.trunc(header['createdAt']) : null,
    }
    const db = this.db
    const save = db.transaction(() => {
      let fileId: number
      let documents = outcome.documents
      let reclassified = outcome.reclassified
      if (grown && row !== undefined) {
        fileId = row.id
        if (live === undefined) {
          // Read from the start in this process: only the events after those indexed are new; the standing of the
          // indexed ones that were current is checked against the fold's end.
          const fresh = documents
          documents = fresh.filter((d) => d.seq > row.last_seq)
          reclassified = rows.shadowedSince(this.db, fileId, fresh)
        }
      } else {
        if (row !== undefined) rows.deleteFile(this.db, row.id)
        fileId = Number(
          db
            .prepare(
              `INSERT INTO files (path, dev, ino, birthtime, size, mtime, seam, events, last_seq, documents)
               VALUES (?, 0, 0, 0, 0, 0, '', 0, -1, 0)`,
            )
            .run(path).lastInsertRowid,
        )
      }
      rows.insertDocuments(this.db, fileId, documents)
      const update = db.prepare('UPDATE docs SET surface = ?, shadowed_by = ? WHERE file_id = ? AND seq = ?')
      for (const r of reclassified) update.run(SURFACE_CODE[r.surface], r.shadowedBy, fileId, r.seq)
      db.prepare(
        `UPDATE files SET session_id = ?, parent_id = ?, project = ?, title = ?, created_at = ?, dev = ?, ino = ?,
           birthtime = ?, size = ?, mtime = ?, seam = ?, events = ?, last_seq = max(last_seq, ?),
           documents = documents + ?, skipped = NULL
         WHERE id = ?`,
      ).run(
        meta.session_id,
        meta.parent_id,
        meta.project,
        meta.title,
        meta.created_at,
        outcome.identity.dev,
        outcome.identity.ino,
        outcome.identity.birthtimeMs,
        outcome.identity.size,
        outcome.identity.mtimeMs,
        outcome.seam,
        outcome.events,
        outcome.lastSeq,
        documents.length,
        fileId,
      )
    })
    save()
    return { kind: grown ? 'appended' : 'indexed' }
  }

  /** Runs a read; a damaged page met on the way is said, and the index rebuilt empty (the next refresh fills it). */
  private guarded<T>(read: () => T): T {
    try {
      return read()
    } catch (error) {
      if (!isCorruption(error)) throw error
      const lock = WriterLock.acquire(`${this.path}.lock`, 10_000)
      if (lock === null) throw new IndexBusyError('the content index is damaged and another dsh-lens is rebuilding it')
      try {
        this.db.close()
        this.db = openOrRebuild(this.path, this.notice, `it is damaged (${(error as Error).message})`, lock)
      } finally {
        lock.release()
      }
      return read()
    }
  }
}
