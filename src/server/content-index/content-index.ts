/**
 * The content index of one sessions root: every session log below it, one document per semantic event (the core's
 * ContentLog), in an SQLite FTS5 file in the user's cache directory (content-db.ts). `refresh()` brings it up to date
 * with the files as they are now, incrementally: an unchanged file is not read; a file that only grew adds its new
 * events (and updates the standing of earlier ones a new replacement shadowed); anything else is indexed anew; a file
 * gone takes its session out. `search()` answers from what is indexed (content-search.ts).
 *
 * A big refresh (a cold build) reads the logs on worker threads (extract-pool.ts) while this thread writes what they
 * found; a small one (a watcher's few files) reads them here. One writer per index across processes
 * (writer-lock.ts); every other process reads what is committed (each session is committed whole, so a reader never
 * sees half of one). A damaged index is rebuilt, never trusted.
 */

import { chmodSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { loadContentChecksum, type ContentChecksum } from '../../core/index.ts'
import { PathGuard } from '../path-guard.ts'
import { IndexBusyError, indexPathFor, type Db } from './content-db.ts'
import { searchIndex, type SearchPage, type SearchRequest } from './content-search.ts'
import { DocumentTexts } from './document-texts.ts'
import { ExtractPool } from './extract-pool.ts'
import { FileIdsExhausted, FileRows, isAppend, readError, rowIdentity, type FileRow } from './file-rows.ts'
import type { ContentIndexOptions, IndexStatus, RefreshOptions, RefreshReport, SkippedFile } from './index-api.ts'
import { dshHomeOf, IndexPlaceError, isCorruption, isInside, openOrRebuild, realRoot } from './index-place.ts'
import { foundAt, logsBelowAll, type WorkItem } from './log-finding.ts'
import { identityOf, readForIndex, sameFile, type OpenLog, type ReadOutcome } from './log-reading.ts'
import { WriterLock } from './writer-lock.ts'

export type { ContentIndexOptions, IndexProgress, IndexStatus, RefreshOptions, RefreshReport, SkippedFile } from './index-api.ts'

/** Logs kept open while their session runs (their next append is read from where they stopped), at most this many. */
const MAX_OPEN_LOGS = 16
/** A group of sessions is committed after this many bytes of logs, or this long (see refreshLocked). */
const COMMIT_BYTES = 64 << 20
const COMMIT_MS = 1000
/** A refresh reads on worker threads when it has at least this much to read (starting them costs more for less). */
const POOL_BYTES = 16 << 20
/** Logs read ahead of the writing, at most (their documents wait in memory). */
const READ_AHEAD_BYTES = 32 << 20

export class ContentIndex {
  private readonly openLogs = new Map<string, OpenLog>()
  private rows: FileRows
  private readonly texts: DocumentTexts

  private constructor(
    private db: Db,
    readonly path: string,
    readonly roots: readonly string[],
    private readonly checksum: ContentChecksum,
    private readonly notice: (line: string) => void,
  ) {
    this.rows = new FileRows(db)
    this.texts = new DocumentTexts(checksum)
  }

  /**
   * Opens the index of `root` (creating it when missing). Takes the writer lock for a moment when the file must be
   * made or rebuilt; if another process holds it that long, reading waits for it.
   */
  static async open(options: ContentIndexOptions): Promise<ContentIndex> {
    const roots = [...new Set((typeof options.root === 'string' ? [options.root] : options.root).map(realRoot))]
    const path = indexPathFor(options.cacheDir, roots)
    for (const root of roots) {
      const home = dshHomeOf(root)
      if (isInside(path, root) || (home !== null && isInside(path, home))) {
        throw new IndexPlaceError(
          `the content index would be written under the dsh home (${path}): set XDG_CACHE_HOME to a directory outside it`,
        )
      }
    }
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    chmodSync(dirname(path), 0o700)
    const notice = options.notice ?? (() => undefined)
    const db = openOrRebuild(path, notice, undefined)
    return new ContentIndex(db, path, roots, await loadContentChecksum(), notice)
  }

  /** What is indexed now. */
  status(): IndexStatus {
    return this.guarded(() => {
      const files = this.db
        .prepare(
          'SELECT count(*) AS sessions, coalesce(sum(events), 0) AS events, coalesce(sum(documents), 0) AS documents FROM files WHERE skipped IS NULL',
        )
        .get() as { sessions: number; events: number; documents: number }
      const skipped = this.db
        .prepare('SELECT path, skipped AS reason FROM files WHERE skipped IS NOT NULL ORDER BY path')
        .all() as SkippedFile[]
      return { ...files, skipped, path: this.path }
    })
  }

  search(request: SearchRequest): SearchPage {
    return this.guarded(() => searchIndex(this.db, request, this.texts))
  }

  /** Brings the index up to date with the files below the root (see the file's comment). */
  async refresh(options: RefreshOptions = {}): Promise<RefreshReport> {
    const lock = WriterLock.acquire(`${this.path}.lock`, options.waitMs ?? 0)
    if (lock === null) return { upToDate: false, indexed: 0, appended: 0, removed: 0, unchanged: 0, skipped: [], bytesRead: 0 }
    try {
      if (options.rebuild === true) this.reopen('a rebuild was asked for', lock)
      try {
        return await this.refreshLocked(options)
      } catch (error) {
        const exhausted = error instanceof FileIdsExhausted
        if (!exhausted && !isCorruption(error)) throw error
        // A damaged page met while writing, or file ids used up: start over from an empty index, once.
        this.reopen(exhausted ? error.message : `it is damaged (${(error as Error).message})`, lock)
        return await this.refreshLocked(options)
      }
    } finally {
      lock.release()
    }
  }

  close(): void {
    this.openLogs.clear()
    this.texts.clear()
    if (this.db.open) this.db.close()
  }

  private reopen(why: string, lock: WriterLock): void {
    this.db.close()
    this.openLogs.clear()
    this.texts.clear()
    this.db = openOrRebuild(this.path, this.notice, why, lock)
    this.rows = new FileRows(this.db)
  }

  private async refreshLocked(options: RefreshOptions): Promise<RefreshReport> {
    const guard = await PathGuard.create(this.roots, { allowMissing: true })
    const known = new Map<string, FileRow>()
    for (const row of this.db
      .prepare('SELECT id, path, dev, ino, birthtime, size, mtime, seam, events, skipped FROM files')
      .all() as FileRow[])
      known.set(row.path, row)
    const only = options.paths === undefined ? null : new Set(options.paths.map((p) => resolve(p)))
    const found = only === null ? await logsBelowAll(guard) : await foundAt([...only], guard)
    const present = new Set(found.map((l) => l.path))
    const gone = [...known.values()].filter((row) => !present.has(row.path) && (only === null || only.has(row.path)))
    this.db.transaction(() => {
      for (const row of gone) this.rows.remove(row.id)
    })()
    for (const row of gone) this.openLogs.delete(row.path)
    const work: WorkItem[] = []
    let unchanged = 0
    for (const { path, stats } of found) {
      const identity = identityOf(stats)
      const row = known.get(path)
      if (
        row !== undefined &&
        sameFile(rowIdentity(row), identity) &&
        row.size === identity.size &&
        row.mtime === identity.mtimeMs
      ) {
        unchanged++
        continue
      }
      const grown = row !== undefined && row.skipped === null && (await isAppend(path, row, identity))
      work.push({ path, identity, row, grown })
    }
    // Small logs first: most sessions are searchable soon, the few big ones come last.
    work.sort((a, b) => a.identity.size - b.identity.size || (a.path < b.path ? -1 : 1))
    const totalBytes = work.reduce((n, w) => n + w.identity.size, 0)
    const pool = totalBytes >= (options.poolBytes ?? POOL_BYTES) && work.length > 1 ? new ExtractPool() : null
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
    // With a pool, reads are asked for ahead of the writing, as far as READ_AHEAD_BYTES of logs (what is read but not
    // yet written is held in memory); results are written in the order of the work list, so progress follows it.
    const reads: Array<Promise<ReadOutcome> | null> = []
    let asked = 0
    let askedBytes = 0
    const askAhead = (from: number): void => {
      for (; asked < work.length && (asked <= from || askedBytes - bytes < READ_AHEAD_BYTES); asked++) {
        const item = work[asked] as WorkItem
        const read = pool !== null && !(item.grown && this.openLogs.has(item.path)) ? pool.read(item.path, item.identity) : null
        read?.catch(() => undefined)
        reads.push(read)
        askedBytes += item.identity.size
      }
    }
    try {
      for (const [k, item] of work.entries()) {
        askAhead(k)
        const result = await this.readItem(item, reads[k] ?? null)
        reads[k] = null
        if (group === null) {
          this.db.exec('BEGIN IMMEDIATE')
          group = { bytes: 0, since: performance.now() }
        }
        if ('reason' in result) {
          this.rows.saveSkipped(item.path, item.identity, item.row, result.reason)
          skipped.push({ path: item.path, reason: result.reason })
        } else {
          const how = !item.grown ? false : result.resumed ? 'resumed' : 'reread'
          this.rows.saveRead(item.path, result.outcome, item.row, how)
          if (how === false) indexed++
          else appended++
        }
        bytes += item.identity.size
        group.bytes += item.identity.size
        if (group.bytes >= COMMIT_BYTES || performance.now() - group.since >= COMMIT_MS) commit()
        progress(k + 1)
      }
      commit()
    } finally {
      if (group !== null && this.db.inTransaction) this.db.exec('ROLLBACK')
      await pool?.close()
    }
    if (bytes >= (options.poolBytes ?? POOL_BYTES)) this.compact()
    for (const row of this.db.prepare('SELECT path, skipped FROM files WHERE skipped IS NOT NULL').all() as FileRow[]) {
      if (!skipped.some((s) => s.path === row.path)) skipped.push({ path: row.path, reason: row.skipped as string })
    }
    skipped.sort((a, b) => (a.path < b.path ? -1 : 1))
    return { upToDate: true, indexed, appended, removed: gone.length, unchanged, skipped, bytesRead: bytes }
  }

  /**
   * After a big refresh: the pages FTS5's merges freed go back to the file system, and the write-ahead log into the
   * file (a reader still reading keeps what it needs; the rest is done at the next checkpoint).
   */
  private compact(): void {
    this.db.pragma('incremental_vacuum')
    this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  /**
   * One log's read: from the pool when it read it, else here (then a running session's log is kept open, and a grown
   * one read on from where it stopped). A file that is no session log, or cannot be read, comes back with its reason.
   */
  private async readItem(
    item: WorkItem,
    pooled: Promise<ReadOutcome> | null,
  ): Promise<{ outcome: ReadOutcome; resumed: boolean } | { reason: string }> {
    let outcome: ReadOutcome
    let resumed = false
    try {
      if (pooled !== null) {
        outcome = await pooled
        this.openLogs.delete(item.path)
      } else {
        const live = item.grown ? this.openLogs.get(item.path) : undefined
        const read = await readForIndex(item.path, item.identity, this.checksum, live)
        outcome = read.outcome
        resumed = live !== undefined
        this.keepOpen(item.path, read.keep)
      }
    } catch (error) {
      this.openLogs.delete(item.path)
      return { reason: readError(error) }
    }
    if (outcome.refusal !== null) return { reason: outcome.refusal }
    return { outcome, resumed }
  }

  private keepOpen(path: string, keep: OpenLog | undefined): void {
    this.openLogs.delete(path)
    if (keep === undefined) return
    this.openLogs.set(path, keep)
    while (this.openLogs.size > MAX_OPEN_LOGS) this.openLogs.delete(this.openLogs.keys().next().value as string)
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
        this.reopen(`it is damaged (${(error as Error).message})`, lock)
      } finally {
        lock.release()
      }
      return read()
    }
  }
}
