/**
 * What `dsh-lens diff A B` reads for A and for B: a log file, a session directory holding one, `-` (standard input,
 * for one of the two), or a session id / a unique prefix of 8+ characters of one under the dsh home, found as
 * `dsh-lens open` finds it (open-target.ts: with or without the `session-` prefix).
 */

import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { sessionByIdPrefix } from './open-target.ts'

/** A path that holds no log: exit 2 with this message (an id that names no session or several: `OpenTargetError`). */
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
  return (await sessionByIdPrefix(target, home)).path
}
