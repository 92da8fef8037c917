/**
 * The index's rows, as the refresh reads and writes them: one `files` row per log found, with the identity, size and
 * seam it had when indexed (so a refresh can tell an unchanged log, an append and anything else apart), and its
 * documents (`docs` and the words in `doc_text`), whose row ids are the file's range (content-db.ts). Writes run
 * inside the caller's transaction.
 */

import { open } from 'node:fs/promises'
import { clearMarkers, type ContentDocument, type Reclassified } from '../../core/index.ts'
import { docId, fileRange, MAX_FILE_ID, SURFACE_CODE, type Db } from './content-db.ts'
import type { PackedWords, ReadOutcome } from './log-reading.ts'
import { sameFile, seamAt, type FileIdentity } from './log-reading.ts'

export interface FileRow {
  id: number
  path: string
  dev: number
  ino: number
  birthtime: number
  size: number
  mtime: number
  seam: string
  events: number
  skipped: string | null
}

export function rowIdentity(row: FileRow): FileIdentity {
  return { dev: row.dev, ino: row.ino, birthtimeMs: row.birthtime, size: row.size, mtimeMs: row.mtime }
}

/** The same file, grown, with the bytes before its old end unchanged. */
export async function isAppend(path: string, row: FileRow, identity: FileIdentity): Promise<boolean> {
  if (!sameFile(rowIdentity(row), identity) || identity.size < row.size || row.seam === '') return false
  const fh = await open(path, 'r').catch(() => null)
  if (fh === null) return false
  try {
    return (await seamAt(fh, row.size)) === row.seam
  } finally {
    await fh.close()
  }
}

/** Why a log could not be read, in words. */
export function readError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'ENOENT') return 'it was removed while being read'
  if (code === 'EISDIR') return 'it is not a regular file'
  return (error as Error).message
}

/** Thrown when file ids run out (2^21 logs indexed over the file's life): the index is then made anew. */
export class FileIdsExhausted extends Error {}

export class FileRows {
  private prepared: ReturnType<typeof prepare> | undefined

  constructor(private readonly db: Db) {}

  /** Prepared on the first write (a damaged index then shows while writing, where it is rebuilt). */
  private get statements(): ReturnType<typeof prepare> {
    this.prepared ??= prepare(this.db)
    return this.prepared
  }

  /**
   * Saves what a read of `path` found. `row` is its row from before, if any; `grown` says the read went on from where
   * that row's read stopped (the same file, appended to): then only its documents past the row's events are new, and
   * earlier ones a replacement shadowed since change class. Anything else replaces the file's documents.
   */
  saveRead(path: string, outcome: ReadOutcome, row: FileRow | undefined, grown: 'resumed' | 'reread' | false): void {
    const fileId = row?.id ?? this.newFile(path)
    let documents = outcome.documents
    let reclassified = outcome.reclassified
    if (grown === 'reread' && row !== undefined) {
      // Read again from the start: the events indexed before are known; those now shadowed are told apart here.
      reclassified = this.shadowedSince(fileId, documents)
      documents = documents.filter((d) => d.index >= row.events)
    } else if (grown === false && row !== undefined) {
      this.dropDocuments(fileId)
    }
    this.insert(fileId, documents, outcome.documents, outcome.words)
    for (const r of reclassified) this.restand(fileId, r)
    const header = outcome.header ?? {}
    const str = (key: string): string | null => (typeof header[key] === 'string' ? (header[key] as string) : null)
    const identity = outcome.identity
    this.statements.update.run(
      str('id'),
      str('parentSession'),
      str('cwd'),
      outcome.title,
      typeof header['createdAt'] === 'number' ? Math.trunc(header['createdAt']) : null,
      identity.dev,
      identity.ino,
      identity.birthtimeMs,
      identity.size,
      identity.mtimeMs,
      outcome.seam,
      outcome.events,
      outcome.lastSeq,
      ...fileRange(fileId),
      fileId,
    )
  }

  /** A file found that cannot be indexed: kept as skipped with its reason (and none of its documents). */
  saveSkipped(path: string, identity: FileIdentity, row: FileRow | undefined, reason: string): void {
    const fileId = row?.id ?? this.newFile(path)
    if (row !== undefined) this.dropDocuments(fileId)
    this.statements.skipped.run(identity.dev, identity.ino, identity.birthtimeMs, identity.size, identity.mtimeMs, reason, fileId)
  }

  /** A file gone: its row and its documents leave the index. */
  remove(fileId: number): void {
    this.dropDocuments(fileId)
    this.statements.dropFile.run(fileId)
  }

  private newFile(path: string): number {
    const id = Number(this.statements.insertFile.run(path).lastInsertRowid)
    if (id > MAX_FILE_ID) throw new FileIdsExhausted(`the content index has given out ${MAX_FILE_ID} file ids`)
    return id
  }

  /** `documents` (some of `all`, the read's documents, whose words `packed` holds when the read packed them). */
  private insert(
    fileId: number,
    documents: readonly ContentDocument[],
    all: readonly ContentDocument[],
    packed: PackedWords | undefined,
  ): void {
    const { doc, words } = this.statements
    // Where each document's words are in `packed`: by position in `all` (`documents` may skip its first ones).
    const skip = all.length - documents.length
    for (const [k, d] of documents.entries()) {
      const id = docId(fileId, d.index)
      const place = d.place
      doc.run(
        id,
        d.seq,
        d.turn,
        d.step,
        d.time === null ? null : Math.trunc(d.time),
        d.type,
        d.tool,
        d.isError ? 1 : 0,
        SURFACE_CODE[d.surface],
        d.shadowedBy,
        place?.frameAt ?? null,
        place?.frameEnd ?? null,
        place?.lineAt ?? null,
        place === null ? d.text : null,
      )
      // The text is the index's words only; NUL and the highlight markers become U+FFFD (the harness's rule). Packed
      // words are that already, as UTF-8: bound as bytes, which FTS5 reads as its text.
      if (packed === undefined) words.run(id, clearMarkers(d.text))
      else {
        const end = packed.ends[skip + k] as number
        const start = skip + k === 0 ? 0 : (packed.ends[skip + k - 1] as number)
        words.run(id, Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset + start, end - start))
      }
    }
  }

  private restand(fileId: number, r: Reclassified): void {
    const [lo, hi] = fileRange(fileId)
    this.statements.restand.run(SURFACE_CODE[r.surface], r.shadowedBy, lo, hi, r.seq)
  }

  /** Documents of `fileId` stored as current that the fresh read `fresh` finds shadowed. */
  private shadowedSince(fileId: number, fresh: readonly ContentDocument[]): Reclassified[] {
    const bySeq = new Map(fresh.map((d) => [d.seq, d]))
    const out: Reclassified[] = []
    for (const { seq } of this.statements.current.all(...fileRange(fileId)) as Array<{ seq: number }>) {
      const now = bySeq.get(seq)
      if (now !== undefined && now.surface === 'shadowed') out.push({ seq, surface: 'shadowed', shadowedBy: now.shadowedBy })
    }
    return out
  }

  private dropDocuments(fileId: number): void {
    const [lo, hi] = fileRange(fileId)
    this.statements.dropWords.run(lo, hi)
    this.statements.dropDocs.run(lo, hi)
  }
}

function prepare(db: Db) {
  return {
    insertFile: db.prepare(
      `INSERT INTO files (path, dev, ino, birthtime, size, mtime, seam, events, last_seq, documents)
       VALUES (?, 0, 0, 0, 0, 0, '', 0, -1, 0)`,
    ),
    doc: db.prepare(
      `INSERT INTO docs (id, seq, turn, step, time, type, tool, is_error, surface, shadowed_by, frame_at, frame_end, line_at, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    words: db.prepare('INSERT INTO doc_text (rowid, body) VALUES (?, ?)'),
    restand: db.prepare('UPDATE docs SET surface = ?, shadowed_by = ? WHERE id BETWEEN ? AND ? AND seq = ?'),
    current: db.prepare('SELECT id, seq FROM docs WHERE id BETWEEN ? AND ? AND surface = 0'),
    dropWords: db.prepare('DELETE FROM doc_text WHERE rowid BETWEEN ? AND ?'),
    dropDocs: db.prepare('DELETE FROM docs WHERE id BETWEEN ? AND ?'),
    dropFile: db.prepare('DELETE FROM files WHERE id = ?'),
    update: db.prepare(
      `UPDATE files SET session_id = ?, parent_id = ?, project = ?, title = ?, created_at = ?, dev = ?, ino = ?,
         birthtime = ?, size = ?, mtime = ?, seam = ?, events = ?, last_seq = max(last_seq, ?),
         documents = (SELECT count(*) FROM docs WHERE id BETWEEN ? AND ?), skipped = NULL
       WHERE id = ?`,
    ),
    skipped: db.prepare(
      `UPDATE files SET dev = ?, ino = ?, birthtime = ?, size = ?, mtime = ?, seam = '', events = 0, last_seq = -1,
         documents = 0, skipped = ? WHERE id = ?`,
    ),
  }
}
