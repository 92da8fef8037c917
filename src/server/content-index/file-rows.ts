/**
 * The index's `files` table as the refresh reads it: one row per log found, with the identity, size and seam it had
 * when indexed, so a refresh can tell an unchanged log, an append and anything else apart.
 * And the writes of a file's rows and documents, inside the caller's transaction.
 */

import { open } from 'node:fs/promises'
import { clearMarkers, type ContentDocument } from '../../core/index.ts'
import { SURFACE_CODE, type Db } from './content-db.ts'
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
  last_seq: number
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

export function insertDocuments(db: Db, fileId: number, documents: readonly ContentDocument[]): void {
  const doc = db.prepare(
    `INSERT INTO docs (file_id, seq, turn, step, time, type, tool, is_error, surface, shadowed_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const text = db.prepare('INSERT INTO doc_text (rowid, body) VALUES (?, ?)')
  for (const d of documents) {
    const id = doc.run(
      fileId,
      d.seq,
      d.turn,
      d.step,
      d.time === null ? null : Math.trunc(d.time),
      d.type,
      d.tool,
      d.isError ? 1 : 0,
      SURFACE_CODE[d.surface],
      d.shadowedBy,
    ).lastInsertRowid
    text.run(id, clearMarkers(d.text))
  }
}

/** Indexed documents of `fileId` stored as current that the fresh read finds shadowed. */
export function shadowedSince(
  db: Db,
  fileId: number,
  fresh: readonly ContentDocument[],
): Array<{ seq: number; surface: 'shadowed'; shadowedBy: number | null }> {
  const bySeq = new Map(fresh.map((d) => [d.seq, d]))
  const out: Array<{ seq: number; surface: 'shadowed'; shadowedBy: number | null }> = []
  for (const { seq } of db.prepare('SELECT seq FROM docs WHERE file_id = ? AND surface = 0').all(fileId) as Array<{
    seq: number
  }>) {
    const now = bySeq.get(seq)
    if (now !== undefined && now.surface === 'shadowed') out.push({ seq, surface: 'shadowed', shadowedBy: now.shadowedBy })
  }
  return out
}

export function saveSkipped(db: Db, path: string, identity: FileIdentity, row: FileRow | undefined, reason: string): void {
  db.transaction(() => {
    if (row !== undefined) deleteFile(db, row.id)
    db.prepare(
      `INSERT INTO files (path, dev, ino, birthtime, size, mtime, seam, events, last_seq, documents, skipped)
           VALUES (?, ?, ?, ?, ?, ?, '', 0, -1, 0, ?)`,
    ).run(path, identity.dev, identity.ino, identity.birthtimeMs, identity.size, identity.mtimeMs, reason)
  })()
}

export function deleteFile(db: Db, fileId: number): void {
  db.prepare('DELETE FROM doc_text WHERE rowid IN (SELECT id FROM docs WHERE file_id = ?)').run(fileId)
  db.prepare('DELETE FROM docs WHERE file_id = ?').run(fileId)
  db.prepare('DELETE FROM files WHERE id = ?').run(fileId)
}
