/**
 * A content search over the index: the query as one literal phrase (the core's parseContentQuery), filters applied
 * before ranking, hits grouped by session. Sessions come strongest hit first: FTS5's bm25 of their best event (more
 * occurrences of the phrase, in a shorter document, is stronger), ties broken by that event's time (newer first),
 * then the session id and the file, so the same index gives the same order every time. Within a session its hits come
 * the same way, then by seq. Pages are cut by an opaque `next` token bound to the query and its filters.
 *
 * One statement evaluates the phrase once and gives the page's sessions with their best hits; then only those hits
 * are highlighted (highlighting every matching document would cost as many as there are).
 */

import { contentSnippet, parseContentQuery, type SurfaceClass } from '../../core/index.ts'
import { SURFACE_CODE, SURFACE_NAME, type Db } from './content-db.ts'

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
  readonly snippet: string
  /** The match's [start, end) in `snippet` (for a highlight; the CLI's JSON leaves it out). */
  readonly highlight: readonly [number, number]
  readonly isError: boolean
  readonly time: number | null
}

export interface SessionHits {
  readonly id: string | null
  readonly title: string | null
  readonly project: string | null
  /** The log file (a session's id can repeat across roots; its file cannot). */
  readonly path: string
  readonly hits: readonly SearchHit[]
}

export type SearchPage =
  | { readonly ok: true; readonly query: string; readonly sessions: readonly SessionHits[]; readonly next: string | null }
  | { readonly ok: false; readonly message: string }

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100
export const DEFAULT_HITS = 3
export const MAX_HITS = 50

const MARK_START = '\uFDD0'
const MARK_END = '\uFDD1'

interface Cursor {
  readonly v: 1
  readonly f: string
  readonly o: number
}

export function searchIndex(db: Db, request: SearchRequest): SearchPage {
  const parsed = parseContentQuery(request.query, { prefix: request.prefix === true })
  if (!parsed.ok) return parsed
  const limit = request.limit ?? DEFAULT_LIMIT
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return { ok: false, message: `the limit must be a whole number from 1 to ${MAX_LIMIT}` }
  const hitsPerSession = request.hitsPerSession ?? DEFAULT_HITS
  if (!Number.isSafeInteger(hitsPerSession) || hitsPerSession < 1 || hitsPerSession > MAX_HITS)
    return { ok: false, message: `hits per session must be a whole number from 1 to ${MAX_HITS}` }
  const fingerprint = JSON.stringify([parsed.query.match, filterKey(request), limit, hitsPerSession])
  let offset = 0
  if (request.next !== undefined) {
    const cursor = decodeCursor(request.next)
    if (cursor === null || cursor.f !== fingerprint)
      return { ok: false, message: 'this next token belongs to another query or other filters: search again without it' }
    offset = cursor.o
  }
  const where = filterSql(request)
  const match = parsed.query.match
  // One pass over the matching documents: rank each within its session, rank the sessions by their best, and keep
  // the page's sessions (one more, to know whether there is a next page) with their best hits.
  const rows = db
    .prepare(
      `WITH m AS (
         SELECT d.id AS id, d.file_id AS file_id, d.seq AS seq, d.turn AS turn, d.step AS step, d.time AS time,
                d.type AS type, d.tool AS tool, d.is_error AS is_error, d.surface AS surface,
                d.shadowed_by AS shadowed_by, bm25(doc_text) AS score
         FROM doc_text JOIN docs AS d ON d.id = doc_text.rowid ${where.joinFiles ? 'JOIN files AS f ON f.id = d.file_id' : ''}
         WHERE doc_text MATCH ? ${where.sql}
       ), ranked AS (
         SELECT *, ROW_NUMBER() OVER (PARTITION BY file_id ORDER BY score, time DESC, seq DESC) AS r FROM m
       ), page AS (
         SELECT ranked.file_id AS file_id, f.path AS path, f.session_id AS session_id, f.title AS title, f.project AS project,
                ROW_NUMBER() OVER (ORDER BY ranked.score, ranked.time DESC, f.session_id, f.id) AS position
         FROM ranked JOIN files AS f ON f.id = ranked.file_id
         WHERE ranked.r = 1
       )
       SELECT ranked.*, page.path, page.session_id, page.title, page.project, page.position
       FROM ranked JOIN page ON page.file_id = ranked.file_id
       WHERE page.position > ? AND page.position <= ? AND ranked.r <= ?
       ORDER BY page.position, ranked.r`,
    )
    .all(match, ...where.params, offset, offset + limit + 1, hitsPerSession) as Array<
    HitRow & { path: string; session_id: string | null; title: string | null; project: string | null; position: number }
  >
  const more = rows.some((row) => row.position > offset + limit)
  const highlight = db.prepare('SELECT highlight(doc_text, 0, ?, ?) AS marked FROM doc_text WHERE doc_text MATCH ? AND rowid = ?')
  const sessions: SessionHits[] = []
  for (const row of rows) {
    if (row.position > offset + limit) break
    let session = sessions.at(-1)
    if (session === undefined || session.path !== row.path) {
      session = { id: row.session_id, title: row.title, project: row.project, path: row.path, hits: [] }
      sessions.push(session)
    }
    const marked = (highlight.get(MARK_START, MARK_END, match, row.id) as { marked: string } | undefined)?.marked ?? ''
    const snippet = contentSnippet(marked)
    ;(session.hits as SearchHit[]).push({
      seq: row.seq,
      turn: row.turn,
      step: row.step,
      type: row.type,
      tool: row.tool,
      surface: SURFACE_NAME[row.surface] ?? 'log-only',
      shadowedBy: row.shadowed_by,
      snippet: snippet.text,
      highlight: snippet.highlight,
      isError: row.is_error === 1,
      time: row.time,
    })
  }
  return {
    ok: true,
    query: parsed.query.text,
    sessions,
    next: more ? encodeCursor({ v: 1, f: fingerprint, o: offset + limit }) : null,
  }
}

interface HitRow {
  id: number
  file_id: number
  seq: number
  turn: number | null
  step: number | null
  time: number | null
  type: string
  tool: string | null
  is_error: number
  surface: number
  shadowed_by: number | null
}

interface FilterSql {
  readonly sql: string
  readonly params: Array<string | number>
  readonly joinFiles: boolean
}

/** The filters as SQL over `d` (docs) and `f` (files), every value bound. */
function filterSql(filters: SearchFilters): FilterSql {
  const clauses: string[] = []
  const params: Array<string | number> = []
  let joinFiles = false
  if (filters.project !== undefined) {
    joinFiles = true
    const project = filters.project.replace(/\/+$/u, '')
    clauses.push("(f.project = ? OR f.project LIKE ? ESCAPE '\\')")
    params.push(project, `%/${project.replace(/[\\%_]/gu, (c) => `\\${c}`)}`)
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
  return { sql: clauses.map((c) => `AND ${c}`).join(' '), params, joinFiles }
}

function filterKey(filters: SearchFilters): unknown[] {
  return [
    filters.project ?? null,
    filters.since ?? null,
    filters.until ?? null,
    [...(filters.types ?? [])].sort(),
    filters.tool ?? null,
    filters.failed === true,
    filters.surface ?? null,
  ]
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url')
}

function decodeCursor(token: string): Cursor | null {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>
    if (value.v !== 1 || typeof value.f !== 'string' || !Number.isSafeInteger(value.o) || (value.o as number) < 0) return null
    return value as Cursor
  } catch {
    return null
  }
}
