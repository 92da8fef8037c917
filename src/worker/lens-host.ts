/**
 * The worker's message loop, separate from the worker global so the same code runs in-thread (tests, jsdom):
 * each inbound message is parsed once by `parseRequest`, then a load message starts or feeds a `Load` (load.ts) and
 * a query is answered from the open log (queries.ts). One load is current at a time; starting one supersedes the last.
 */

import { parseRequest, type LensRequest } from '../protocol/messages.ts'
import { yieldToEventLoop } from '../platform/yield-to-event-loop.ts'
import { ContextSeriesQueries } from '../view/context-series-query.ts'
import { DetailQueries } from '../view/detail-query.ts'
import { OpenLog, type OpenLogOptions } from '../view/open-log.ts'
import { SearchQueries } from '../view/search-query.ts'
import { TimeQueries } from '../view/time-queries.ts'
import { LogFetchError, openLogUrl, readFailure, type LogDownload } from './fetch-log.ts'
import { sha256Digest } from './file-digest.ts'
import { ChunkQueue, Load, type LoadKind } from './load.ts'
import { LoadReports, type PostResponse } from './load-reports.ts'
import { answerQuery, type QueryContext } from './queries.ts'

/** A stream's first slice folded, then the most folded per task (a chunk longer than that is split). */
export const FIRST_STREAM_SLICE_BYTES = 64 * 1024
export const STREAM_SLICE_BYTES = 256 * 1024
/** Slices of a file read for its digest alone, past where the decoded-bytes budget stopped its fold. */
const HASH_SLICE_BYTES = 8 * 1024 * 1024
/** How far a `?log=` download is read ahead of the fold (the read loop waits beyond it). */
export const READ_AHEAD_BYTES = 2 * 1024 * 1024

type UrlRequest = Extract<LensRequest, { type: 'load-url' }>
/** A `?log=` fetch started the moment its message arrived: the response is taken over in message order. */
type EarlyFetch = { readonly controller: AbortController; readonly opened: Promise<LogDownload> }

export interface LensHostOptions extends OpenLogOptions {
  /** How far a download is read ahead of the fold (default READ_AHEAD_BYTES; tests use less). */
  readonly readAheadBytes?: number
}

/** Build the handler for one worker (or in-thread host). `post` sends a response back. */
export function createLensHost(post: PostResponse, options: LensHostOptions = {}): (data: unknown) => void {
  const readAhead = options.readAheadBytes ?? READ_AHEAD_BYTES
  /**
   * `load-url` requests are fetched the moment they arrive, before the open log is ready (the checksum's
   * WebAssembly compiles meanwhile, at page boot).
   */
  const early = new Map<number, EarlyFetch>()
  // Every message waits for the same promise, so messages keep their arrival order.
  const host = OpenLog.create(options).then((log) => new LensHost(log, post, readAhead, early))
  return (data: unknown) => {
    let req: LensRequest
    try {
      req = parseRequest(data)
    } catch (error) {
      console.error(error)
      return
    }
    if (req.type === 'load-url') {
      const controller = new AbortController()
      const opened = openLogUrl(req.url, req.label, controller.signal)
      // Handled where it is awaited; this only keeps a rejection that lands first from being reported as unhandled.
      opened.catch(() => undefined)
      early.set(req.loadId, { controller, opened })
    }
    void host.then((h) => h.handle(req))
  }
}

class LensHost {
  private current: Load | null = null
  private readonly reports: LoadReports
  private readonly queries: QueryContext

  constructor(
    private readonly log: OpenLog,
    private readonly post: PostResponse,
    private readonly readAhead: number,
    private readonly early: Map<number, EarlyFetch>,
  ) {
    this.reports = new LoadReports(log, post)
    this.queries = {
      log,
      searches: new SearchQueries(),
      times: new TimeQueries(),
      details: new DetailQueries(),
      series: new ContextSeriesQueries(),
    }
  }

  handle(req: LensRequest): Promise<void> | void {
    switch (req.type) {
      case 'load-file':
        return this.loadFile(this.start(req.loadId, 'file'), req.file)
      case 'load-url':
        return this.loadUrl(req)
      case 'load-begin': {
        const load = this.start(req.loadId, req.live ? 'live' : 'stream')
        this.log.begin(req.name, req.totalBytes)
        this.reports.progress(load, true)
        if (load.kind === 'live') this.reports.summary(load)
        return
      }
      case 'load-chunk': {
        const load = this.taking(req.loadId)
        if (load === null) return
        load.queue.push(new Uint8Array(req.bytes))
        return this.drain(load)
      }
      case 'load-end': {
        const load = this.taking(req.loadId)
        if (load === null) return
        // Finished by the drain once the chunks before it are folded.
        load.queue.ended = true
        return this.drain(load)
      }
      case 'cancel':
        return this.cancel(req.loadId)
      default:
        answerQuery(this.queries, req, this.post)
    }
  }

  /** A new load supersedes the current one (its download stops, its queued chunks are dropped). */
  private start(id: number, kind: LoadKind, abort: AbortController | null = null): Load {
    this.current?.supersede()
    this.current = new Load(id, kind, new ChunkQueue(this.readAhead), abort)
    return this.current
  }

  /** The current load, if it is `id` and still takes input. */
  private taking(id: number): Load | null {
    const load = this.current
    return load !== null && load.id === id && load.isCurrent() ? load : null
  }

  private async loadFile(load: Load, file: File): Promise<void> {
    this.log.begin(file.name, file.size)
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

  /** `?log=`: fetched here, its body folded through the same chunk queue as a stream, one slice per task. */
  private async loadUrl(req: UrlRequest): Promise<void> {
    const started = this.early.get(req.loadId)
    this.early.delete(req.loadId)
    if (started === undefined) throw new Error(`lens worker: load-url ${req.loadId} was not started`)
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

  private cancel(id: number): void {
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
