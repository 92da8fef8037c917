/**
 * The CLI reads a whole log into memory (`MEMORY_PER_PLAIN_BYTE` times its plain text, docs/benchmarks.md). Past Node's
 * heap limit V8 does not throw: the process dies with "FATAL ERROR: Reached heap limit ... JavaScript heap out of
 * memory" and a native stack. This guard turns that into one clear line and exit 2 (a `LogTooLargeError`, which main
 * reports as an unreadable log): before reading, when a plain file's size already says it cannot fit; while reading
 * (any encoding, standard input too), when the heap is nearly full.
 */

import { getHeapStatistics } from 'node:v8'
import { UnreadableLogError } from './read-log-error.ts'

/** Memory the CLI holds per byte of plain text (measured: docs/benchmarks.md). */
export const MEMORY_PER_PLAIN_BYTE = 1.8
/** Share of the heap limit past which reading stops: V8 collects hard before this, so what is used is live. */
export const HEAP_STOP_SHARE = 0.9
/**
 * Asking V8 for the heap in use walks its spaces, a visible share of a large `fold --json`.
 * It is skipped while even a pessimistic estimate fits with room to spare: what the process needs besides the log,
 * plus several times the measured bytes per plain byte.
 */
const BASELINE_HEAP_BYTES = 256 * 2 ** 20
const PESSIMISTIC_PER_PLAIN_BYTE = 4

export class LogTooLargeError extends UnreadableLogError {}

export interface HeapGuardOptions {
  /** Heap limit in bytes (default: V8's `heap_size_limit`); tests inject a small one. */
  readonly heapLimitBytes?: number
  /** Heap in use (default: V8's `used_heap_size`). */
  readonly heapUsedBytes?: () => number
}

const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MB`

export class HeapGuard {
  private readonly limit: number
  private readonly used: () => number

  constructor(
    private readonly path: string,
    options: HeapGuardOptions = {},
  ) {
    this.limit = options.heapLimitBytes ?? getHeapStatistics().heap_size_limit
    this.used = options.heapUsedBytes ?? (() => getHeapStatistics().used_heap_size)
  }

  /** `--max-old-space-size` (MB) that would hold `bytes`, rounded up to a power of two. */
  private advice(bytes: number): string {
    const needed = 2 ** Math.ceil(Math.log2(Math.max(bytes, this.limit * 2) / 2 ** 20))
    return `raise it with NODE_OPTIONS=--max-old-space-size=${needed}`
  }

  /** A plain log of `size` bytes: refuse it before reading when it cannot fit. */
  checkPlainSize(size: number): void {
    const needed = size * MEMORY_PER_PLAIN_BYTE
    if (needed <= this.limit * HEAP_STOP_SHARE) return
    throw new LogTooLargeError(
      `${this.path} is ${mb(size)} of plain text; reading it takes about ${mb(needed)} of memory, more than Node's heap limit here (${mb(this.limit)}): ${this.advice(needed / HEAP_STOP_SHARE)}`,
    )
  }

  /** After a slice (`plainBytes` decoded so far): stop while the process can still say why. */
  checkHeap(readBytes: number, totalBytes: number | null, plainBytes: number): void {
    if (BASELINE_HEAP_BYTES + plainBytes * PESSIMISTIC_PER_PLAIN_BYTE <= this.limit * HEAP_STOP_SHARE) return
    const used = this.used()
    if (used <= this.limit * HEAP_STOP_SHARE) return
    const of = totalBytes === null ? '' : ` of ${mb(totalBytes)}`
    throw new LogTooLargeError(
      `${this.path}: stopped after reading ${mb(readBytes)}${of}: Node's heap is ${Math.round((used / this.limit) * 100)}% full (limit ${mb(this.limit)}): ${this.advice(totalBytes === null ? this.limit * 2 : (totalBytes / readBytes) * used)}`,
    )
  }
}
