/**
 * What a content search asks and answers: the request's shape and bounds, its filters as SQL (every value bound),
 * and the opaque `next` token, bound to the query and its filters, that gives the following page.
 */

import type { SurfaceClass } from '../../core/index.ts'
import { SURFACE_CODE } from './content-db.ts'

export interface SearchFilters {
  /** Sessions whose project (the header's `cwd`) is this directory, or ends with these path components. */
  readonly project?: string
  /** Events at or after / at or before these times (epoch ms). */
  readonly since?: number
  readonly until?: number
  readonly types?: readonly string[]
  readonly tool?: string
  /** Tool results that are errors only. */
  readonly failed?: boolean
  readonly surface?: SurfaceClass
}

export interface SearchRequest extends SearchFilters {
  readonly query: string
  readonly prefix?: boolean
  /** Sessions per page (1-100, default 20). */
  readonly limit?: number
  /** Hits shown per session (1-50, default 3). */
  readonly hitsPerSession?: number
  /** The `next` of the previous page. */
  readonly next?: string
}

export interface SearchHit {
  readonly seq: number
  readonly turn: number | null
  readonly step: number | null
  readonly type: string
  readonly tool: string | null
  readonly surface: SurfaceClass
  readonly shadowedBy: number | null
  /** One line around the first match; empty when the event's text could not be read back (`readable` false). */
  readonly snippet: string
  /** The match's [start, end) in `snippet` (for a highlight; the CLI's JSON leaves it out). */
  readonly highlight: readonly [number, number]
  readonly isError: boolean
  readonly time: number | null
  /** False when the log no longer holds this event where it was indexed (it changed since; a refresh catches up). */
  readonly readable: boolean
}

export interface SessionHits {
  readonly id: string | null
  readonly title: string | null
  readonly project: string | null
  /** The log file (a session's id can repeat across roots; its file cannot). */
  readonly path: string
  readonly hits: readonly SearchHit[]
}

/**
 * How the page is ordered: `strength`, sessions by their strongest hit (bm25); `recent`, when more events match than
 * are ranked (a word in most documents), sessions by their last write, newest first, each with its strongest hits.
 */
export type SearchOrder = 'strength' | 'recent'

export type SearchPage =
  | {
      readonly ok: true
      readonly query: string
      readonly order: SearchOrder
      readonly sessions: readonly SessionHits[]
      readonly next: string | null
    }
  | { readonly ok: false; readonly message: string }

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100
export const DEFAULT_HITS = 3
export const MAX_HITS = 50

/** Where the next page starts: a position in strength order, or the last session shown in recency order. */
export type Cursor =
  | { readonly v: 2; readonly f: string; readonly m: 'strength'; readonly o: number }
  | { readonly v: 2; readonly f: string; readonly m: 'recent'; readonly mtime: number; readonly path: string }

/** The request's bounds checked; the sentence when they are not met. */
export function pageSize(request: SearchRequest): { limit: number; hits: number } | { message: string } {
  const limit = request.limit ?? DEFAULT_LIMIT
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return { message: `the limit must be a whole number from 1 to ${MAX_LIMIT}` }
  const hits = request.hitsPerSession ?? DEFAULT_HITS
  if (!Number.isSafeInteger(hits) || hits < 1 || hits > MAX_HITS)
    return { message: `hits per session must be a whole number from 1 to ${MAX_HITS}` }
  return { limit, hits }
}

export interface FilterSql {
  readonly sql: string
  readonly params: Array<string | number>
  /** Whether any filter is set. */
  readonly any: boolean
}

/**
 * The filters as SQL, every value bound, as `AND …` clauses (or ''): those on the session's file (`f`, the project),
 * or those on its documents (`d`: time, type, tool, failed, surface).
 */
export function filterSql(filters: SearchFilters, part: 'files' | 'docs'): FilterSql {
  const clauses: string[] = []
  const params: Array<string | number> = []
  if (part === 'files') {
    if (filters.project !== undefined) {
      const project = filters.project.replace(/\/+$/u, '')
      clauses.push("(f.project = ? OR f.project LIKE ? ESCAPE '\\')")
      params.push(project, `%/${project.replace(/[\\%_]/gu, (c) => `\\${c}`)}`)
    }
    return { sql: clauses.map((c) => `AND ${c}`).join(' '), params, any: clauses.length > 0 }
  }
  if (filters.since !== undefined) {
    clauses.push('d.time >= ?')
    params.push(filters.since)
  }
  if (filters.until !== undefined) {
    clauses.push('d.time <= ?')
    params.push(filters.until)
  }
  if (filters.types !== undefined && filters.types.length > 0) {
    clauses.push(`d.type IN (${filters.types.map(() => '?').join(', ')})`)
    params.push(...filters.types)
  }
  if (filters.tool !== undefined) {
    clauses.push('d.tool = ?')
    params.push(filters.tool)
  }
  if (filters.failed === true) clauses.push('d.is_error = 1')
  if (filters.surface !== undefined) {
    clauses.push('d.surface = ?')
    params.push(SURFACE_CODE[filters.surface])
  }
  return { sql: clauses.map((c) => `AND ${c}`).join(' '), params, any: clauses.length > 0 }
}

/** What a token is bound to: the phrase, the filters and the page's size. */
export function fingerprintOf(match: string, filters: SearchFilters, limit: number, hits: number): string {
  return JSON.stringify([
    match,
    filters.project ?? null,
    filters.since ?? null,
    filters.until ?? null,
    [...(filters.types ?? [])].sort(),
    filters.tool ?? null,
    filters.failed === true,
    filters.surface ?? null,
    limit,
    hits,
  ])
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url')
}

export function decodeCursor(token: string): Cursor | null {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>
    if (value['v'] !== 2 || typeof value['f'] !== 'string') return null
    if (value['m'] === 'strength' && Number.isSafeInteger(value['o']) && (value['o'] as number) >= 0) return value as Cursor
    if (value['m'] === 'recent' && typeof value['mtime'] === 'number' && typeof value['path'] === 'string') return value as Cursor
    return null
  } catch {
    return null
  }
}

/** A hit as the CLI's JSON and the page's protocol give it, keys in the contract order (the page adds `highlight`). */
export function hitOut(
  h: SearchHit,
): Pick<SearchHit, 'seq' | 'turn' | 'step' | 'type' | 'tool' | 'surface' | 'shadowedBy' | 'snippet'> {
  return {
    seq: h.seq,
    turn: h.turn,
    step: h.step,
    type: h.type,
    tool: h.tool,
    surface: h.surface,
    shadowedBy: h.shadowedBy,
    snippet: h.snippet,
  }
}
