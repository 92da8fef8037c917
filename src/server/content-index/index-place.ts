/**
 * Where a content index may live and how it is opened: never inside what it indexes nor under the dsh home (derived
 * data goes to the user's cache directory), and made anew, with one line said, when it is not a current index of ours.
 */

import { realpathSync } from 'node:fs'
import { relative, resolve, sep } from 'node:path'
import { IndexBusyError, openIndexDb, type Db } from './content-db.ts'
import { WriterLock } from './writer-lock.ts'

export function openOrRebuild(path: string, notice: (line: string) => void, force: string | undefined, held?: WriterLock): Db {
  // A current index opens without the writer lock, so a reader never waits for a long refresh elsewhere.
  if (held === undefined && force === undefined) {
    try {
      return openIndexDb(path, { mayRebuild: false }).db
    } catch (error) {
      if (!(error instanceof IndexBusyError)) throw error
    }
  }
  // To be made or made anew: under the writer lock (waiting for another writer's moment of the same).
  const lock = held ?? WriterLock.acquire(`${path}.lock`, 30_000)
  try {
    const opened = openIndexDb(path, { mayRebuild: lock !== null, ...(force === undefined ? {} : { forceRebuild: force }) })
    if (opened.rebuilt !== null) notice(`the content index at ${path} was rebuilt: ${opened.rebuilt}`)
    return opened.db
  } finally {
    if (held === undefined) lock?.release()
  }
}

/** The index is derived data: it is never written inside what it indexes, nor anywhere under the dsh home. */
export class IndexPlaceError extends Error {}

export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path)
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..')
}

/** The dsh home a sessions root belongs to (`<home>/sessions`, or a project or session below it), if it looks like one. */
export function dshHomeOf(root: string): string | null {
  const at = root.split(sep).lastIndexOf('sessions')
  return at > 0 ? root.split(sep).slice(0, at).join(sep) || sep : null
}

export function realRoot(root: string): string {
  const absolute = resolve(root)
  try {
    return realpathSync(absolute)
  } catch {
    return absolute
  }
}

export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB') return true
  // FTS5 cannot read its own configuration back: its shadow tables are damaged.
  return code === 'SQLITE_ERROR' && /^vtable constructor failed/.test((error as Error).message)
}
