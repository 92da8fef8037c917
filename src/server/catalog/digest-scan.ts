/**
 * The sessions list's scan of one log (title, first prompt, event count, open turn: the core's SessionDigestCollector),
 * kept per file so a scan is never repeated for nothing: a file whose identity (device, inode, birth time), size and
 * mtime are unchanged is not read again, and a file that only grew is read on from where the last scan stopped (the
 * end of its last complete zstd frame or JSONL line), after checking that the bytes just before that point are still
 * the same. Anything else (a shrink, a new inode, a rewrite in place) scans the file from the start.
 */

import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { SessionDigestCollector, hasZstdMagic, type ContentChecksum, type SessionDigest } from '../../core/index.ts'
import { PlainLineReader } from '../tail/plain-lines.ts'

export interface FileIdentity {
  readonly dev: number
  readonly ino: number
  readonly birthtimeMs: number
  readonly size: number
  readonly mtimeMs: number
}

export interface DigestState {
  readonly identity: FileIdentity
  readonly digest: SessionDigest
  /** Where reading goes on when the file grows, or null when it cannot (a record running across frames, a defect). */
  readonly resumeAt: number | null
  readonly encoding: 'zstd' | 'jsonl'
  /** Plaintext lines before `resumeAt` (the header is line 1). */
  readonly lines: number
  /** A hash of the bytes just before `resumeAt`: a rewrite in place shows as a change there. */
  readonly seam: string
  /** How the last scan went: `full` from the start, `resumed` from `resumeAt`, `cached` not read at all. */
  readonly how: 'full' | 'resumed' | 'cached'
  /** Bytes read by the last scan. */
  readonly bytesRead: number
  /** The collector to read on with (private to the scanner: reading on mutates it). */
  readonly collector: SessionDigestCollector
}

/**
 * Records end alike (`…"surfaceOp":"append"}`), so the seam must reach back over more than one record's tail to
 * see a rewrite; a rewrite in place that keeps these bytes is not seen (the harness appends, or swaps in a new inode).
 */
const SEAM_BYTES = 4096

export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.birthtimeMs === b.birthtimeMs
}

export interface ScanOptions {
  readonly checksum: ContentChecksum | undefined
  /** Bytes per read; between reads the event loop serves other work. */
  readonly chunkBytes?: number
}

/**
 * Scans `path` (whose stat is `identity`) given the state of its last scan, if any. Reads up to `identity.size`: bytes
 * written after the stat are left for the next scan.
 */
export async function scanDigest(
  path: string,
  identity: FileIdentity,
  previous: DigestState | undefined,
  options: ScanOptions,
): Promise<DigestState> {
  if (
    previous !== undefined &&
    sameFile(previous.identity, identity) &&
    previous.identity.size === identity.size &&
    previous.identity.mtimeMs === identity.mtimeMs
  ) {
    return { ...previous, how: 'cached', bytesRead: 0 }
  }
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    if (!(await fh.stat()).isFile()) throw new Error('not a regular file')
    const resumable =
      previous !== undefined &&
      previous.resumeAt !== null &&
      sameFile(previous.identity, identity) &&
      identity.size >= previous.identity.size &&
      (await seamHolds(fh, previous.resumeAt, previous.seam))
    if (resumable) return await read(fh, identity, previous.resumeAt as number, previous, options)
    return await read(fh, identity, 0, undefined, options)
  } finally {
    await fh.close()
  }
}

async function seamAt(fh: FileHandle, at: number): Promise<string> {
  const bytes = new Uint8Array(Math.min(SEAM_BYTES, at))
  const { bytesRead } = await fh.read(bytes, 0, bytes.length, at - bytes.length)
  return createHash('sha256').update(bytes.subarray(0, bytesRead)).digest('base64')
}

async function seamHolds(fh: FileHandle, at: number, seam: string): Promise<boolean> {
  return (await seamAt(fh, at)) === seam
}

async function read(
  fh: FileHandle,
  identity: FileIdentity,
  from: number,
  previous: DigestState | undefined,
  options: ScanOptions,
): Promise<DigestState> {
  const chunkBytes = options.chunkBytes ?? 1024 * 1024
  const collector = previous?.collector ?? new SessionDigestCollector()
  let encoding = previous?.encoding
  let reader: PlainLineReader | undefined
  let stopped = false
  let position = from
  const buffer = new Uint8Array(chunkBytes)
  while (position < identity.size && !stopped) {
    const want = Math.min(chunkBytes, identity.size - position)
    const { bytesRead } = await fh.read(buffer, 0, want, position)
    if (bytesRead === 0) break
    // The reader may keep views of what it is given (a frame still incomplete): hand it a copy of the shared buffer.
    const bytes = buffer.slice(0, bytesRead)
    encoding ??= hasZstdMagic(bytes) ? 'zstd' : 'jsonl'
    reader ??= new PlainLineReader(
      encoding,
      from,
      {
        // Line 1 is the header, not a record.
        line: (line) => {
          if (line.line > 1) collector.observeLine(line.text)
        },
        // A damaged frame's lines are lost to a list as they are to the tail; reading goes on after it.
        defect: () => undefined,
        corrupt: () => {
          stopped = true
        },
      },
      options.checksum,
      previous?.lines ?? 0,
    )
    reader.push(bytes)
    position += bytesRead
  }
  const resumeAt = reader === undefined ? from : reader.broken ? null : reader.committedEnd
  const seam = resumeAt === null ? '' : await seamAt(fh, resumeAt)
  return {
    identity,
    digest: collector.digest(),
    resumeAt,
    encoding: encoding ?? 'jsonl',
    lines: reader?.lineCount ?? previous?.lines ?? 0,
    seam,
    how: previous === undefined ? 'full' : 'resumed',
    bytesRead: position - from,
    collector,
  }
}
