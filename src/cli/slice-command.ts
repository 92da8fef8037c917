/**
 * `lens slice FILE --to SEQ`: the log prefix through event SEQ as a plain `session.jsonl` on standard output (the
 * core's `logPrefix`: header, every record up to SEQ, a packed row straddling SEQ re-encoded shorter). zstd input gives
 * plain JSONL. Exit 2 for an unreadable file, a log without a valid header, or a SEQ that is no event of the log.
 */

import type { Writable } from 'node:stream'
import { logPrefix, type LensLog } from '../core/index.ts'
import { readLog } from './read-log.ts'

export class SliceUsageError extends Error {}

/** Index of the event whose seq is `seq` (index === seq in a valid log; else the first event carrying it), or -1. */
export function indexOfSeq(log: LensLog, seq: number): number {
  if (seq < log.length && log.seqOf(seq) === seq) return seq
  for (let i = 0; i < log.length; i++) if (log.seqOf(i) === seq) return i
  return -1
}

/** Write the pieces in batches, waiting for the stream to drain, so a large prefix never sits in memory twice. */
async function writeParts(out: Writable, parts: readonly string[]): Promise<void> {
  const BATCH = 1 << 20
  let pending = ''
  for (const part of parts) {
    pending += part
    if (pending.length < BATCH) continue
    if (!out.write(pending)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
    pending = ''
  }
  await new Promise<void>((resolve, reject) => out.write(pending, (error) => (error ? reject(error) : resolve())))
}

export async function runSlice(args: readonly string[], out: Writable = process.stdout): Promise<number> {
  const toArg = args.indexOf('--to')
  const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--to')
  if (file === undefined) throw new SliceUsageError('slice needs a FILE')
  if (toArg === -1) throw new SliceUsageError('slice needs --to SEQ')
  const seq = Number(args[toArg + 1])
  if (!Number.isSafeInteger(seq) || seq < 0) throw new SliceUsageError('--to takes a non-negative integer SEQ')
  const log = await readLog(file)
  const index = indexOfSeq(log, seq)
  if (index < 0) {
    process.stderr.write(
      `dsh-lens: ${file} has no event with seq ${seq} (its ${log.length} events end at seq ${String(log.seqOf(log.length - 1))})\n`,
    )
    return 2
  }
  let prefix
  try {
    prefix = logPrefix(log, index)
  } catch (error) {
    process.stderr.write(`dsh-lens: cannot slice ${file}: ${(error as Error).message}\n`)
    return 2
  }
  await writeParts(out, prefix.parts)
  return 0
}
