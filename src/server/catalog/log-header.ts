/**
 * Reads just enough of a log to decode and judge its first line: the first JSONL line, or the first zstd frame. A
 * frame the harness wrote holds the header alone and is a few hundred bytes; a log compressed in one piece by the
 * `zstd` command holds the whole log in its first frame, so when that frame is not complete within the first bytes,
 * line 1 is decoded from the frame's start (the core's `zstdFirstLine`) instead of waiting for the frame's end.
 */

import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import {
  concatBytes,
  harnessMessages,
  hasZstdMagic,
  judgeHeaderLine,
  notALog,
  notALogMessage,
  zstdFirstLine,
  type ContentChecksum,
} from '../../core/index.ts'
import { PlainLineReader } from '../tail/plain-lines.ts'

export interface HeaderFacts {
  readonly encoding: 'zstd' | 'jsonl'
  readonly header: Record<string, unknown> | null
  /** Why the header could not be read or judged. */
  readonly error?: string
  /** A defect that does not stop the log from being read (the core's diagnostic text), e.g. a one-frame zstd log. */
  readonly warning?: string
}

/** Bytes read looking for line 1 through whole frames or lines; past it, a zstd frame is decoded from its start. */
const WHOLE_FRAME_LIMIT = 1024 * 1024
const READ_BYTES = 16 * 1024

export async function readLogHeader(path: string, checksum: ContentChecksum | undefined): Promise<HeaderFacts> {
  // O_NONBLOCK and an fstat: a FIFO or device swapped in after the guard's check is refused, never read or waited on.
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    if (!(await fh.stat()).isFile()) return { encoding: 'jsonl', header: null, error: 'not a regular file' }
    let text: string | undefined
    let corrupt: string | undefined
    let headerFrameHoldsMore = false
    let reader: PlainLineReader | undefined
    const read: Uint8Array[] = []
    let position = 0
    while (text === undefined && corrupt === undefined && position < WHOLE_FRAME_LIMIT) {
      const buffer = new Uint8Array(READ_BYTES)
      const { bytesRead } = await fh.read(buffer, 0, buffer.length, position)
      if (bytesRead === 0) break
      const bytes = buffer.subarray(0, bytesRead)
      // The first read holds the first KiB (or the whole file): bytes that are no log get the core's one sentence.
      const what = position === 0 && !hasZstdMagic(bytes) ? notALog(bytes) : null
      if (what !== null) return { encoding: 'jsonl', header: null, error: notALogMessage(what) }
      read.push(bytes)
      reader ??= new PlainLineReader(
        hasZstdMagic(bytes) ? 'zstd' : 'jsonl',
        0,
        {
          line: (line) => {
            if (text === undefined) text = line.text
            // Line 2 from the same frame as line 1: the header frame holds more than the header.
            else if (line.line === 2 && !line.resumable) headerFrameHoldsMore = true
          },
          // A damaged first frame is as bad as a broken one here: the header is in it.
          defect: (defect) => {
            corrupt ??= defect.message
          },
          corrupt: (message) => {
            corrupt = message
          },
        },
        checksum,
      )
      reader.push(bytes)
      position += bytesRead
    }
    const encoding = reader?.encoding ?? 'jsonl'
    if (text === undefined && corrupt === undefined && encoding === 'zstd') {
      const first = zstdFirstLine(concatBytes(read, position))
      if (first.ok) {
        text = first.text
        headerFrameHoldsMore = first.frameHoldsMore
      } else corrupt = first.why
    }
    if (text === undefined) return { encoding, header: null, error: corrupt ?? 'no complete header line yet' }
    const verdict = judgeHeaderLine(text)
    const header = (verdict.header as Record<string, unknown> | null) ?? null
    const warning = headerFrameHoldsMore ? harnessMessages.ZSTD.headerFrame : undefined
    return {
      encoding,
      header,
      ...(verdict.defect === undefined ? {} : { error: verdict.defect.message }),
      ...(warning === undefined ? {} : { warning }),
    }
  } finally {
    await fh.close()
  }
}
