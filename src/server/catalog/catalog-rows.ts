/**
 * What the catalog knows of one log (its stat, header and digest) and the sessions-list row it makes: id, project,
 * kind, parent and children, size, and the digest's title, prompt, event count and open turn. Pure: no I/O.
 */

import { sessionKindOf, type SessionHeader } from '../../core/index.ts'
import type { SessionListItem } from '../../live/protocol.ts'
import type { DigestState, FileIdentity } from './digest-scan.ts'
import type { HeaderFacts } from './log-header.ts'

/** A session is "running" while its last turn is open and its log changed this recently. */
export const RUNNING_WINDOW_MS = 60_000

export interface CatalogEntry {
  readonly path: string
  identity: FileIdentity
  header: HeaderFacts
  digest: DigestState | undefined
  /** The scan under way, if any: two scans of one file at once would both read on into the same collector. */
  scan: Promise<void> | undefined
}

/** The session id the header names, else the path (a row must have one). */
export function idOf(entry: CatalogEntry): string {
  const id = entry.header.header?.['id']
  return typeof id === 'string' ? id : entry.path
}

/** Whether the digest is of the file as it is now. */
export function isScanned(entry: CatalogEntry): boolean {
  const d = entry.digest?.identity
  return d !== undefined && d.size === entry.identity.size && d.mtimeMs === entry.identity.mtimeMs
}

/** Ids of the listed sessions whose header names each id as `parentSession`. */
export function childrenById(entries: Iterable<CatalogEntry>): Map<string, string[]> {
  const children = new Map<string, string[]>()
  for (const entry of entries) {
    const parent = entry.header.header?.['parentSession']
    if (typeof parent !== 'string') continue
    const list = children.get(parent)
    if (list === undefined) children.set(parent, [idOf(entry)])
    else list.push(idOf(entry))
  }
  return children
}

export function rowOf(entry: CatalogEntry, children: ReadonlyMap<string, readonly string[]>, now: number): SessionListItem {
  const h = entry.header.header
  const str = (key: string): string | undefined => (typeof h?.[key] === 'string' ? (h[key] as string) : undefined)
  const scanned = entry.digest !== undefined
  const digest = entry.digest?.digest
  const turnOpen = digest?.turnOpen ?? null
  const parentSession = str('parentSession')
  const origin = str('origin')
  const id = idOf(entry)
  return {
    sessionId: id,
    path: entry.path,
    encoding: entry.header.encoding,
    ...(str('cwd') === undefined ? {} : { cwd: str('cwd') as string }),
    ...(typeof h?.['createdAt'] === 'number' ? { createdAt: h['createdAt'] } : {}),
    ...(parentSession === undefined ? {} : { parentSession }),
    ...(origin === undefined ? {} : { origin }),
    ...(str('agentPreset') === undefined ? {} : { agentPreset: str('agentPreset') as string }),
    children: (children.get(id) ?? []).filter((child) => child !== id),
    sizeBytes: entry.identity.size,
    mtimeMs: entry.identity.mtimeMs,
    turnOpen,
    lastSeq: digest?.lastSeq ?? null,
    ...(entry.header.error === undefined ? {} : { headerError: entry.header.error }),
    ...(entry.header.warning === undefined ? {} : { warning: entry.header.warning }),
    kind: sessionKindOf(h === null ? null : (h as Partial<SessionHeader>)),
    scanned,
    ...(digest?.title == null ? {} : { title: digest.title }),
    ...(digest?.prompt == null ? {} : { prompt: digest.prompt }),
    ...(digest === undefined ? {} : { eventCount: digest.eventCount }),
    running: turnOpen === true && now - entry.identity.mtimeMs < RUNNING_WINDOW_MS,
  }
}
