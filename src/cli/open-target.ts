/**
 * What `dsh-lens open [TARGET]` serves and opens: nothing (the dsh home), a path (a session file, opened at once; a
 * session, project or sessions directory, listed), or a session id or a unique prefix of one (8 characters or more)
 * found under the home, or (with `--dsh`) among the sessions the dsh web host lists. Ids are matched with and without
 * the harness's `session-` prefix, since a root session's id is `session-<uuid>` and people copy the uuid.
 */

import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { loadContentChecksum } from '../core/index.ts'
import { readLogHeader } from '../server/catalog/log-header.ts'
import { logsBelow } from '../server/catalog/log-discovery.ts'
import { PathGuard } from '../server/path-guard.ts'
import { MIN_PREFIX, isSessionIdQuery } from './open-shorthand.ts'

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

export function idMatches(id: string, prefix: string): boolean {
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

/** `--dsh`: the host to ask for a session id the home does not hold, and its answer for a query. */
export interface HostSessions {
  readonly url: string
  find(
    query: string,
  ): Promise<{ readonly ok: true; readonly ids: readonly string[] } | { readonly ok: false; readonly why: string }>
}

export async function resolveOpenTarget(target: string | undefined, home: string, host?: HostSessions): Promise<OpenTarget> {
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
  if (!isSessionIdQuery(target)) {
    throw new OpenTargetError(
      `"${target}" is not a file or directory, nor a session id (or a prefix of ${MIN_PREFIX}+ characters of one)`,
    )
  }
  const found = await findSessions(home, target)
  // The host is asked too: a session it has may be on no disk here (or be another one sharing the prefix).
  const fromHost = host === undefined ? null : await host.find(target)
  const hostOnly = fromHost?.ok === true ? fromHost.ids.filter((id) => !found.some((f) => f.id === id)) : []
  const matches = [
    ...found.map((f) => ({ id: f.id, where: f.path })),
    ...hostOnly.map((id) => ({ id, where: `dsh web ${host?.url}` })),
  ]
  if (matches.length === 0) {
    const hostWord =
      host === undefined
        ? ''
        : fromHost?.ok === true
          ? `, nor does the dsh web host at ${host.url}`
          : `, and the dsh web host at ${host.url} could not be asked (${fromHost?.ok === false ? fromHost.why : 'no answer'})`
    throw new OpenTargetError(`no session under ${home} has an id starting with "${target}"${hostWord}`)
  }
  if (matches.length > 1) {
    const list = matches.map((m) => `  ${m.id}  ${m.where}`).join('\n')
    const where = host === undefined ? `under ${home}` : `under ${home} and in the dsh web host`
    throw new OpenTargetError(`"${target}" matches ${matches.length} sessions ${where}; give more of the id:\n${list}`)
  }
  // Only the host has it: the home is still served, and may not exist on this machine at all.
  return { roots: [home], sessionId: (matches[0] as { id: string }).id, allowMissing: found.length === 0 }
}

/**
 * The one session under `home` whose id is `target` or starts with it (8+ characters, with or without `session-`):
 * `diff`'s A and B, which name logs on this disk (no dsh web host).
 * @throws OpenTargetError when `target` is no id, or names no session or several (each listed as `  <id>  <path>`)
 */
export async function sessionByIdPrefix(target: string, home: string): Promise<{ id: string; path: string }> {
  if (!isSessionIdQuery(target)) {
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
  return found[0] as { id: string; path: string }
}
