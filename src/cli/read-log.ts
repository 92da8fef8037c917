/** Reads a log file (or standard input) into a LensLog in slices: the CLI never holds the file as one string. */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { LensLog, hasZstdMagic, loadContentChecksum, type LogIndex } from '../core/index.ts'
import { HeapGuard, type HeapGuardOptions } from './heap-guard.ts'
import { UnreadableLogError } from './read-log-error.ts'

export { UnreadableLogError }

/**
 * Read `path` ('-' for standard input) fully into a new LensLog. `keep`: the indexes the command reads (kept current
 * while reading, instead of built afterwards by a second pass over the records); `fold` names none.
 * @throws UnreadableLogError (a `LogTooLargeError` when it cannot fit in Node's heap: heap-guard.ts; the core's
 *   `not-a-log` sentence for bytes that are no session log)
 */
export async function readLog(
  path: string,
  options: { upgradeLegacy?: boolean; heap?: HeapGuardOptions; keep?: readonly LogIndex[] } = {},
): Promise<LensLog> {
  const log = new LensLog({
    checksum: await loadContentChecksum(),
    upgradeLegacy: options.upgradeLegacy ?? true,
    keep: options.keep ?? [],
  })
  const guard = new HeapGuard(path === '-' ? 'standard input' : path, options.heap)
  let size: number | null = null
  let read = 0
  const push = (bytes: Uint8Array): void => {
    // A plain file's size says at once whether it fits (before its first slice is folded); then the heap is watched.
    if (read === 0 && size !== null && !hasZstdMagic(bytes)) guard.checkPlainSize(size)
    log.push(bytes)
    read += bytes.length
    guard.checkHeap(read, size, log.progress.plainBytes)
  }
  try {
    if (path === '-') for await (const chunk of process.stdin) push(chunk as Uint8Array)
    else readFileInSlices(path, push, (n) => (size = n))
  } catch (error) {
    if (error instanceof UnreadableLogError) throw error
    const code = (error as NodeJS.ErrnoException).code
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : String(error)
    throw new UnreadableLogError(`cannot read ${path}: ${reason}`)
  }
  log.finish()
  // Bytes that are no log at all (an image, an archive) get the core's one sentence, as the viewer shows it.
  const refusal = log.diagnostics.find((d) => d.code === 'not-a-log')
  if (refusal !== undefined) throw new UnreadableLogError(`${path === '-' ? 'standard input' : path}: ${refusal.message}`)
  return log
}

/** Slice size for files: a few large synchronous reads beat a stream's 64 KiB-1 MiB chunks and event-loop turns. */
const FILE_SLICE_BYTES = 8 << 20

/**
 * A regular file is read synchronously in fresh 8 MiB slices (the log may keep views of what it was given, so
 * a buffer is never reused). Nothing else runs in the CLI meanwhile, so blocking costs nothing and saves the
 * idle gaps of a stream. Non-regular files (a FIFO, a character device) are read the same way until EOF.
 */
function readFileInSlices(path: string, push: (bytes: Uint8Array) => void, onSize: (bytes: number) => void): void {
  const fd = openSync(path, 'r')
  try {
    const stat = fstatSync(fd)
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' })
    const size = stat.isFile() ? stat.size : null
    if (size !== null) onSize(size)
    let read = 0
    for (;;) {
      // A small file gets a slice its size (+1 to see EOF in the same read), not 8 MiB: allocating and
      // collecting the big buffer was a visible part of a small fold's start-up.
      const want = size === null ? FILE_SLICE_BYTES : Math.min(FILE_SLICE_BYTES, Math.max(size - read + 1, 64 << 10))
      const slice = Buffer.allocUnsafe(want)
      const n = readSync(fd, slice, 0, want, null)
      if (n === 0) break
      read += n
      push(slice.subarray(0, n))
    }
  } finally {
    closeSync(fd)
  }
}
