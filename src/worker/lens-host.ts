/**
 * The worker's message loop, separate from the worker global so the same code runs in-thread (tests, jsdom):
 * each inbound message is parsed once by `parseRequest`, then dispatched to the `LensSession`.
 */

import { contextSeriesAnswer } from './context-series-query.ts'
import { LensSession, SERIES_SLICE_MS, type LensSessionOptions } from './lens-session.ts'
import { logPrefixFile } from './log-prefix-file.ts'
import { SearchQueries } from './search-query.ts'
import { yieldToEventLoop } from './yield-to-event-loop.ts'
import { stepListAnswer, stepRequestAnswer, stepRequestJsonText } from './step-request-query.ts'
import { PROTOCOL_VERSION, parseRequest, type LensRequest, type LensResponse, type QueryRequest } from './protocol.ts'

/** Progress and live summaries go out at most this often, so a fast load does not flood the main thread. */
export const PROGRESS_INTERVAL_MS = 50
/** While a file or `?log=` URL loads, a first summary goes out as soon as events were folded (the panes show the
 * first rows and the cursor moves within the folded part), then at most this often; `final` (ready) only at the end. */
export const INTERIM_SUMMARY_INTERVAL_MS = 300

export type PostResponse = (message: LensResponse, transfer: Transferable[]) => void

/** Build the handler for one worker (or in-thread host). `post` sends a response back. */
export function createLensHost(post: PostResponse, options: LensSessionOptions = {}): (data: unknown) => void {
  const ready = LensSession.create(options)
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

  const sendProgress = (session: LensSession, loadId: number, force: boolean): void => {
    const now = Date.now()
    if (!force && now - lastProgressAt < PROGRESS_INTERVAL_MS) return
    lastProgressAt = now
    post({ v: PROTOCOL_VERSION, type: 'progress', loadId, progress: session.progress() }, [])
  }

  const sendSummary = (session: LensSession, loadId: number): void => {
    lastSummaryAt = Date.now()
    const summary = session.summary()
    post({ v: PROTOCOL_VERSION, type: 'summary', loadId, summary }, [])
  }

  const sendInterimSummary = (session: LensSession, loadId: number): void => {
    if (session.lensLog.length === 0) return
    if (interimSent && Date.now() - lastSummaryAt < INTERIM_SUMMARY_INTERVAL_MS) return
    interimSent = true
    sendSummary(session, loadId)
  }

  // A stream's chunks wait here and are folded one per task. A fetch hands the worker a whole file in a burst of
  // messages; folding each as it arrives would queue the first rows' and the cursor's queries behind all of it.
  // (`drainingLoad`: the load whose drain loop is running, so a chunk arriving meanwhile only joins the queue.)
  let pendingChunks: Uint8Array[] = []
  let endPending = false
  let drainingLoad = -1

  /** The load is over (all read, cut by the budget, or a file cancelled mid-slice): final progress and summary. */
  const closeLoad = (session: LensSession, loadId: number, cancelled: boolean): void => {
    open = false
    pendingChunks = []
    session.finish(cancelled)
    sendProgress(session, loadId, true)
    sendSummary(session, loadId)
  }

  const drainChunks = async (session: LensSession, loadId: number): Promise<void> => {
    if (drainingLoad === loadId) return
    drainingLoad = loadId
    while (activeLoad === loadId && open) {
      // Fold in a task of its own, after the messages already queued (the rest of a burst, then any query).
      await yieldToEventLoop()
      if (activeLoad !== loadId || !open) break
      const bytes = pendingChunks.shift()
      if (bytes === undefined) break
      try {
        session.push(bytes)
      } catch (error) {
        open = false
        pendingChunks = []
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
  const scheduleLiveSummary = (session: LensSession, loadId: number): void => {
    if (liveTimer !== undefined) return
    const wait = Math.max(0, PROGRESS_INTERVAL_MS - (Date.now() - lastSummaryAt))
    liveTimer = setTimeout(() => {
      liveTimer = undefined
      if (loadId === activeLoad && open) sendSummary(session, loadId)
    }, wait)
  }

  const fail = (session: LensSession, loadId: number, error: unknown): void => {
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

  const loadFile = async (session: LensSession, loadId: number, file: File): Promise<void> => {
    activeLoad = loadId
    live = false
    fileLoad = true
    open = true
    interimSent = false
    pendingChunks = []
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

  const answer = (session: LensSession, req: QueryRequest): void => {
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
        void loadFile(session, req.loadId, req.file)
        return
      case 'load-begin':
        activeLoad = req.loadId
        live = req.live
        fileLoad = false
        open = true
        interimSent = false
        pendingChunks = []
        endPending = false
        session.begin(req.name, req.totalBytes)
        sendProgress(session, req.loadId, true)
        if (live) sendSummary(session, req.loadId)
        return
      case 'load-chunk':
        if (req.loadId !== activeLoad || !open) return
        pendingChunks.push(new Uint8Array(req.bytes))
        void drainChunks(session, req.loadId)
        return
      case 'load-end':
        if (req.loadId !== activeLoad || !open) return
        // Finished by the drain once the chunks before it are folded.
        endPending = true
        void drainChunks(session, req.loadId)
        return
      case 'cancel':
        if (req.loadId !== activeLoad || !open) return
        cancelled.add(req.loadId)
        // A file load notices the flag after its current slice; a stream is closed here with what parsed.
        if (!fileLoad) {
          open = false
          pendingChunks = []
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
    void handle(req)
  }
}
