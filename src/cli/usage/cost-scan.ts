/**
 * The cost digest of one log file, read only as far as needed: an unchanged file (identity, size, mtime) is not read,
 * a file that only grew is read on from where the last read stopped (after checking that the bytes just before are
 * the same), anything else is read from the start. The ideas of the sessions home's digest scan
 * (src/server/digest-scan.ts), for the core's `CostDigestCollector` and a state kept across processes.
 */

import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import {
  CostDigestCollector,
  hasZstdMagic,
  type ContentChecksum,
  type CostDigestState,
  type CostFacts,
  type DigestHeader,
} from '../../core/index.ts'
import { sameFile, type FileIdentity } from '../../server/catalog/digest-scan.ts'
import { PlainLineReader } from '../../server/tail/plain-lines.ts'

/** What is kept of a file between runs: enough to tell whether it changed, and its facts. */
export interface FileDigest {
  readonly identity: FileIdentity
  readonly encoding: 'zstd' | 'jsonl'
  /** Where reading goes on when the file grows, or null when it cannot (a record across frames, a defect). */
  readonly resumeAt: number | null
  readonly lines: number
  /** A hash of the bytes just before `resumeAt`: a rewrite in place shows as a change there. */
  readonly seam: string
  readonly header: DigestHeader | null
  readonly facts: CostFacts
  readonly skippedLines: number
  /** A structural defect stopped the read (a zstd file whose framing is lost). */
  readonly broken: string | null
}

export interface ScanResult {
  readonly digest: FileDigest
  /** The collector's state to resume from (kept beside the digest, read only when the file grows). */
  readonly state: CostDigestState
  readonly how: 'full' | 'resumed'
  readonly bytesRead: number
}

/** Seam length: records end alike, so it reaches back over more than one record's tail (as digest-scan.ts). */
const SEAM_BYTES = 4096
const CHUNK_BYTES = 1 << 20

async function seamAt(fh: FileHandle, at: number): Promise<string> {
  const bytes = new Uint8Array(Math.min(SEAM_BYTES, at))
  const { bytesRead } = await fh.read(bytes, 0, bytes.length, at - bytes.length)
  return createHash('sha256').update(bytes.subarray(0, bytesRead)).digest('base64')
}

export function unchanged(previous: Pick<FileDigest, 'identity'>, identity: FileIdentity): boolean {
  return (
    sameFile(previous.identity, identity) &&
    previous.identity.size === identity.size &&
    previous.identity.mtimeMs === identity.mtimeMs
  )
}

/**
 * Reads `path` (whose stat is `identity`) up to `identity.size`, from where `previous` stopped when it only grew and
 * its state is given, else from the start.
 */
export async function scanCost(
  path: string,
  identity: FileIdentity,
  previous: { digest: Omit<FileDigest, 'facts'>; state: CostDigestState } | undefined,
  checksum: ContentChecksum | undefined,
): Promise<ScanResult> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    if (!(await fh.stat()).isFile()) throw new Error('not a regular file')
    const from = previous?.digest.resumeAt ?? null
    const resumable =
      previous !== undefined &&
      from !== null &&
      sameFile(previous.digest.identity, identity) &&
      identity.size >= previous.digest.identity.size &&
      (await seamAt(fh, from)) === previous.digest.seam
    if (resumable) return await read(fh, identity, from, previous)
    return await read(fh, identity, 0, undefined)
  } finally {
    await fh.close()
  }

  async function read(
    fh: FileHandle,
    identity: FileIdentity,
    start: number,
    resume: { digest: Omit<FileDigest, 'facts'>; state: CostDigestState } | undefined,
  ): Promise<ScanResult> {
    const collector = resume === undefined ? new CostDigestCollector() : CostDigestCollector.resume(resume.state)
    let encoding = resume?.digest.encoding
    let reader: PlainLineReader | undefined
    let broken: string | null = null
    let position = start
    const buffer = new Uint8Array(CHUNK_BYTES)
    while (position < identity.size && broken === null) {
      const { bytesRead } = await fh.read(buffer, 0, Math.min(CHUNK_BYTES, identity.size - position), position)
      if (bytesRead === 0) break
      // The reader may keep views of what it is given (a frame still incomplete): hand it a copy.
      const bytes = buffer.slice(0, bytesRead)
      encoding ??= hasZstdMagic(bytes) ? 'zstd' : 'jsonl'
      reader ??= new PlainLineReader(
        encoding,
        start,
        {
          line: (line) => (line.line === 1 ? collector.observeHeader(line.text) : collector.observeLine(line.text)),
          // A damaged frame's lines are lost to the digest as to a tail; reading goes on after it.
          defect: () => undefined,
          corrupt: (message) => {
            broken = message
          },
        },
        checksum,
        resume?.digest.lines ?? 0,
      )
      reader.push(bytes)
      position += bytesRead
    }
    const resumeAt = reader === undefined ? start : reader.broken ? null : reader.committedEnd
    return {
      digest: {
        identity,
        encoding: encoding ?? 'jsonl',
        resumeAt,
        lines: reader?.lineCount ?? resume?.digest.lines ?? 0,
        seam: resumeAt === null ? '' : await seamAt(fh, resumeAt),
        header: collector.header(),
        facts: collector.facts(),
        skippedLines: collector.skippedLines,
        broken,
      },
      state: collector.state(),
      how: resume === undefined ? 'full' : 'resumed',
      bytesRead: position - start,
    }
  }
}
