/**
 * Which sessions and hits a search's page holds, at a cost bounded by the page, not by how common the words are:
 *
 * - **strength** (most queries): every matching event is ranked (FTS5's bm25: more occurrences of the phrase in a
 *   shorter document is stronger), sessions by their strongest, ties broken by that event's time (newer first), then
 *   the session id and the file, so the same index gives the same order every time. Done when at most RANKED events
 *   match, or when the filters leave at most RANKED candidates (then each is asked whether it matches).
 * - **recent** (a word in most documents, and filters that do not narrow it): ranking every match would cost as many
 *   as there are, so sessions come by their last write, newest first, with their strongest hits: one pass over the
 *   matches says which sessions have one, and only the page's sessions' matches are ranked.
 */

import { INDEX_BITS, type Db } from './content-db.ts'
import type { Cursor, FilterSql, SearchOrder } from './search-request.ts'

/** Events ranked by strength at most; past it a page is ordered by recency. */
export const RANKED = 4000

export interface HitRow {
  id: number
  seq: number
  turn: number | null
  step: number | null
  time: number | null
  type: string
  tool: string | null
  is_error: number
  surface: number
  shadowed_by: number | null
  frame_at: number | null
  frame_end: number | null
  line_at: number | null
  text: string | null
  score: number
}

export interface FileMeta {
  id: number
  path: string
  session_id: string | null
  title: string | null
  project: string | null
  mtime: number
}

export interface PlannedPage {
  readonly order: SearchOrder
  readonly sessions: ReadonlyArray<{ readonly file: FileMeta; readonly hits: readonly HitRow[] }>
  readonly next: Cursor | null
}

export interface PagePlan {
  readonly match: string
  /** The filters on documents (`d`), and the project filter on files (`f`), apart. */
  readonly docs: FilterSql
  readonly files: FilterSql
  readonly limit: number
  readonly hits: number
  readonly fingerprint: string
  readonly cursor: Cursor | null
}

const HIT_COLUMNS = `d.id AS id, d.seq AS seq, d.turn AS turn, d.step AS step, d.time AS time, d.type AS type, d.tool AS tool,
  d.is_error AS is_error, d.surface AS surface, d.shadowed_by AS shadowed_by, d.frame_at AS frame_at,
  d.frame_end AS frame_end, d.line_at AS line_at, d.text AS text`

export function planPage(db: Db, plan: PagePlan): PlannedPage {
  const ranked = plan.cursor?.m === 'recent' ? null : rankedRows(db, plan)
  return ranked === null ? recentPage(db, plan) : strengthPage(db, plan, ranked)
}

/** Every matching event with its score, when there are at most RANKED to rank; else null. */
function rankedRows(db: Db, plan: PagePlan): HitRow[] | null {
  const joinFiles = plan.files.any ? 'JOIN files AS f ON f.id = (d.id >> 32)' : ''
  const matches = db
    .prepare(`SELECT count(*) AS n FROM (SELECT rowid FROM doc_text WHERE doc_text MATCH ? LIMIT ${RANKED + 1})`)
    .get(plan.match) as { n: number }
  if (matches.n <= RANKED) {
    return db
      .prepare(
        `SELECT ${HIT_COLUMNS}, bm25(doc_text) AS score FROM doc_text JOIN docs AS d ON d.id = doc_text.rowid ${joinFiles}
         WHERE doc_text MATCH ? ${plan.docs.sql} ${plan.files.sql}`,
      )
      .all(plan.match, ...plan.docs.params, ...plan.files.params) as HitRow[]
  }
  if (!plan.docs.any && !plan.files.any) return null
  // Many matches, but the filters may leave few candidates: ask each of them.
  const candidates = db
    .prepare(`SELECT ${HIT_COLUMNS} FROM docs AS d ${joinFiles} WHERE 1 ${plan.docs.sql} ${plan.files.sql} LIMIT ${RANKED + 1}`)
    .all(...plan.docs.params, ...plan.files.params) as HitRow[]
  if (candidates.length > RANKED) return null
  // One pass over the matches, scoring only the candidates. The `+` keeps the row ids out of FTS5's plan: given them
  // as constraints it reads the phrase's whole doclist once per id (milliseconds each for a common word), while here
  // the ids are one ephemeral table and each match is a lookup in it (docs/benchmarks.md, "filtered queries").
  const scores = new Map(
    (
      db
        .prepare(
          'SELECT rowid AS id, bm25(doc_text) AS score FROM doc_text WHERE doc_text MATCH ? AND +rowid IN (SELECT value FROM json_each(?))',
        )
        .all(plan.match, JSON.stringify(candidates.map((row) => row.id))) as Array<{ id: number; score: number }>
    ).map((r) => [r.id, r.score]),
  )
  const out: HitRow[] = []
  for (const row of candidates) {
    const score = scores.get(row.id)
    if (score !== undefined) out.push({ ...row, score })
  }
  return out
}

function strengthPage(db: Db, plan: PagePlan, rows: HitRow[]): PlannedPage {
  const byFile = groupByFile(rows)
  const files = filesById(db, [...byFile.keys()])
  const order = [...byFile.entries()].sort(([fa, a], [fb, b]) => {
    const first = byStrength(a[0] as HitRow, b[0] as HitRow, false)
    if (first !== 0) return first
    // SQLite's order: a null session id first.
    const ia = files.get(fa)?.session_id ?? null
    const ib = files.get(fb)?.session_id ?? null
    if (ia !== ib) return ia === null ? -1 : ib === null ? 1 : ia < ib ? -1 : 1
    return fa - fb
  })
  const offset = plan.cursor?.m === 'strength' ? plan.cursor.o : 0
  const page = order.slice(offset, offset + plan.limit)
  return {
    order: 'strength',
    sessions: page.map(([file, hits]) => ({ file: files.get(file) as FileMeta, hits: hits.slice(0, plan.hits) })),
    next: order.length > offset + plan.limit ? { v: 2, f: plan.fingerprint, m: 'strength', o: offset + plan.limit } : null,
  }
}

function recentPage(db: Db, plan: PagePlan): PlannedPage {
  // Which sessions have a match: one pass over the matches, whose row ids say their file.
  const joinDocs = plan.docs.any ? 'JOIN docs AS d ON d.id = doc_text.rowid' : ''
  const matched = new Set(
    db
      .prepare(`SELECT DISTINCT doc_text.rowid >> 32 FROM doc_text ${joinDocs} WHERE doc_text MATCH ? ${plan.docs.sql}`)
      .pluck()
      .all(plan.match, ...plan.docs.params) as number[],
  )
  const after = plan.cursor?.m === 'recent' ? plan.cursor : null
  const sessions = db
    .prepare(
      `SELECT f.id AS id, f.path AS path, f.session_id AS session_id, f.title AS title, f.project AS project, f.mtime AS mtime
       FROM files AS f WHERE f.skipped IS NULL ${plan.files.sql}
       ${after === null ? '' : 'AND (f.mtime < ? OR (f.mtime = ? AND f.path > ?))'}
       ORDER BY f.mtime DESC, f.path`,
    )
    .all(...plan.files.params, ...(after === null ? [] : [after.mtime, after.mtime, after.path])) as FileMeta[]
  const page: FileMeta[] = []
  let more = false
  for (const file of sessions) {
    if (!matched.has(file.id)) continue
    if (page.length === plan.limit) {
      more = true
      break
    }
    page.push(file)
  }
  // The page's sessions' hits, ranked: bm25 is computed only for the matches of those sessions.
  const rows = db
    .prepare(
      `SELECT ${HIT_COLUMNS}, bm25(doc_text) AS score FROM doc_text JOIN docs AS d ON d.id = doc_text.rowid
       WHERE doc_text MATCH ? AND (doc_text.rowid >> 32) IN (SELECT value FROM json_each(?)) ${plan.docs.sql}`,
    )
    .all(plan.match, JSON.stringify(page.map((f) => f.id)), ...plan.docs.params) as HitRow[]
  const byFile = groupByFile(rows)
  const last = page.at(-1)
  return {
    order: 'recent',
    sessions: page.map((file) => ({ file, hits: (byFile.get(file.id) ?? []).slice(0, plan.hits) })),
    next: more && last !== undefined ? { v: 2, f: plan.fingerprint, m: 'recent', mtime: last.mtime, path: last.path } : null,
  }
}

/** Rows by their file, each file's strongest first. */
function groupByFile(rows: readonly HitRow[]): Map<number, HitRow[]> {
  const byFile = new Map<number, HitRow[]>()
  for (const row of rows) {
    const file = Math.floor(row.id / INDEX_BITS)
    const list = byFile.get(file)
    if (list === undefined) byFile.set(file, [row])
    else list.push(row)
  }
  for (const list of byFile.values()) list.sort(byStrength)
  return byFile
}

/** bm25 (lower is stronger), then newer first (an event without a time last), then the later seq (within a session). */
function byStrength(a: HitRow, b: HitRow, bySeq = true): number {
  if (a.score !== b.score) return a.score - b.score
  if (a.time !== b.time) return a.time === null ? 1 : b.time === null ? -1 : b.time - a.time
  return bySeq ? b.seq - a.seq : 0
}

function filesById(db: Db, ids: readonly number[]): Map<number, FileMeta> {
  const rows = db
    .prepare(`SELECT id, path, session_id, title, project, mtime FROM files WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as FileMeta[]
  return new Map(rows.map((r) => [r.id, r]))
}
