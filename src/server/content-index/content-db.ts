/**
 * The content index's SQLite file: where it lives, its schema, and the rule that it is derived data. It is opened
 * only if it is ours and current (our `application_id`, our schema version, readable); anything else (a damaged
 * file, another program's database, an older schema) is deleted and made anew, and the caller is told in one line.
 * Created owner-only (0700 directory, 0600 file; SQLite gives its -wal and -shm files the database's mode).
 *
 * One file per sessions root, named by a hash of the root's real path, in the user's cache directory.
 */

import { createHash } from 'node:crypto'
import { chmodSync, closeSync, openSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { loadSqlite } from './sqlite-module.ts'

export type Db = BetterSqlite3.Database

/** 'DSLI' (dsh-lens index): a file without it is not ours. */
export const APPLICATION_ID = 0x44534c49
/** Bumped whenever the tables, the extraction or the tokenizer change: an older file is rebuilt, never migrated. */
export const SCHEMA_VERSION = 2

/**
 * A document's row id: its file's id in the high bits, its event's index in the log in the low 32, so a session's
 * documents are one range of row ids (`fileRange`), in log order, and its file's id is `id >> 32`. File ids stay
 * below 2^21 so every row id is a safe JavaScript integer (see `MAX_FILE_ID`).
 */
export const INDEX_BITS = 2 ** 32
export const MAX_FILE_ID = 2 ** 21 - 1

export function docId(fileId: number, index: number): number {
  return fileId * INDEX_BITS + index
}

export function fileRange(fileId: number): [number, number] {
  return [fileId * INDEX_BITS, fileId * INDEX_BITS + (INDEX_BITS - 1)]
}

/**
 * FTS5 gathers new documents' words in memory up to this much before writing a segment (default 1 MiB): fewer,
 * bigger segments to merge later, which was most of a cold build's writing (docs/benchmarks.md).
 */
const FTS_HASH_BYTES = 32 << 20

/**
 * The words only: `doc_text` is a contentless FTS5 table (its inverted index, no copy of the text), so the index
 * stays a fraction of the logs it indexes. A hit's snippet reads its event back from the log at `docs`' place
 * (`frame_at`, `frame_end`, `line_at`: see RecordPlace); the few documents that cannot be read back alone (an
 * upgraded legacy event, a record across two zstd frames) keep their `text` here.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS files (
  id          INTEGER PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,
  session_id  TEXT,
  parent_id   TEXT,
  project     TEXT,
  title       TEXT,
  created_at  INTEGER,
  dev         INTEGER NOT NULL,
  ino         INTEGER NOT NULL,
  birthtime   REAL NOT NULL,
  size        INTEGER NOT NULL,
  mtime       REAL NOT NULL,
  seam        TEXT NOT NULL,
  events      INTEGER NOT NULL,
  last_seq    INTEGER NOT NULL,
  documents   INTEGER NOT NULL,
  skipped     TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS files_by_recency ON files (mtime DESC, path);
CREATE TABLE IF NOT EXISTS docs (
  id          INTEGER PRIMARY KEY,
  seq         INTEGER NOT NULL,
  turn        INTEGER,
  step        INTEGER,
  time        INTEGER,
  type        TEXT NOT NULL,
  tool        TEXT,
  is_error    INTEGER NOT NULL,
  surface     INTEGER NOT NULL,
  shadowed_by INTEGER,
  frame_at    INTEGER,
  frame_end   INTEGER,
  line_at     INTEGER,
  text        TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS docs_by_tool ON docs (tool) WHERE tool IS NOT NULL;
CREATE INDEX IF NOT EXISTS docs_failed ON docs (id) WHERE is_error = 1;
CREATE VIRTUAL TABLE IF NOT EXISTS doc_text USING fts5(body, content = '', contentless_delete = 1, tokenize = 'unicode61');
INSERT INTO doc_text (doc_text, rank) VALUES ('hashsize', ${FTS_HASH_BYTES});
`

/** Surface classes as stored (`docs.surface`). */
export const SURFACE_CODE = { current: 0, shadowed: 1, 'log-only': 2 } as const
export const SURFACE_NAME = ['current', 'shadowed', 'log-only'] as const

/** The index file for a sessions root: `<cache>/content-index/<hash of the root>.sqlite` (of all of them, NUL-joined). */
export function indexPathFor(cacheDir: string, realRoots: readonly string[]): string {
  const hash = createHash('sha256').update(realRoots.join('\0')).digest('hex').slice(0, 16)
  return join(cacheDir, 'content-index', `${hash}.sqlite`)
}

export interface OpenedDb {
  readonly db: Db
  /** Why the file was made anew (one sentence), or null when it was opened as it was (or did not exist). */
  readonly rebuilt: string | null
}

/**
 * Opens (creating, or rebuilding when it is not a current index of ours) the index at `path`. The caller holds the
 * writer lock when `mayRebuild`; without it a file that needs rebuilding is reported, not touched.
 */
export interface OpenOptions {
  /** The caller holds the writer lock: it may create the schema and rebuild a bad file. */
  readonly mayRebuild: boolean
  readonly busyMs?: number
  /** Rebuild whatever the file holds, for this reason (a damaged page found in use, `index --rebuild`). */
  readonly forceRebuild?: string
}

export function openIndexDb(path: string, options: OpenOptions): OpenedDb {
  createOwnerOnly(path)
  const problem = options.forceRebuild ?? inspect(path)
  if (problem === null) return { db: configure(loadSqlite()(path), options), rebuilt: null }
  // Made anew only under the writer lock.
  if (!options.mayRebuild)
    throw new IndexBusyError(`the content index needs rebuilding (${problem}) and another dsh-lens is writing it`)
  removeIndexFiles(path)
  createOwnerOnly(path)
  return { db: configure(loadSqlite()(path), options), rebuilt: problem }
}

/** Another process holds the index: reading waits or says so. */
export class IndexBusyError extends Error {}

export function removeIndexFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true })
}

function createOwnerOnly(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  chmodSync(path, 0o600)
}

/** Null when `path` is an empty file or a current index of ours; else why it is not, in words. */
function inspect(path: string): string | null {
  const Database = loadSqlite()
  let db: Db | undefined
  try {
    db = new Database(path, { fileMustExist: true })
    db.pragma('busy_timeout = 5000')
    const applicationId = db.pragma('application_id', { simple: true }) as number
    const version = db.pragma('user_version', { simple: true }) as number
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }
    if (applicationId === 0 && version === 0 && tables.n === 0) return null
    if (applicationId !== APPLICATION_ID) return 'it is not a dsh-lens index'
    if (version !== SCHEMA_VERSION) return `it has schema version ${version}, this dsh-lens writes ${SCHEMA_VERSION}`
    // Damage deeper in the file shows when a page is read: the index then throws an SQLITE_CORRUPT error, which its
    // owner answers by rebuilding (a full check here would read the whole file at every start).
    return null
  } catch (error) {
    return `it is damaged or unreadable (${(error as Error).message})`
  } finally {
    db?.close()
  }
}

function configure(db: Db, options: OpenOptions): Db {
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyMs ?? 10_000))}`)
  const fresh = (db.pragma('application_id', { simple: true }) as number) === 0
  if (fresh && !options.mayRebuild) {
    db.close()
    throw new IndexBusyError('the content index is being made by another dsh-lens')
  }
  // Pages freed as FTS5 merges its segments go back to the file system after a big refresh (incremental vacuum):
  // set before anything writes the file's first page.
  if (fresh) db.pragma('auto_vacuum = INCREMENTAL')
  // Derived data: a crash may lose the last transactions, never the file's integrity (WAL with synchronous=NORMAL).
  // WAL also lets a reader search while the writer adds sessions.
  if (options.mayRebuild) db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  if (fresh) {
    db.transaction(() => {
      db.exec(SCHEMA)
      db.pragma(`application_id = ${APPLICATION_ID}`)
      db.pragma(`user_version = ${SCHEMA_VERSION}`)
    })()
  }
  return db
}
