/** Reads a log file (or standard input) into a LensLog in slices: the CLI never holds the file as one string. */

import { createReadStream } from 'node:fs'
import { LensLog, loadContentChecksum } from '../core/index.ts'

export class UnreadableLogError extends Error {}

/** Read `path` ('-' for standard input) fully into a new LensLog. */
export async function readLog(path: string, options: { upgradeLegacy?: boolean } = {}): Promise<LensLog> {
  const log = new LensLog({ checksum: await loadContentChecksum(), upgradeLegacy: options.upgradeLegacy ?? true })
  const stream = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 })
  try {
    for await (const chunk of stream) log.push(chunk as Uint8Array)
  } catch (error) {
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
  return log
}
