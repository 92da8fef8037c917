/**
 * What `dsh-lens diff A B` reads for A and for B: a log file, a session directory holding one, `-` (standard input,
 * for one of the two), or a session id / a unique prefix of 8+ characters of one under the dsh home, found as
 * `dsh-lens open` finds it (open-target.ts: with or without the `session-` prefix).
 */

import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { findSessions, MIN_PREFIX } from './open-target.ts'

/** A name that is no log, no id, or several ids: exit 2 with this message. */
export class DiffTargetError extends Error {}

const LOG_NAMES = ['session.jsonl.zstd', 'session.jsonl']

/** The log file `target` names, under `home` (the sessions directory) when it is an id. */
export async function resolveDiffTarget(target: string, home: string): Promise<string> {
  if (target === '-') return target
  const path = resolve(target)
  const st = existsSync(path) ? statSync(path) : null
  if (st?.isFile() === true) return path
  if (st?.isDirectory() === true) {
    const inside = LOG_NAMES.map((name) => join(path, name)).find((p) => existsSync(p))
    if (inside === undefined)
      throw new DiffTargetError(`${target} is a directory with no session.jsonl or session.jsonl.zstd in it`)
    return inside
  }
  // A name that looks like a path was meant as one: say the file is missing, not that it is no id.
  if (/[/\\]|\.jsonl(\.zstd?)?$/.test(target)) throw new DiffTargetError(`cannot read ${target}: no such file`)
  if (target.length < MIN_PREFIX || !/^[A-Za-z0-9._~-]+$/.test(target))
    throw new DiffTargetError(
      `"${target}" is not a file or directory, nor a session id (or a prefix of ${MIN_PREFIX}+ characters of one)`,
    )
  const found = await findSessions(home, target)
  if (found.length === 0) throw new DiffTargetError(`no session under ${home} has an id starting with "${target}"`)
  if (found.length > 1) {
    const list = found.map((f) => `  ${f.id}  ${f.path}`).join('\n')
    throw new DiffTargetError(`"${target}" matches ${found.length} sessions under ${home}; give more of the id:\n${list}`)
  }
  return (found[0] as { path: string }).path
}
