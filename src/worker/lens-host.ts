/**
 * The worker's message loop, separate from the worker global so the same code runs in-thread (tests, jsdom):
 * each inbound message is parsed once by `parseRequest`, then a load message starts or feeds a load in one of the
 * worker's two open logs (log-slot.ts: `main`, the page's log, and `other`, the second run the Compare view holds
 * beside it), and a query is answered from them (queries.ts).
 */

import { parseRequest, type LensRequest, type LogSlotName } from '../protocol/messages.ts'
import { CompareQueries } from '../view/compare-query.ts'
import { ContextSeriesQueries } from '../view/context-series-query.ts'
import { DetailQueries } from '../view/detail-query.ts'
import { OpenLog, type OpenLogOptions } from '../view/open-log.ts'
import { SearchQueries } from '../view/search-query.ts'
import { ShareQueries } from '../view/share-query.ts'
import { TimeQueries } from '../view/time-queries.ts'
import { openLogUrl } from './fetch-log.ts'
import type { PostResponse } from './load-reports.ts'
import { LogSlot, type EarlyFetch } from './log-slot.ts'
import { answerQuery, type QueryContext } from './queries.ts'
import { workerShareFetch } from './share-fetch.ts'
import { CostQueries } from '../view/cost-query.ts'

/** How far a `?log=` download is read ahead of the fold (the read loop waits beyond it). */
export const READ_AHEAD_BYTES = 2 * 1024 * 1024

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
  private readonly main: LogSlot
  /** The Compare view's second run: made when it is first loaded, emptied when the view closes. */
  private otherSlot: LogSlot | null = null
  private readonly queries: QueryContext

  constructor(
    log: OpenLog,
    private readonly post: PostResponse,
    private readonly readAhead: number,
    private readonly early: Map<number, EarlyFetch>,
  ) {
    this.main = new LogSlot('main', log, post, readAhead)
    const other = (): OpenLog => this.other().log
    this.queries = {
      log,
      get other() {
        return other()
      },
      searches: new SearchQueries(),
      times: new TimeQueries(),
      details: new DetailQueries(),
      series: new ContextSeriesQueries(),
      share: new ShareQueries(workerShareFetch),
      compare: new CompareQueries(),
      costs: new CostQueries(),
    }
  }

  private other(): LogSlot {
    this.otherSlot ??= new LogSlot('other', this.main.log.sibling(), this.post, this.readAhead)
    return this.otherSlot
  }

  private slot(name: LogSlotName | undefined): LogSlot {
    return name === 'other' ? this.other() : this.main
  }

  /** The slot whose current load is `id` (chunks, end and cancel name the load, not the slot). */
  private holding(id: number): LogSlot | null {
    if (this.main.holds(id)) return this.main
    return this.otherSlot?.holds(id) === true ? this.otherSlot : null
  }

  handle(req: LensRequest): Promise<void> | void {
    switch (req.type) {
      case 'load-file':
        return this.slot(req.slot).loadFile(req.loadId, req.file)
      case 'load-url': {
        const started = this.early.get(req.loadId)
        this.early.delete(req.loadId)
        if (started === undefined) throw new Error(`lens worker: load-url ${req.loadId} was not started`)
        return this.main.loadUrl(req, started)
      }
      case 'load-begin':
        return this.slot(req.slot).begin(req.loadId, req.name, req.totalBytes, req.live)
      case 'load-chunk':
        return this.holding(req.loadId)?.chunk(req.loadId, new Uint8Array(req.bytes))
      case 'load-end':
        return this.holding(req.loadId)?.end(req.loadId)
      case 'cancel':
        return this.holding(req.loadId)?.cancel(req.loadId)
      case 'compare-close':
        // The Compare view closed: nothing of it is kept (its comparison, the other run's log).
        this.queries.compare.close()
        this.otherSlot?.clear()
        return answerQuery(this.queries, req, this.post)
      default:
        answerQuery(this.queries, req, this.post)
    }
  }
}
