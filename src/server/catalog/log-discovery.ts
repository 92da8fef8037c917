/**
 * Finds the session logs below one served path: a session file, a session directory, a project directory or a
 * sessions root laid out as `<root>/--<project>--/<session>/session.jsonl[.zstd]` (format reference 1.1). Every path
 * returned is a real path inside the fence; `*.tmp` materialization files never are. A root that does not exist (yet)
 * holds no logs; the caller says so.
 *
 * Cheap, because the sessions home re-runs it on every poll: directories are read with their entry types, and a log
 * reached through real directories only (no symlink on the way down from the real root) is its own real path, so
 * one `lstat` per session both finds its log and gives the stat the catalog needs. Anything reached through a
 * symlink goes through the guard's full check (realpath, fence).
 */

import type { Dirent, Stats } from 'node:fs'
import { lstat, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { PathGuard } from '../path-guard.ts'

export const LOG_NAMES = ['session.jsonl.zstd', 'session.jsonl'] as const

export interface FoundLog {
  readonly path: string
  /** Its stat as found (a regular file). */
  readonly stats: Stats
}

export interface RootLogs {
  readonly root: string
  readonly exists: boolean
  /** The directories below the root that were read (a watcher on them sees new sessions arrive). */
  readonly dirs: readonly string[]
  readonly logs: readonly FoundLog[]
}

/** Runs `work` over `items` with at most `limit` in flight: directory reads are I/O, and one at a time is slow. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

export async function logsBelow(root: string, guard: PathGuard): Promise<RootLogs> {
  let st: Stats
  try {
    st = await stat(root)
  } catch {
    return { root, exists: false, dirs: [], logs: [] }
  }
  const found: FoundLog[] = []
  const dirs: string[] = []
  /** Through the guard: realpath, fence, regular file. */
  const admitChecked = async (candidate: string): Promise<void> => {
    const real = await guard.resolveFile(candidate)
    if (real === undefined) return
    try {
      found.push({ path: real, stats: await stat(real) })
    } catch {
      // gone since
    }
  }
  /** The log in `dir`, if it has one; `real` says whether `dir` was reached through real directories only. */
  const logIn = async (dir: string, real: boolean): Promise<boolean> => {
    for (const name of LOG_NAMES) {
      const candidate = join(dir, name)
      let own: Stats
      try {
        own = await lstat(candidate)
      } catch {
        continue
      }
      if (real && own.isFile()) found.push({ path: candidate, stats: own })
      else if (own.isFile() || own.isSymbolicLink()) await admitChecked(candidate)
      else continue
      return true
    }
    return false
  }
  if (st.isFile()) {
    await admitChecked(root)
    return { root, exists: true, dirs, logs: found }
  }
  dirs.push(root)
  // The guard's roots are real paths: what is below them through real directories is real too.
  if (await logIn(root, true)) return { root, exists: true, dirs, logs: found }
  const subdirs = (list: Dirent[], parent: string): Array<{ dir: string; real: boolean }> =>
    list.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => ({ dir: join(parent, e.name), real: e.isDirectory() }))
  // A sessions root holds project dirs of session dirs; a project dir given directly holds session dirs.
  await inParallel(subdirs(await entries(root), root), 8, async ({ dir, real }) => {
    if (await logIn(dir, real)) return
    dirs.push(dir)
    await inParallel(subdirs(await entries(dir), dir), 8, async (session) => {
      await logIn(session.dir, real && session.real)
    })
  })
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { root, exists: true, dirs, logs: found }
}
