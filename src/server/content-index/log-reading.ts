/**
 * One session log read for the content index: its bytes into a LensLog, extracted into documents (the core's
 * ContentExtractor). A log whose session is still running (its last turn open) is kept open, so that when it grows
 * only the appended bytes are decoded and folded; any other log is finished (a torn tail closed) and let go.
 *
 * Identity is the file's (device, inode, birth time), as the sessions list's digest scan has it
 * (src/server/catalog/digest-scan.ts): the same file grown, with the bytes just before its old end unchanged, is an append.
 */

import { createHash } from 'node:crypto'
import { constants, type Stats } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { ContentExtractor, LensLog, type ContentChecksum, type ContentDocument, type Reclassified } from '../../core/index.ts'
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
  /** Whether the session is still running (its last turn open): its LensLog is kept for the next append. */
  readonly open: boolean
}

/** An open (growing) log kept between reads. */
export interface OpenLog {
  readonly log: LensLog
  readonly extractor: ContentExtractor
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
    const log = resume?.log ?? new LensLog({ checksum })
    const extractor = resume?.extractor ?? new ContentExtractor(log)
    let position = resume?.identity.size ?? 0
    while (position < identity.size) {
      const slice = Buffer.allocUnsafe(Math.min(SLICE_BYTES, identity.size - position))
      const { bytesRead } = await fh.read(slice, 0, slice.length, position)
      if (bytesRead === 0) break
      log.push(slice.subarray(0, bytesRead))
      position += bytesRead
    }
    const read = { ...identity, size: position }
    const running = log.turns.openTurn !== undefined
    if (!running) log.finish()
    const { documents, reclassified } = extractor.next()
    const last = log.seqOf(log.length - 1)
    const refusal = refusalOf(log)
    const outcome: ReadOutcome = {
      identity: read,
      seam: await seamAt(fh, position),
      documents,
      reclassified,
      header: log.header === null ? null : (log.header as unknown as Record<string, unknown>),
      title: extractor.title,
      events: log.length,
      lastSeq: typeof last === 'number' && Number.isSafeInteger(last) ? last : -1,
      refusal,
      open: running && refusal === null,
    }
    return { outcome, keep: outcome.open ? { log, extractor, identity: read } : undefined }
  } finally {
    await fh.close()
  }
}

/** Why a file is no session log the index can hold, in the core's words; null when it is one. */
function refusalOf(log: LensLog): string | null {
  const notALog = log.diagnostics.find((d) => d.code === 'not-a-log')
  if (notALog !== undefined) return notALog.message
  if (log.header === null) {
    const first = log.diagnostics.find((d) => d.severity === 'error')
    return first?.message ?? 'it has no session header'
  }
  return null
}
