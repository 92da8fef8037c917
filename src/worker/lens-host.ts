/**
 * The worker's message loop, separate from the worker global so the same code runs in-thread (tests, jsdom):
 * each inbound message is parsed once by `parseRequest`, then dispatched to the `OpenLog`.
 */

import { contextSeriesAnswer } from '../view/context-series-query.ts'
import { OpenLog, SERIES_SLICE_MS, type OpenLogOptions } from '../view/open-log.ts'
import { logPrefixFile } from '../view/log-prefix-file.ts'
import { LogFetchError, openLogUrl, readFailure, type LogDownload } from './fetch-log.ts'
import { SearchQueries } from '../view/search-query.ts'
import { yieldToEventLoop } from '../platform/yield-to-event-loop.ts'
import { stepListAnswer, stepRequestAnswer, stepRequestJsonText } from '../view/step-request-query.ts'
import { PROTOCOL_VERSION, parseRequest, type LensRequest, type LensResponse, type QueryRequest } from '../protocol/messages.ts'

/**
 * Progress and live summaries go out at most this often (10 Hz: a smooth bar), so a fast load does not flood the
 * main thread; the harness itself writes a live log in batches about 200 ms apart.
 */
export const PROGRESS_INTERVAL_MS = 100
/**
 * While a file or `?log=` URL loads, a first summary goes out as soon as events were folded (the panes show the
 * first rows and the cursor moves within the folded part), then at most this often; `final` (ready) only at the end.
 * Each summary re-renders every pane and the chart asks the worker for its new series, on the two cores the fold
 * needs too: at 300 ms (and progress at 50 ms) the 280k log was ready 27% later from the file input (1555 against
 * 1143-1162 ms) and 9-10% later from a `?log=` link, in two alternating A/B runs of the bench's lanes.
 */
export const INTERIM_SUMMARY_INTERVAL_MS = 1000

/** Rows of each transcript list (and surface nodes) in a load's first summary: a screenful and the overscan. */
export const FIRST_WINDOW_ROWS = 48

/** A stream's first slice folded, then the most folded per task (a chunk longer than that is split). */
export const FIRST_STREAM_SLICE_BYTES = 64 * 1024
export const STREAM_SLICE_BYTES = 256 * 1024
/** How far a `?log=` download is read ahead of the fold (the read loop waits beyond it). */
export const READ_AHEAD_BYTES = 2 * 1024 * 1024

export type PostResponse = (message: LensResponse, transfer: Transferable[]) => void

type UrlRequest = Extract<LensRequest, { type: 'load-url' }>

export interface LensHostOptions extends OpenLogOptions {
  /** How far a download is read ahead of the fold (default READ_AHEAD_BYTES; tests use less). */
  readonly readAheadBytes?: number
}

/** Build the handler for one worker (or in-thread host). `post` sends a response back. */
export function createLensHost(post: PostResponse, options: LensHostOptions = {}): (data: unknown) => void {
  const readAhead = options.readAheadBytes ?? READ_AHEAD_BYTES
  const ready = OpenLog.create(options)
  const searches = new SearchQueries()
  let activeLoad = -1
  let live = false
  let fileLoad = false
  /** Whether the active load still accepts input (false once finished, failed or cancelled). */
  let open = false
  const cancelled = new Set<number>()
  let lastProgressAt = 0
  let lastSummaryAt = 0
  /** Whether the active load already sent its first interim summary. */
  let interimSent = false
  /** Whether the active load's summaries already carried the first window (FirstWindow). */
  let windowSent = false
  /** A load starts: no interim summary, no first window sent yet. */
  const resetSummaryFlags = (): void => {
    interimSent = false
    windowSent = false
  }

  const sendProgress = (session: OpenLog, loadId: number, force: boolean): void => {
    const now = Date.now()
    if (!force && now - lastProgressAt < PROGRESS_INTERVAL_MS) return
    lastProgressAt = now
    post({ v: PROTOCOL_VERSION, type: 'progress', loadId, progress: session.progress() }, [])
  }

  const sendSummary = (session: OpenLog, loadId: number): void => {
    lastSummaryAt = Date.now()
    const summary = session.summary()
    // The first summary with events brings what the panes show first: the rows' and the cursor's queries would
    // otherwise wait behind the fold's next slice, twice over (state, then rows), before the first row is drawn.
    const firstWindow = !windowSent && summary.length > 0 ? session.firstWindow(FIRST_WINDOW_ROWS) : undefined
    if (firstWindow !== undefined) {
      windowSent = true
      // The progress so far goes first (its 100 ms throttle may have held back the first slice's): the first rows
      // come with how much of the file they are, and the graph estimates a loading log's final size from it.
      sendProgress(session, loadId, true)
    }
    post({ v: PROTOCOL_VERSION, type: 'summary', loadId, summary, ...(firstWindow === undefined ? {} : { firstWindow }) }, [])
  }

  const sendInterimSummary = (session: OpenLog, loadId: number): void => {
    if (session.lensLog.length === 0) return
    if (interimSent && Date.now() - lastSummaryAt < INTERIM_SUMMARY_INTERVAL_MS) return
    interimSent = true
    sendSummary(session, loadId)
  }

  // A stream's chunks wait here and are folded one per task. A fetch hands the worker a whole file in a burst of
  // messages; folding each as it arrives would queue the first rows' and the cursor's queries behind all of it.
  // (`drainingLoad`: the load whose drain loop is running, so a chunk arriving meanwhile only joins the queue.)
  let pendingChunks: Uint8Array[] = []
  let pendingBytes = 0
  /** The `?log=` read loop, paused while READ_AHEAD_BYTES wait (see there). */
  let wakeReader: (() => void) | null = null
  const resumeReader = (): void => {
    const wake = wakeReader
    wakeReader = null
    wake?.()
  }
  const queueChunk = (bytes: Uint8Array): void => {
    pendingChunks.push(bytes)
    pendingBytes += bytes.length
  }
  const dropPending = (): void => {
    pendingChunks = []
    pendingBytes = 0
    resumeReader()
  }
  let endPending = false
  let drainingLoad = -1
  /** The active `?log=` download, aborted when its load ends early (cancel, budget, a newer load). */
  let download: AbortController | null = null
  /** A `load-url` whose response has not arrived: nothing is folded yet and the session still holds the last log. */
  let opening = -1

  const stopDownload = (): void => {
    download?.abort()
    download = null
    opening = -1
  }

  /** The load is over (all read, cut by the budget, or a file cancelled mid-slice): final progress and summary. */
  const closeLoad = (session: OpenLog, loadId: number, cancelled: boolean): void => {
    open = false
    dropPending()
    // Cut by the budget: the rest of a download is never read, so stop it (a no-op once the body has ended).
    stopDownload()
    session.finish(cancelled)
    sendProgress(session, loadId, true)
    sendSummary(session, loadId)
  }

  const drainChunks = async (session: OpenLog, loadId: number): Promise<void> => {
    if (drainingLoad === loadId) return
    drainingLoad = loadId
    while (activeLoad === loadId && open) {
      // Fold in a task of its own, after the messages already queued (the rest of a burst, then any query).
      await yieldToEventLoop()
      if (activeLoad !== loadId || !open) break
      const head = pendingChunks[0]
      if (head === undefined) break
      // At most one slice per task: a fetch may hand over megabytes at once, and the first slice is small so the
      // first rows go out while the code that folds them is still cold.
      const limit = session.lensLog.progress.inputBytes === 0 ? FIRST_STREAM_SLICE_BYTES : STREAM_SLICE_BYTES
      const bytes = head.length > limit ? head.subarray(0, limit) : head
      if (bytes === head) pendingChunks.shift()
      else pendingChunks[0] = head.subarray(limit)
      pendingBytes -= bytes.length
      if (pendingBytes < readAhead) resumeReader()
      try {
        session.push(bytes)
      } catch (error) {
        open = false
        dropPending()
        fail(session, loadId, error)
        break
      }
      if (session.budgetReached) {
        // The decoded-bytes budget stopped the load: it is final with what it kept, later chunks (a live feed's
        // appends, the rest of a download) are dropped; the summary's `sizeBudget` says so.
        closeLoad(session, loadId, false)
        break
      }
      sendProgress(session, loadId, false)
      if (live) scheduleLiveSummary(session, loadId)
      else sendInterimSummary(session, loadId)
    }
    if (drainingLoad === loadId) drainingLoad = -1
    if (activeLoad !== loadId || !open || !endPending || pendingChunks.length > 0) return
    closeLoad(session, loadId, false)
  }

  // Live summaries are throttled with a trailing edge: a burst of chunks always ends with a summary of all of them.
  let liveTimer: ReturnType<typeof setTimeout> | undefined
  const scheduleLiveSummary = (session: OpenLog, loadId: number): void => {
    if (liveTimer !== undefined) return
    const wait = Math.max(0, PROGRESS_INTERVAL_MS - (Date.now() - lastSummaryAt))
    liveTimer = setTimeout(() => {
      liveTimer = undefined
      if (loadId === activeLoad && open) sendSummary(session, loadId)
    }, wait)
  }

  const fail = (session: OpenLog, loadId: number, error: unknown): void => {
    let summary = null
    try {
      session.finish(true)
      summary = session.summary()
    } catch {
      // The log could not even be summarised; report the read failure alone.
    }
    post(
      {
        v: PROTOCOL_VERSION,
        type: 'load-failed',
        loadId,
        message: error instanceof Error ? error.message : String(error),
        summary,
      },
      [],
    )
  }

  const loadFile = async (session: OpenLog, loadId: number, file: File): Promise<void> => {
    activeLoad = loadId
    live = false
    fileLoad = true
    open = true
    resetSummaryFlags()
    dropPending()
    session.begin(file.name, file.size)
    sendProgress(session, loadId, true)
    try {
      const complete = await session.loadBlob(file, () => {
        if (activeLoad !== loadId || cancelled.has(loadId)) return false
        sendProgress(session, loadId, false)
        sendInterimSummary(session, loadId)
        return true
      })
      // A newer load took over the session while a slice was being read: it owns the state now.
      if (activeLoad !== loadId) return
      closeLoad(session, loadId, !complete)
    } catch (error) {
      if (activeLoad === loadId) {
        open = false
        fail(session, loadId, error)
      }
    }
  }

  /**
   * `load-url` requests are fetched the moment they arrive, before the session is ready (the checksum's WebAssembly
   * compiles meanwhile, at page boot); `loadUrl` takes the response over in message order.
   */
  const early = new Map<number, { controller: AbortController; opened: Promise<LogDownload> }>()
  const startFetch = (req: UrlRequest): void => {
    const controller = new AbortController()
    const opened = openLogUrl(req.url, req.label, controller.signal)
    // Handled where it is awaited; this only keeps a rejection that lands first from being reported as unhandled.
    opened.catch(() => undefined)
    early.set(req.loadId, { controller, opened })
  }

  /** `?log=`: fetched here, its body folded through the same chunk queue as a stream, one chunk per task. */
  const loadUrl = async (session: OpenLog, req: UrlRequest): Promise<void> => {
    stopDownload()
    const { loadId } = req
    activeLoad = loadId
    live = false
    fileLoad = false
    open = false
    dropPending()
    endPending = false
    opening = loadId
    const started = early.get(loadId)
    early.delete(loadId)
    if (started === undefined) throw new Error(`lens worker: load-url ${loadId} was not started`)
    const { controller } = started
    download = controller
    try {
      const { body, totalBytes } = await started.opened
      if (activeLoad !== loadId || controller.signal.aborted) {
        void body.cancel()
        return
      }
      opening = -1
      open = true
      resetSummaryFlags()
      session.begin(req.name, totalBytes)
      sendProgress(session, loadId, true)
      for (;;) {
        const { done, value } = await body.read()
        // Cancelled, cut by the budget or replaced while this read waited: the load was closed by whoever ended it.
        if (activeLoad !== loadId || !open) return
        if (done) break
        queueChunk(value)
        void drainChunks(session, loadId)
        // Read ahead of the fold by a bounded amount only. While a fast download streams in, Chrome runs the
        // worker's network tasks before its posted messages: reading all of it first starved the fold's own
        // continuation and every query (the first cursor and rows questions waited 300-450 ms, until the last
        // byte had arrived). Not reading lets the stream's buffer fill and the network tasks stop.
        while (pendingBytes >= readAhead && activeLoad === loadId && open)
          await new Promise<void>((resolve) => (wakeReader = resolve))
        if (activeLoad !== loadId || !open) return
      }
      endPending = true
      void drainChunks(session, loadId)
    } catch (error) {
      if (controller.signal.aborted || activeLoad !== loadId) return
      if (opening === loadId) {
        // Nothing was read: the error alone (the session's last log is not this load's).
        opening = -1
        const message = error instanceof LogFetchError ? error.message : readFailure(req.label, error)
        post({ v: PROTOCOL_VERSION, type: 'load-failed', loadId, message, summary: null }, [])
        return
      }
      open = false
      dropPending()
      fail(session, loadId, new Error(readFailure(req.label, error)))
    } finally {
      if (download === controller) download = null
    }
  }

  const answer = (session: OpenLog, req: QueryRequest): void => {
    try {
      let result: unknown
      const transfer: Transferable[] = []
      switch (req.type) {
        case 'state-at': {
          const snapshot = session.stateAt(req.index)
          // Fresh arrays per answer: transfer them instead of copying (a drag asks every frame).
          transfer.push(snapshot.surfaceSeqs.buffer, snapshot.surfaceIndices.buffer)
          result = snapshot
          break
        }
        case 'transcript-rows':
          result = session.transcriptRows(req.list, req.from, req.to)
          break
        case 'summaries':
          result = session.summaries(req.indices)
          break
        case 'detail':
          result = session.detail(req.index, req.cursor)
          break
        case 'index-of-seq':
          result = session.indexOfSeq(req.seq)
          break
        case 'search':
          result = searches.start(session.lensLog, req.searchId, req.spec)
          break
        case 'search-more':
          result = searches.more(session.lensLog, req.searchId)
          break
        case 'log-prefix':
          result = logPrefixFile(session.lensLog, req.index)
          break
        case 'detail-text':
          result = session.detailText(req.index, req.field, req.offset, req.length)
          break
        case 'detail-blob':
          result = session.detailBlob(req.index, req.field)
          break
        case 'step-request':
          result = stepRequestAnswer(session.lensLog, req.target, req.have)
          break
        case 'step-list':
          result = stepListAnswer(session.lensLog)
          break
        case 'step-request-json':
          result = stepRequestJsonText(session.lensLog, req.turn, req.step)
          break
        case 'context-series': {
          // Time-boxed: a large log's series is built over several queries, other messages run in between.
          const series = session.contextSeries(SERIES_SLICE_MS)
          const { answer, transfer: buffers } = contextSeriesAnswer(series, req, series.caughtUp(session.lensLog))
          transfer.push(...buffers)
          result = answer
          break
        }
      }
      post({ v: PROTOCOL_VERSION, type: 'reply', id: req.id, ok: true, result }, transfer)
    } catch (error) {
      post(
        {
          v: PROTOCOL_VERSION,
          type: 'reply',
          id: req.id,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        },
        [],
      )
    }
  }

  const handle = async (req: LensRequest): Promise<void> => {
    // Every handler awaits the same promise, so messages keep their arrival order.
    const session = await ready
    switch (req.type) {
      case 'load-file':
        stopDownload()
        void loadFile(session, req.loadId, req.file)
        return
      case 'load-url':
        void loadUrl(session, req)
        return
      case 'load-begin':
        stopDownload()
        activeLoad = req.loadId
        live = req.live
        fileLoad = false
        open = true
        resetSummaryFlags()
        dropPending()
        endPending = false
        session.begin(req.name, req.totalBytes)
        sendProgress(session, req.loadId, true)
        if (live) sendSummary(session, req.loadId)
        return
      case 'load-chunk':
        if (req.loadId !== activeLoad || !open) return
        queueChunk(new Uint8Array(req.bytes))
        void drainChunks(session, req.loadId)
        return
      case 'load-end':
        if (req.loadId !== activeLoad || !open) return
        // Finished by the drain once the chunks before it are folded.
        endPending = true
        void drainChunks(session, req.loadId)
        return
      case 'cancel':
        if (req.loadId !== activeLoad) return
        if (opening === req.loadId) {
          stopDownload()
          const message = 'Loading was cancelled before any data arrived.'
          post({ v: PROTOCOL_VERSION, type: 'load-failed', loadId: req.loadId, message, summary: null }, [])
          return
        }
        if (!open) return
        stopDownload()
        cancelled.add(req.loadId)
        // A file load notices the flag after its current slice; a stream is closed here with what parsed.
        if (!fileLoad) {
          open = false
          dropPending()
          session.finish(true)
          sendSummary(session, req.loadId)
        }
        return
      default:
        answer(session, req)
    }
  }

  return (data: unknown) => {
    let req: LensRequest
    try {
      req = parseRequest(data)
    } catch (error) {
      console.error(error)
      return
    }
    if (req.type === 'load-url') startFetch(req)
    void handle(req)
  }
}
