/**
 * Finds the session logs below one served path: a session file, a session directory, a project directory or a
 * sessions root laid out as `<root>/--<project>--/<session>/session.jsonl[.zstd]` (format reference 1.1). Every path
 * returned is a real path inside the fence; `*.tmp` materialization files never are. A root that does not exist (yet)
 * holds no logs; the caller says so.
 */

import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { PathGuard } from './path-guard.ts'

export const LOG_NAMES = ['session.jsonl.zstd', 'session.jsonl'] as const

export interface RootLogs {
  readonly root: string
  readonly exists: boolean
  /** The directories below the root that were read (a watcher on them sees new sessions arrive). */
  readonly dirs: readonly string[]
  readonly logs: readonly string[]
}

async function logIn(dir: string): Promise<string | undefined> {
  for (const name of LOG_NAMES) {
    try {
      if ((await stat(join(dir, name))).isFile()) return join(dir, name)
    } catch {
      // not this encoding
    }
  }
  return undefined
}

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true })
    return entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => join(dir, e.name))
  } catch {
    return []
  }
}

/** Runs `work` over `items` with at most `limit` in flight: directory reads are I/O, and one at a time is slow. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}

export async function logsBelow(root: string, guard: PathGuard): Promise<RootLogs> {
  let st
  try {
    st = await stat(root)
  } catch {
    return { root, exists: false, dirs: [], logs: [] }
  }
  const found: string[] = []
  const dirs: string[] = []
  const admit = async (candidate: string | undefined): Promise<void> => {
    if (candidate === undefined) return
    const real = await guard.resolveFile(candidate)
    if (real !== undefined) found.push(real)
  }
  if (st.isFile()) {
    await admit(root)
    return { root, exists: true, dirs, logs: found }
  }
  dirs.push(root)
  const direct = await logIn(root)
  if (direct !== undefined) {
    await admit(direct)
    return { root, exists: true, dirs, logs: found }
  }
  // A sessions root holds project dirs of session dirs; a project dir given directly holds session dirs.
  await inParallel(await subdirs(root), 8, async (child) => {
    const own = await logIn(child)
    if (own !== undefined) return admit(own)
    dirs.push(child)
    await inParallel(await subdirs(child), 4, async (session) => admit(await logIn(session)))
  })
  return { root, exists: true, dirs, logs: found.sort() }
}
