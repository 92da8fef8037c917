/**
 * Pure: the sessions home's rows from the server's list. Sessions are grouped by project (the header's `cwd`), the
 * project with the newest session first and the newest session first inside it; subagents and forks are nested
 * under their parent (whatever their own cwd), oldest first, and the parent counts them. A filter keeps the sessions
 * whose title, first prompt, project or id contains it (any case), with the parents that lead to them.
 */

import type { Currency } from '../../core/index.ts'
import type { SessionListItem } from '../../live/protocol.ts'

/** Where a row's session is read from: its log file, or the dsh web host the server is attached to. */
export type RowSource = 'file' | 'dsh-web'

export function rowSource(item: SessionListItem): RowSource {
  return item.source === 'dsh-web' ? 'dsh-web' : 'file'
}

export interface HostBadge {
  readonly text: string
  /** The server's link to the host, as the row was listed (`gone`: opened read-only until the host answers). */
  readonly upstream: string
  readonly tone: 'accent' | 'warn' | 'danger'
}

/** The badge of a row the dsh web host lists (null for a file's row): how it is followed, and whether the host answers. */
export function hostBadge(item: SessionListItem): HostBadge | null {
  if (rowSource(item) !== 'dsh-web') return null
  const upstream = item.upstream ?? 'connected'
  if (upstream === 'gone') return { text: 'host gone', upstream, tone: 'danger' }
  if (upstream === 'connecting' || upstream === 'reconnecting') return { text: `dsh web ${upstream}…`, upstream, tone: 'warn' }
  return { text: 'live via dsh web', upstream, tone: 'accent' }
}

export interface HomeRow {
  readonly item: SessionListItem
  /** 0 for a session listed at the top of its project, 1 and more for children. */
  readonly depth: number
  /** Children listed under this row (all of them, filter or not). */
  readonly childCount: number
}

export interface HomeGroup {
  /** The project's cwd, or '' for sessions whose header has none. */
  readonly project: string
  readonly rows: readonly HomeRow[]
}

/** When a session last changed: its log's mtime. */
function updated(item: SessionListItem): number {
  return item.mtimeMs
}

function matches(item: SessionListItem, needle: string): boolean {
  if (needle === '') return true
  return [item.title, item.prompt, item.cwd, item.sessionId].some((field) => field?.toLowerCase().includes(needle) === true)
}

export function homeGroups(items: Iterable<SessionListItem>, filter = ''): HomeGroup[] {
  const all = [...items]
  const byId = new Map<string, SessionListItem>()
  for (const item of all) if (!byId.has(item.sessionId)) byId.set(item.sessionId, item)
  const children = new Map<string, SessionListItem[]>()
  const tops: SessionListItem[] = []
  for (const item of all) {
    const parent = item.parentSession === undefined ? undefined : byId.get(item.parentSession)
    // A child whose parent is not listed (or a header that names itself) stands at the top of its project.
    if (parent === undefined || parent === item) tops.push(item)
    else children.set(parent.sessionId, [...(children.get(parent.sessionId) ?? []), item])
  }
  const needle = filter.trim().toLowerCase()
  const rowsUnder = (item: SessionListItem, depth: number, seen: Set<SessionListItem>): HomeRow[] => {
    if (seen.has(item)) return []
    seen.add(item)
    const kids = (children.get(item.sessionId) ?? []).sort(
      (a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0) || a.path.localeCompare(b.path),
    )
    const below = kids.flatMap((kid) => rowsUnder(kid, depth + 1, seen))
    // Shown when it matches, or when one of its descendants does (so the match keeps its place in the tree).
    if (!matches(item, needle) && below.length === 0) return []
    return [{ item, depth, childCount: kids.length }, ...below]
  }
  const groups = new Map<string, { newest: number; tops: SessionListItem[] }>()
  for (const item of tops) {
    const project = item.cwd ?? ''
    const group = groups.get(project) ?? { newest: 0, tops: [] }
    group.tops.push(item)
    group.newest = Math.max(group.newest, updated(item))
    groups.set(project, group)
  }
  const seen = new Set<SessionListItem>()
  return [...groups.entries()]
    .sort(([pa, a], [pb, b]) => b.newest - a.newest || pa.localeCompare(pb))
    .map(([project, group]) => ({
      project,
      rows: group.tops
        .sort((a, b) => updated(b) - updated(a) || a.path.localeCompare(b.path))
        .flatMap((item) => rowsUnder(item, 0, seen)),
    }))
    .filter((group) => group.rows.length > 0)
}

/** A session's own cost in `currency`: undefined until it is scanned, null when the card prices none of its calls. */
export function sessionCost(item: SessionListItem, currency: Currency): number | null | undefined {
  return item.cost === undefined ? undefined : item.cost[currency]
}

/**
 * Each project's total in `currency` over every session grouped under it, subagents with their parent (as `dsh-lens
 * usage --by project` counts them), whatever the filter shows; a session the card cannot price adds nothing.
 */
export function projectCosts(items: Iterable<SessionListItem>, currency: Currency): Map<string, number> {
  const totals = new Map<string, number>()
  for (const group of homeGroups(items)) {
    let sum = 0
    for (const row of group.rows) sum += sessionCost(row.item, currency) ?? 0
    totals.set(group.project, sum)
  }
  return totals
}

/** A cwd as a list shows it: the last two folders, the whole path in a tooltip. */
export function shortProject(cwd: string): string {
  if (cwd === '') return '(no project)'
  const parts = cwd.split(/[\\/]/).filter((p) => p !== '')
  return parts.length <= 2 ? cwd : `…/${parts.slice(-2).join('/')}`
}
