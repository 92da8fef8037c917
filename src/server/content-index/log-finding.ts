/** The session logs a refresh of the content index looks at: all below its roots, or a watcher's few paths. */

import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { LOG_NAMES, logsBelow, type FoundLog } from '../catalog/log-discovery.ts'
import type { PathGuard } from '../path-guard.ts'
import type { FileRow } from './file-rows.ts'
import type { FileIdentity } from './log-reading.ts'

/** A log a refresh reads: as it is now, its row if it was indexed, and whether it only grew since. */
export interface WorkItem {
  readonly path: string
  readonly identity: FileIdentity
  readonly row: FileRow | undefined
  readonly grown: boolean
}

/** The session logs below every root (a log below two roots, once). */
export async function logsBelowAll(guard: PathGuard): Promise<FoundLog[]> {
  const found = new Map<string, FoundLog>()
  for (const root of guard.roots)
    for (const log of (await logsBelow(root, guard)).logs) if (!found.has(log.path)) found.set(log.path, log)
  return [...found.values()]
}

/** The session logs among `paths` (a watcher's), as `logsBelow` would find them; a path that is none is left out. */
export async function foundAt(paths: readonly string[], guard: PathGuard): Promise<FoundLog[]> {
  const out: FoundLog[] = []
  for (const path of paths) {
    if (!(LOG_NAMES as readonly string[]).includes(basename(path))) continue
    const real = await guard.resolveFile(path)
    if (real === undefined) continue
    try {
      out.push({ path: real, stats: await stat(real) })
    } catch {
      // Gone since: left out, so its row goes.
    }
  }
  return out
}
