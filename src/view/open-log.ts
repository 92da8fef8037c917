/**
 * The log open in the worker (`OpenLog`; not a dsh session, which is what the log records): loading a `LensLog` and
 * saying how far it got (progress, the summary). A plain class with no worker globals, so unit tests drive it in Node
 * and a test harness can run it in-thread.
 *
 * The answers the panes ask for are each a `view/*-query.ts` over an `OpenLog` (cursor-query, rows-query,
 * detail-query, context-series-query, ...); they read the log and the replacements mirror (replacement-index.ts) the
 * open log keeps, and compute from the core's structures: nothing here re-implements fold semantics.
 */

import { LensLog, loadContentChecksum, type ContentChecksum } from '../core/index.ts'
import { yieldToEventLoop } from '../platform/yield-to-event-loop.ts'
import { DIAGNOSTICS_MAX, type LoadProgress, type LogSummary, type SizeBudgetCut } from '../protocol/log-summary.ts'
import { ReplacementIndex } from './replacement-index.ts'

/** Slice size for reading a File: big enough to amortise the await, small enough to report progress smoothly. */
export const READ_SLICE_BYTES = 2 * 1024 * 1024
/** The first slice is small, so the first rows are folded and on screen within a few tens of ms of the drop. */
export const FIRST_SLICE_BYTES = 256 * 1024

/**
 * Most decoded (plain-text) bytes of one log the worker holds: 1 GiB. The worker keeps a small multiple of the
 * plain text (docs/benchmarks.md), so this stays inside a worker heap Chromium caps at a few GB, below the plain log
 * size that may end the worker for lack of memory. Past it a load keeps
 * the whole lines before it (every pane works on that prefix, its fold exact) and says so (`LogSummary.sizeBudget`,
 * diagnostic `size-budget`). Tests lower it through `OpenLog.create` / `createLensHost`.
 */
export const DECODED_BYTES_BUDGET = 1024 * 1024 * 1024

export interface OpenLogOptions {
  /** Most decoded bytes per log (default `DECODED_BYTES_BUDGET`). */
  readonly decodedBytesBudget?: number
}

export class OpenLog {
  private log: LensLog
  private name = ''
  private totalBytes: number | null = null
  private startedAt = 0
  private cancelled = false
  private final = false
  private sourceSha256: string | null = null
  private mirror = new ReplacementIndex()

  private constructor(
    private readonly checksum: ContentChecksum,
    private readonly budget: number,
  ) {
    this.log = this.newLog()
  }

  /**
   * Loads the zstd checksum (WebAssembly) once, then gives an empty open log (libzstd compiles at a zstd log's
   * first frame: zstd-wasm.ts).
   */
  static async create(options: OpenLogOptions = {}): Promise<OpenLog> {
    const checksum = await loadContentChecksum()
    return new OpenLog(checksum, options.decodedBytesBudget ?? DECODED_BYTES_BUDGET)
  }

  private newLog(): LensLog {
    return new LensLog({ checksum: this.checksum, plainBytesBudget: this.budget })
  }

  /** Whether the decoded-bytes budget stopped this load: it takes no more input (a live feed stops appending). */
  get budgetReached(): boolean {
    return this.log.budgetCut !== null
  }

  /** The log as loaded so far: what every answer reads. */
  get lensLog(): LensLog {
    return this.log
  }

  /** The replacements so far in the protocol's shape, by seq and by index (mirrored from the core on access). */
  get replacements(): ReplacementIndex {
    this.mirror.sync(this.log)
    return this.mirror
  }

  /** Drop the current log and start a new one (a second file replaces the first cleanly). */
  begin(name: string, totalBytes: number | null): void {
    this.log = this.newLog()
    this.name = name
    this.totalBytes = totalBytes
    this.startedAt = Date.now()
    this.cancelled = false
    this.final = false
    this.sourceSha256 = null
    this.mirror = new ReplacementIndex()
  }

  /** The SHA-256 (hex) of the whole source file, once it has been read through (dropped and picked files). */
  setSourceSha256(hex: string): void {
    this.sourceSha256 = hex
  }

  /** Feed bytes; ignored once the budget stopped the load. */
  push(bytes: Uint8Array): void {
    this.log.push(bytes)
  }

  /** End of input; `cancelled` marks a load stopped early (what parsed so far stays inspectable). */
  finish(cancelled = false): void {
    this.log.finish()
    this.cancelled = cancelled
    this.final = true
  }

  /**
   * Read a Blob (a dropped File) in slices, pushing each into the log.
   * @param onSlice called after every slice; return false to stop (cancel).
   * @param onBytes sees every slice read, before it is folded (the file's digest).
   * @returns false when cancelled (the budget stopping the read is not a cancel: see `budgetReached`).
   */
  async loadBlob(blob: Blob, onSlice: () => boolean, onBytes?: (bytes: Uint8Array) => void): Promise<boolean> {
    // Past the budget nothing more is read from the file.
    for (let offset = 0; offset < blob.size && !this.budgetReached;) {
      const end = offset + (offset === 0 ? FIRST_SLICE_BYTES : READ_SLICE_BYTES)
      const bytes = new Uint8Array(await blob.slice(offset, end).arrayBuffer())
      offset = end
      await yieldToEventLoop()
      if (!onSlice()) return false
      onBytes?.(bytes)
      this.push(bytes)
    }
    return onSlice()
  }

  progress(): LoadProgress {
    const p = this.log.progress
    const seconds = Math.max(0.001, (Date.now() - this.startedAt) / 1000)
    return {
      inputBytes: p.inputBytes,
      totalBytes: this.totalBytes,
      events: p.events,
      lines: p.lines,
      bytesPerSecond: p.inputBytes / seconds,
    }
  }

  summary(): LogSummary {
    const log = this.log
    const timeline = log.fold.timeline
    const replacements = this.replacements
    const surfaceChangeIndices = new Int32Array(timeline.nodeCount)
    for (let node = 0; node < timeline.nodeCount; node++) surfaceChangeIndices[node] = timeline.indexOf(node)
    const diagnosticIndices = [...new Set(log.diagnostics.map((d) => d.index).filter((i): i is number => typeof i === 'number'))]
    diagnosticIndices.sort((a, b) => a - b)
    const first = log.fold.firstViolation
    const last = log.length - 1
    const lastSeq = last < 0 ? -1 : log.seqOf(last)
    return {
      name: this.name,
      length: log.length,
      lastSeq: typeof lastSeq === 'number' ? lastSeq : last,
      header: log.header,
      encoding: log.encoding,
      strictLength: log.strictLength,
      upgradedEvents: log.upgradedEvents,
      diagnostics: log.diagnostics.slice(0, DIAGNOSTICS_MAX),
      diagnosticCount: log.diagnostics.length,
      firstViolation: first === undefined ? null : { index: first.index, seq: first.seq, message: first.message },
      replacements: replacements.all(),
      replaceLayout: replacements.graphLayout(this.final),
      turnIndices: log.turns.starts.toArray(),
      surfaceChangeIndices,
      diagnosticIndices: Int32Array.from(diagnosticIndices),
      seqIsIndex: log.seqIsIndex,
      final: this.final,
      cancelled: this.cancelled,
      sizeBudget: this.sizeBudget(),
      sourceSha256: this.sourceSha256,
    }
  }

  private sizeBudget(): SizeBudgetCut | null {
    const cut = this.log.budgetCut
    if (cut === null) return null
    return {
      budgetBytes: cut.budgetBytes,
      keptBytes: cut.keptBytes,
      inputBytes: cut.inputBytes,
      totalBytes: this.totalBytes,
      events: this.log.length,
    }
  }
}
