/**
 * A content search over the index: the query as one literal phrase (the core's parseContentQuery), filters applied
 * before ranking, hits grouped by session (search-plan.ts says in which order), pages cut by an opaque `next` token
 * bound to the query and its filters. Then, for the page's hits only, each event's text is read back from its log
 * (document-texts.ts: the index keeps the words, not the text) and highlighted by SQLite itself, on a scratch FTS5
 * table with the index's tokenizer, so the snippet marks exactly what matched.
 */

import { contentSnippet, HIGHLIGHT_END, HIGHLIGHT_START, parseContentQuery } from '../../core/index.ts'
import { SURFACE_NAME, type Db } from './content-db.ts'
import type { DocumentTexts } from './document-texts.ts'
import { planPage, type HitRow } from './search-plan.ts'
import {
  decodeCursor,
  encodeCursor,
  filterSql,
  fingerprintOf,
  pageSize,
  type SearchHit,
  type SearchPage,
  type SearchRequest,
  type SessionHits,
} from './search-request.ts'

export type { SearchPage, SearchRequest, SessionHits } from './search-request.ts'

/** Characters of a long text kept around its first likely match for highlighting (the snippet needs far fewer). */
const WINDOW = 4000

export function searchIndex(db: Db, request: SearchRequest, texts: DocumentTexts): SearchPage {
  const parsed = parseContentQuery(request.query, { prefix: request.prefix === true })
  if (!parsed.ok) return parsed
  const size = pageSize(request)
  if ('message' in size) return { ok: false, message: size.message }
  const match = parsed.query.match
  const fingerprint = fingerprintOf(match, request, size.limit, size.hits)
  const cursor = request.next === undefined ? null : decodeCursor(request.next)
  if (request.next !== undefined && (cursor === null || cursor.f !== fingerprint))
    return { ok: false, message: 'this next token belongs to another query or other filters: search again without it' }
  const planned = db.transaction(() =>
    planPage(db, {
      match,
      docs: filterSql(request, 'docs'),
      files: filterSql(request, 'files'),
      limit: size.limit,
      hits: size.hits,
      fingerprint,
      cursor,
    }),
  )()
  const marked = highlighted(
    db,
    match,
    parsed.query.text,
    planned.sessions.flatMap((s) => s.hits.map((hit) => ({ hit, path: s.file.path }))),
    texts,
  )
  const sessions: SessionHits[] = planned.sessions.map((s) => ({
    id: s.file.session_id,
    title: s.file.title,
    project: s.file.project,
    path: s.file.path,
    hits: s.hits.map((row) => hitOf(row, marked.get(row.id) ?? null)),
  }))
  return {
    ok: true,
    query: parsed.query.text,
    order: planned.order,
    sessions,
    next: planned.next === null ? null : encodeCursor(planned.next),
  }
}

function hitOf(row: HitRow, marked: string | null): SearchHit {
  const snippet = marked === null ? null : contentSnippet(marked)
  return {
    seq: row.seq,
    turn: row.turn,
    step: row.step,
    type: row.type,
    tool: row.tool,
    surface: SURFACE_NAME[row.surface] ?? 'log-only',
    shadowedBy: row.shadowed_by,
    snippet: snippet?.text ?? '',
    highlight: snippet?.highlight ?? [0, 0],
    isError: row.is_error === 1,
    time: row.time,
    readable: marked !== null,
  }
}

/**
 * Each hit's text read back and marked where the phrase matches (the highlight markers around it), by document id;
 * a hit whose text could not be read back is absent.
 */
function highlighted(
  db: Db,
  match: string,
  query: string,
  hits: ReadonlyArray<{ hit: HitRow; path: string }>,
  texts: DocumentTexts,
): Map<number, string> {
  const out = new Map<number, string>()
  if (hits.length === 0) return out
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.marks USING fts5(body, tokenize = 'unicode61')")
  const insert = db.prepare('INSERT INTO temp.marks (rowid, body) VALUES (?, ?)')
  const mark = db.prepare('SELECT rowid AS id, highlight(marks, 0, ?, ?) AS marked FROM temp.marks WHERE marks MATCH ?')
  const whole = new Map<number, string>()
  db.exec('DELETE FROM temp.marks')
  for (const { hit, path } of hits) {
    const text = texts.textOf({
      path,
      seq: hit.seq,
      type: hit.type,
      frameAt: hit.frame_at,
      frameEnd: hit.frame_end,
      lineAt: hit.line_at,
      text: hit.text,
    })
    if (text === null) continue
    whole.set(hit.id, text)
    insert.run(hit.id, windowOf(text, query))
  }
  for (const row of mark.all(HIGHLIGHT_START, HIGHLIGHT_END, match) as Array<{ id: number; marked: string }>)
    out.set(row.id, row.marked)
  // A window that missed its match (the guess is only a guess): the whole text, for those few.
  const missed = [...whole.keys()].filter((id) => !out.has(id))
  if (missed.length > 0) {
    db.exec('DELETE FROM temp.marks')
    for (const id of missed) insert.run(id, whole.get(id) as string)
    for (const row of mark.all(HIGHLIGHT_START, HIGHLIGHT_END, match) as Array<{ id: number; marked: string }>)
      out.set(row.id, row.marked)
  }
  db.exec('DELETE FROM temp.marks')
  return out
}

/**
 * A long text cut to WINDOW characters around the first place its first word appears (case folded), so a hit in a
 * 3 MB tool result is not tokenized whole to mark one phrase; a short text whole.
 */
function windowOf(text: string, query: string): string {
  if (text.length <= WINDOW) return text
  const word = /[\p{L}\p{N}\p{Co}]+/u.exec(query)?.[0]?.toLowerCase() ?? ''
  const at = word === '' ? -1 : text.toLowerCase().indexOf(word)
  if (at === -1) return text
  const start = Math.max(0, at - WINDOW / 2)
  return text.slice(start, start + WINDOW)
}
