/**
 * What a load tells the main thread while it runs: progress, interim summaries (the panes show the first rows while
 * the rest folds), a live feed's trailing summaries, and a failure. Throttled per load, so a fast load does not flood
 * the main thread; every summary is of the open log as folded so far.
 */

import { PROTOCOL_VERSION, type LensResponse } from '../protocol/messages.ts'
import type { OpenLog } from '../view/open-log.ts'
import { firstWindow as firstWindowOf } from '../view/rows-query.ts'
import type { Load } from './load.ts'

/**
 * Progress and live summaries go out at most this often (a smooth bar), so a fast load does not flood the main
 * thread; the harness itself writes a live log in batches about 200 ms apart.
 */
export const PROGRESS_INTERVAL_MS = 100
/**
 * While a file or `?log=` URL loads, a first summary goes out as soon as events were folded (the panes show the
 * first rows and the cursor moves within the folded part), then at most this often; `final` (ready) only at the end.
 * Each summary re-renders every pane and the chart asks the worker for its new series, on the two cores the fold
 * needs too: a shorter interval made a large log ready later (docs/benchmarks.md).
 */
export const INTERIM_SUMMARY_INTERVAL_MS = 1000
/** Rows of each transcript list (and surface nodes) in a load's first summary: a screenful and the overscan. */
export const FIRST_WINDOW_ROWS = 48

export type PostResponse = (message: LensResponse, transfer: Transferable[]) => void

export class LoadReports {
  constructor(
    private readonly log: OpenLog,
    private readonly post: PostResponse,
  ) {}

  progress(load: Load, force: boolean): void {
    const now = Date.now()
    if (!force && now - load.progressAt < PROGRESS_INTERVAL_MS) return
    load.progressAt = now
    this.post({ v: PROTOCOL_VERSION, type: 'progress', loadId: load.id, progress: this.log.progress() }, [])
  }

  summary(load: Load): void {
    load.summaryAt = Date.now()
    const summary = this.log.summary()
    // The first summary with events brings what the panes show first: the rows' and the cursor's queries would
    // otherwise wait behind the fold's next slice, twice over (state, then rows), before the first row is drawn.
    const firstWindow = !load.windowSent && summary.length > 0 ? firstWindowOf(this.log, FIRST_WINDOW_ROWS) : undefined
    if (firstWindow !== undefined) {
      load.windowSent = true
      // The progress so far goes first (its throttle may have held back the first slice's): the first rows come
      // with how much of the file they are, and the graph estimates a loading log's final size from it.
      this.progress(load, true)
    }
    const window = firstWindow === undefined ? {} : { firstWindow }
    this.post({ v: PROTOCOL_VERSION, type: 'summary', loadId: load.id, summary, ...window }, [])
  }

  /** A summary of a file or `?log=` load still reading: the first as soon as there are events, then throttled. */
  interimSummary(load: Load): void {
    if (this.log.lensLog.length === 0) return
    if (load.interimSent && Date.now() - load.summaryAt < INTERIM_SUMMARY_INTERVAL_MS) return
    load.interimSent = true
    this.summary(load)
  }

  /** A live feed's summaries are throttled with a trailing edge: a burst of chunks always ends with one of all. */
  liveSummary(load: Load): void {
    if (load.liveTimer !== undefined) return
    const wait = Math.max(0, PROGRESS_INTERVAL_MS - (Date.now() - load.summaryAt))
    load.liveTimer = setTimeout(() => {
      load.liveTimer = undefined
      if (load.isCurrent()) this.summary(load)
    }, wait)
  }

  /** The load failed: what folded so far is summarised when it can be, with the error. */
  failed(load: Load, error: unknown): void {
    let summary = null
    try {
      this.log.finish(true)
      summary = this.log.summary()
    } catch {
      // The log could not even be summarised; report the read failure alone.
    }
    const message = error instanceof Error ? error.message : String(error)
    this.post({ v: PROTOCOL_VERSION, type: 'load-failed', loadId: load.id, message, summary }, [])
  }

  /** A load that ended before any byte was folded: the message alone (the open log's last log is not this load's). */
  failedEmpty(load: Load, message: string): void {
    this.post({ v: PROTOCOL_VERSION, type: 'load-failed', loadId: load.id, message, summary: null }, [])
  }
}
