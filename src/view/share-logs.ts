/**
 * Share…'s logs, read again for the bundle: each log's bytes, the `LensLog` they fold to and its secrets scan, so a
 * redaction replaces exactly what the review listed (the core's `redactLog` takes the bytes, the log they made and
 * its scan). Where the bytes come from:
 * - the open log from a dropped or picked file: its File, read again at build; the open log and its scan are reused
 *   (they are that file's, read through);
 * - the open log from a URL (`?log=`, the demo): fetched again and folded again, so the bundle holds what the URL
 *   serves now, and says so if that is not what the page shows;
 * - the open log from a stream (a session followed over the companion server): the worker kept no bytes, so its
 *   events as followed are written as plain JSONL (the core's `logPrefix` of the whole log) and folded again;
 * - another log (a subagent in the sessions drawer): its File, folded here.
 */

import { logPrefix, type LensLog } from '../core/index.ts'
import { yieldToEventLoop } from '../platform/yield-to-event-loop.ts'
import type { ShareLogSource } from '../protocol/share.ts'
import type { OpenLog } from './open-log.ts'
import { scannedLog, type ScannedLog } from './secrets-query.ts'

/** Folding a copy yields between slices of this size, so the page's queries still get answers. */
const FOLD_SLICE_BYTES = 4 * 1024 * 1024

/** What reading a log again needs of the runtime (the worker's `fetch`): the view stays pure. */
export interface ShareFetch {
  /** The body of a same-origin URL; rejects with why not. */
  bytes(url: string): Promise<Uint8Array>
  /** The text at a URL, or null when nothing answered it (no server, a 404). */
  text(url: string): Promise<string | null>
}

export interface PreparedLog {
  readonly path: string
  readonly sessionId: string | null
  readonly log: LensLog
  readonly scanned: ScannedLog
  /** The bytes `log` was folded from (a file is read when the bundle is built). */
  readonly bytes: () => Promise<Uint8Array>
  /** When the bundle will not hold the bytes as the page opened them, why (else null). */
  readonly note: string | null
}

const encoder = new TextEncoder()

export class ShareReadError extends Error {}

async function readBlob(blob: Blob, what: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await blob.arrayBuffer())
  } catch {
    // Chromium refuses to read a File whose file changed or moved since it was picked.
    throw new ShareReadError(`${what} can no longer be read (it changed or moved on disk since it was opened): open it again`)
  }
}

/** `bytes` folded into a fresh log of the open log's kind (checksum, budget), yielding between slices. */
async function foldCopy(open: OpenLog, bytes: Uint8Array, path: string): Promise<LensLog> {
  const log = open.scratchLog()
  for (let at = 0; at < bytes.length; at += FOLD_SLICE_BYTES) {
    log.push(bytes.subarray(at, at + FOLD_SLICE_BYTES))
    await yieldToEventLoop()
  }
  log.finish()
  if (log.budgetCut !== null)
    throw new ShareReadError(`${path} is larger than the viewer can hold: bundle it with \`dsh-lens bundle ${path}\``)
  return log
}

function sessionIdOf(log: LensLog): string | null {
  const id = log.header?.id
  return typeof id === 'string' ? id : null
}

async function prepared(open: OpenLog, path: string, bytes: Uint8Array, note: string | null): Promise<PreparedLog> {
  const log = await foldCopy(open, bytes, path)
  return { path, sessionId: sessionIdOf(log), log, scanned: scannedLog(log), bytes: () => Promise.resolve(bytes), note }
}

async function fetchAgain(io: ShareFetch, url: string, label: string): Promise<Uint8Array> {
  try {
    return await io.bytes(url)
  } catch (error) {
    throw new ShareReadError(`could not read ${label} again: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const count = (n: number): string => n.toLocaleString('en-US')

export async function prepareLog(open: OpenLog, source: ShareLogSource, io: ShareFetch): Promise<PreparedLog> {
  if (source.kind === 'blob') return prepared(open, source.path, await readBlob(source.blob, source.path), null)
  const shown = open.lensLog
  if (shown.length === 0) throw new ShareReadError('no log is open')
  const origin = open.origin
  if (origin.kind === 'file') {
    if (open.complete) {
      const file = origin.file
      return {
        path: source.path,
        sessionId: sessionIdOf(shown),
        log: shown,
        scanned: scannedLog(shown),
        bytes: () => readBlob(file, source.path),
        note: null,
      }
    }
    return prepared(open, source.path, await readBlob(origin.file, source.path), null)
  }
  if (origin.kind === 'url') {
    const copy = await prepared(open, source.path, await fetchAgain(io, origin.url, origin.label), null)
    if (copy.log.length === shown.length) return copy
    const note = `${origin.label} was read again for the bundle: it has ${count(copy.log.length)} events now (the page shows ${count(shown.length)})`
    return { ...copy, note }
  }
  // A stream: the events as followed, one record per line (lines that were no event are not among them).
  const text = logPrefix(shown, shown.length - 1).parts.join('')
  const note = `a followed session: the bundle holds its ${count(shown.length)} events as followed, as plain JSONL`
  return prepared(open, source.path, encoder.encode(text), note)
}
