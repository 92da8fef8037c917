/**
 * What `dsh-lens open [TARGET]` serves and opens: nothing (the dsh home), a path (a session file, opened at once; a
 * session, project or sessions directory, listed), or a session id or a unique prefix of one (8 characters or more)
 * found under the home. Ids are matched with and without the harness's `session-` prefix, since a root session's id
 * is `session-<uuid>` and people copy the uuid.
 */

import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { loadContentChecksum } from '../core/index.ts'
import { readLogHeader } from '../server/catalog/log-header.ts'
import { logsBelow } from '../server/catalog/log-discovery.ts'
import { PathGuard } from '../server/path-guard.ts'

export interface OpenTarget {
  /** The paths the server serves (read-only). */
  readonly roots: readonly string[]
  /** The session the page opens straight away, if any. */
  readonly sessionId: string | null
  /** Whether the roots may not exist yet (the dsh home). */
  readonly allowMissing: boolean
}

/** The command line names something that is not there, or is ambiguous: exit 2 with this message. */
export class OpenTargetError extends Error {}

export const MIN_PREFIX = 8

function idMatches(id: string, prefix: string): boolean {
  return id.startsWith(prefix) || (id.startsWith('session-') && id.slice('session-'.length).startsWith(prefix))
}

/** Every session under `home` whose id is `query` or starts with it, as `{id, path}`, by id. */
export async function findSessions(home: string, query: string): Promise<Array<{ id: string; path: string }>> {
  const guard = await PathGuard.create([home], { allowMissing: true })
  const below = await logsBelow(guard.roots[0] as string, guard)
  const checksum = await loadContentChecksum()
  const found: Array<{ id: string; path: string }> = []
  for (const { path } of below.logs) {
    // The session directory is the id, encoded (format reference 1.1): a cheap first filter before reading headers.
    const dirName = path.split('/').at(-2) ?? ''
    if (!idMatches(decodeSegment(dirName), query)) continue
    const header = await readLogHeader(path, checksum).catch(() => null)
    const id = header?.header?.['id']
    if (typeof id === 'string' && idMatches(id, query)) found.push({ id, path })
  }
  const exact = found.filter((f) => f.id === query || f.id === `session-${query}`)
  return (exact.length > 0 ? exact : found).sort((a, b) => a.id.localeCompare(b.id))
}

/** `encodeSegment` undone: `~XXXX` is one UTF-16 code unit. */
function decodeSegment(segment: string): string {
  return segment.replace(/~([0-9A-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

export async function resolveOpenTarget(target: string | undefined, home: string): Promise<OpenTarget> {
  if (target === undefined) return { roots: [home], sessionId: null, allowMissing: true }
  const path = resolve(target)
  const st = await stat(path).catch(() => null)
  if (st?.isFile() === true) {
    const header = await readLogHeader(path, await loadContentChecksum())
    const id = header.header?.['id']
    // A file whose header cannot be read is still served and listed (the page says why), just not opened at once.
    return { roots: [path], sessionId: typeof id === 'string' ? id : null, allowMissing: false }
  }
  if (st?.isDirectory() === true) return { roots: [path], sessionId: null, allowMissing: false }
  if (target.length < MIN_PREFIX || !/^[A-Za-z0-9._~-]+$/.test(target)) {
    throw new OpenTargetError(
      `"${target}" is not a file or directory, nor a session id (or a prefix of ${MIN_PREFIX}+ characters of one)`,
    )
  }
  const found = await findSessions(home, target)
  if (found.length === 0) throw new OpenTargetError(`no session under ${home} has an id starting with "${target}"`)
  if (found.length > 1) {
    const list = found.map((f) => `  ${f.id}  ${f.path}`).join('\n')
    throw new OpenTargetError(`"${target}" matches ${found.length} sessions under ${home}; give more of the id:\n${list}`)
  }
  return { roots: [home], sessionId: (found[0] as { id: string }).id, allowMissing: false }
}
