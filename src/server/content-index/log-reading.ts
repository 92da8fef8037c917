/**
 * One session log read for the content index: its bytes into the core's ContentLog, which makes its documents as it
 * decodes. A log whose session is still running (its last turn open) is kept open, so that when it grows only the
 * appended bytes are decoded and folded; any other log is finished (a torn tail closed) and let go.
 *
 * Identity is the file's (device, inode, birth time), as the sessions list's digest scan has it
 * (src/server/catalog/digest-scan.ts): the same file grown, with the bytes just before its old end unchanged, is an append.
 */

import { createHash } from 'node:crypto'
import { constants, type Stats } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { clearMarkers, ContentLog, type ContentChecksum, type ContentDocument, type Reclassified } from '../../core/index.ts'
import { sameFile, type FileIdentity } from '../catalog/digest-scan.ts'

export { sameFile, type FileIdentity }

export function identityOf(stats: Stats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, birthtimeMs: stats.birthtimeMs, size: stats.size, mtimeMs: stats.mtimeMs }
}

/** Bytes hashed just before a recorded end: a rewrite in place shows as a change there (see digest-scan.ts). */
const SEAM_BYTES = 4096
const SLICE_BYTES = 8 << 20

export async function seamAt(fh: FileHandle, at: number): Promise<string> {
  const bytes = new Uint8Array(Math.min(SEAM_BYTES, at))
  const { bytesRead } = await fh.read(bytes, 0, bytes.length, at - bytes.length)
  return createHash('sha256').update(bytes.subarray(0, bytesRead)).digest('base64')
}

export interface ReadOutcome {
  readonly identity: FileIdentity
  readonly seam: string
  readonly documents: ContentDocument[]
  readonly reclassified: Reclassified[]
  readonly header: Record<string, unknown> | null
  readonly title: string | null
  readonly events: number
  readonly lastSeq: number
  /** Why the file cannot be indexed (it is no session log, it has no header), or null. */
  readonly refusal: string | null
  /** Whether the session is still running (its last turn open): its ContentLog is kept for the next append. */
  readonly open: boolean
  /**
   * The documents' words as UTF-8, one after another (document k's are `bytes[ends[k-1]..ends[k]]`), when the read
   * was made on another thread: bytes cross threads without a copy, and SQLite takes them as they are. The documents'
   * own `text` is then empty, but for those kept with their text (no place).
   */
  readonly words?: PackedWords
}

export interface PackedWords {
  readonly bytes: Uint8Array
  readonly ends: Uint32Array
}

const utf8 = new TextEncoder()

/** The outcome with its documents' words packed (see `ReadOutcome.words`), and the buffers to transfer. */
export function packWords(outcome: ReadOutcome): { outcome: ReadOutcome; transfer: ArrayBuffer[] } {
  const encoded = outcome.documents.map((d) => utf8.encode(clearMarkers(d.text)))
  const ends = new Uint32Array(encoded.length)
  let size = 0
  for (const [k, part] of encoded.entries()) ends[k] = size += part.length
  const bytes = new Uint8Array(size)
  for (const [k, part] of encoded.entries()) bytes.set(part, (ends[k] as number) - part.length)
  const documents = outcome.documents.map((d) => (d.place === null ? d : { ...d, text: '' }))
  return { outcome: { ...outcome, documents, words: { bytes, ends } }, transfer: [bytes.buffer as ArrayBuffer, ends.buffer] }
}

/** An open (growing) log kept between reads. */
export interface OpenLog {
  readonly log: ContentLog
  identity: FileIdentity
}

/**
 * Reads `path` up to `identity.size`: from `live.identity.size` on when `live` is the same file grown (only the new
 * bytes), else from the start.
 */
export async function readForIndex(
  path: string,
  identity: FileIdentity,
  checksum: ContentChecksum,
  live: OpenLog | undefined,
): Promise<{ outcome: ReadOutcome; keep: OpenLog | undefined }> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const st = await fh.stat()
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' })
    const resume =
      live !== undefined && sameFile(live.identity, identity) && identity.size >= live.identity.size ? live : undefined
    const log = resume?.log ?? new ContentLog({ checksum })
    let position = resume?.identity.size ?? 0
    while (position < identity.size) {
      const slice = Buffer.allocUnsafe(Math.min(SLICE_BYTES, identity.size - position))
      const { bytesRead } = await fh.read(slice, 0, slice.length, position)
      if (bytesRead === 0) break
      log.push(slice.subarray(0, bytesRead))
      position += bytesRead
    }
    const read = { ...identity, size: position }
    const running = log.running
    if (!running) log.finish()
    const { documents, reclassified } = log.next()
    const refusal = log.refusal
    const outcome: ReadOutcome = {
      identity: read,
      seam: await seamAt(fh, position),
      documents,
      reclassified,
      header: log.header === null ? null : (log.header as unknown as Record<string, unknown>),
      title: log.title,
      events: log.length,
      lastSeq: log.lastSeq,
      refusal,
      open: running && refusal === null,
    }
    return { outcome, keep: outcome.open ? { log, identity: read } : undefined }
  } finally {
    await fh.close()
  }
}
