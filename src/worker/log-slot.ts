/**
 * One open log of the worker and the load that feeds it: the page's log (`main`), or the second run the Compare view
 * holds beside it (`other`). A slot runs one load at a time, and a newer load supersedes the last (its download
 * stops, its queued chunks are dropped); every step of a load's async work asks `isCurrent()` before it touches the
 * open log again, so a replaced load's late slices, chunks and timers fall away on their own.
 */

import type { LensRequest, LogSlotName } from '../protocol/messages.ts'
import { yieldToEventLoop } from '../platform/yield-to-event-loop.ts'
import type { OpenLog } from '../view/open-log.ts'
import { LogFetchError, readFailure, type LogDownload } from './fetch-log.ts'
import { sha256Digest } from './file-digest.ts'
import { ChunkQueue, Load, type LoadKind } from './load.ts'
import { LoadReports, type PostResponse } from './load-reports.ts'

/** A stream's first slice folded, then the most folded per task (a chunk longer than that is split). */
export const FIRST_STREAM_SLICE_BYTES = 64 * 1024
export const STREAM_SLICE_BYTES = 256 * 1024
/** Slices of a file read for its digest alone, past where the decoded-bytes budget stopped its fold. */
const HASH_SLICE_BYTES = 8 * 1024 * 1024

type UrlRequest = Extract<LensRequest, { type: 'load-url' }>
/** A `?log=` fetch started the moment its message arrived: the response is taken over in message order. */
export type EarlyFetch = { readonly controller: AbortController; readonly opened: Promise<LogDownload> }

export class LogSlot {
  private current: Load | null = null
  private readonly reports: LoadReports

  constructor(
    readonly name: LogSlotName,
    readonly log: OpenLog,
    post: PostResponse,
    private readonly readAhead: number,
  ) {
    // The page's panes read the main log while it loads; the other run is read once it is whole (the Compare view).
    this.reports = new LoadReports(log, post, { interim: name === 'main' })
  }

  /** Whether load `id` is this slot's (its chunks, end and cancel come here). */
  holds(id: number): boolean {
    return this.current?.id === id
  }

  /** A new load supersedes the current one (its download stops, its queued chunks are dropped). */
  start(id: number, kind: LoadKind, abort: AbortController | null = null): Load {
    this.current?.supersede()
    this.current = new Load(id, kind, new ChunkQueue(this.readAhead), abort)
    return this.current
  }

  /** Forget the load and the log (the Compare view closed: the other run's memory is let go). */
  clear(): void {
    this.current?.supersede()
    this.current = null
    this.log.begin('', null)
  }

  begin(id: number, name: string, totalBytes: number | null, live: boolean): void {
    const load = this.start(id, live ? 'live' : 'stream')
    this.log.begin(name, totalBytes)
    this.reports.progress(load, true)
    if (load.kind === 'live') this.reports.summary(load)
  }

  chunk(id: number, bytes: Uint8Array): Promise<void> | void {
    const load = this.taking(id)
    if (load === null) return
    load.queue.push(bytes)
    return this.drain(load)
  }

  end(id: number): Promise<void> | void {
    const load = this.taking(id)
    if (load === null) return
    // Finished by the drain once the chunks before it are folded.
    load.queue.ended = true
    return this.drain(load)
  }

  /** The current load, if it is `id` and still takes input. */
  private taking(id: number): Load | null {
    const load = this.current
    return load !== null && load.id === id && load.isCurrent() ? load : null
  }

  async loadFile(id: number, file: File): Promise<void> {
    const load = this.start(id, 'file')
    this.log.begin(file.name, file.size)
    this.log.setOrigin({ kind: 'file', file })
    this.reports.progress(load, true)
    try {
      // Hashed as it is read: a link to this file names it by its digest (src/worker/file-digest.ts).
      const digest = await sha256Digest()
      const complete = await this.log.loadBlob(
        file,
        () => {
          if (load.superseded || load.cancelled) return false
          this.reports.progress(load, false)
          this.reports.interimSummary(load)
          return true
        },
        (bytes) => digest?.update(bytes),
      )
      // A newer load took over the open log while a slice was being read: it owns the state now.
      if (load.superseded) return
      if (complete && digest !== null) {
        // The decoded-bytes budget may have stopped the fold early: the digest still covers the whole file.
        for (let offset = digest.bytes; offset < file.size; offset += HASH_SLICE_BYTES) {
          digest.update(new Uint8Array(await file.slice(offset, offset + HASH_SLICE_BYTES).arrayBuffer()))
          if (load.superseded) return
        }
        this.log.setSourceSha256(digest.hex())
      }
      this.close(load, !complete)
    } catch (error) {
      if (load.superseded) return
      load.end()
      this.reports.failed(load, error)
    }
  }

  /** `?log=`: fetched by the host, its body folded through the same chunk queue as a stream, one slice per task. */
  async loadUrl(req: UrlRequest, started: EarlyFetch): Promise<void> {
    const { controller } = started
    const load = this.start(req.loadId, 'url', controller)
    try {
      const { body, totalBytes } = await started.opened
      if (load.superseded || controller.signal.aborted) {
        void body.cancel()
        return
      }
      load.state = 'open'
      this.log.begin(req.name, totalBytes)
      this.log.setOrigin({ kind: 'url', url: req.url, label: req.label })
      this.reports.progress(load, true)
      for (;;) {
        const { done, value } = await body.read()
        // Cancelled, cut by the budget or replaced while this read waited: the load was closed by whoever ended it.
        if (!load.isCurrent()) return
        if (done) break
        load.queue.push(value)
        void this.drain(load)
        await load.queue.waitForRoom(() => load.isCurrent())
        if (!load.isCurrent()) return
      }
      load.queue.ended = true
      void this.drain(load)
    } catch (error) {
      if (controller.signal.aborted || load.superseded) return
      if (load.state === 'opening') {
        // Nothing was read: the error alone.
        load.state = 'closed'
        this.reports.failedEmpty(load, error instanceof LogFetchError ? error.message : readFailure(req.label, error))
        return
      }
      load.end()
      this.reports.failed(load, new Error(readFailure(req.label, error)))
    }
  }

  /** Fold the load's queued chunks, one slice per task, after the messages already queued (a burst's rest, queries). */
  private async drain(load: Load): Promise<void> {
    if (load.draining) return
    load.draining = true
    while (load.isCurrent()) {
      await yieldToEventLoop()
      if (!load.isCurrent()) break
      // At most one slice per task: a fetch may hand over megabytes at once, and the first slice is small so the
      // first rows go out while the code that folds them is still cold.
      const bytes = load.queue.take(this.log.lensLog.progress.inputBytes === 0 ? FIRST_STREAM_SLICE_BYTES : STREAM_SLICE_BYTES)
      if (bytes === undefined) break
      try {
        this.log.push(bytes)
      } catch (error) {
        load.end()
        this.reports.failed(load, error)
        break
      }
      if (this.log.budgetReached) {
        // The decoded-bytes budget stopped the load: it is final with what it kept, later chunks (a live feed's
        // appends, the rest of a download) are dropped; the summary's `sizeBudget` says so.
        this.close(load, false)
        break
      }
      this.reports.progress(load, false)
      if (load.kind === 'live') this.reports.liveSummary(load)
      else this.reports.interimSummary(load)
    }
    load.draining = false
    if (load.isCurrent() && load.queue.ended && load.queue.empty) this.close(load, false)
  }

  /** The load is over (all read, cut by the budget, or a file cancelled mid-slice): final progress and summary. */
  private close(load: Load, cancelled: boolean): void {
    load.end()
    // Cut by the budget: the rest of a download is never read, so stop it (a no-op once the body has ended).
    load.abort?.abort()
    this.log.finish(cancelled)
    this.reports.progress(load, true)
    this.reports.summary(load)
  }

  cancel(id: number): void {
    const load = this.current
    if (load === null || load.id !== id) return
    if (load.state === 'opening') {
      load.abort?.abort()
      load.state = 'closed'
      this.reports.failedEmpty(load, 'Loading was cancelled before any data arrived.')
      return
    }
    if (load.state !== 'open') return
    load.abort?.abort()
    load.cancelled = true
    // A file load notices the flag after its current slice; a stream is closed here with what parsed.
    if (load.kind !== 'file') {
      load.end()
      this.log.finish(true)
      this.reports.summary(load)
    }
  }
}
