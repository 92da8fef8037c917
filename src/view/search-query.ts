/**
 * The worker's one running search: a `LogSearch` over the session's log, advanced one time-boxed slice per
 * `search` / `search-more` request. The main thread pulls the next slice when it has taken the last, so results
 * stream in, other queries (a drag's `state-at`) run between slices, and a new query simply replaces the running
 * one (its pending pulls answer `superseded`). A live log keeps growing: a finished search scans on when pulled.
 */

import { LogSearch, compileMatcher, stepsInRanges, type LensLog, type SearchFilters, type SearchMatch } from '../core/index.ts'
import { SEARCH_ROWS_MAX, SEARCH_VISIBLE_MAX, type SearchBatch, type SearchSpec } from '../protocol/search.ts'

/** Work per slice in the worker: short, so a query behind it waits at most this long. */
export const SEARCH_SLICE_MS = 12
/** Rows per slice at most: a batch stays small to post and to append on the main thread. */
export const SEARCH_BATCH_ROWS = 500

interface Running {
  readonly id: number
  readonly spec: SearchSpec
  log: LensLog
  search: LogSearch | null
  error: string | null
  sent: number
}

function filtersOf(spec: SearchSpec): SearchFilters {
  return {
    ...(spec.types.length > 0 ? { types: spec.types } : {}),
    ...(spec.turn === null ? {} : { turn: spec.turn }),
    ...(spec.step === null ? {} : { step: spec.step }),
    ...(spec.surfaceOnly ? { surfaceOnly: true } : {}),
  }
}

export class SearchQueries {
  private running: Running | null = null

  /** Start search `id` on `log` (replacing any other) and return its first slice. */
  start(log: LensLog, id: number, spec: SearchSpec): SearchBatch {
    this.running = { id, spec, log, search: null, error: null, sent: 0 }
    this.compile(this.running)
    return this.slice(this.running, false)
  }

  /** The next slice of search `id`, on `log` (the session's current one). */
  more(log: LensLog, id: number): SearchBatch {
    const running = this.running
    if (running === null || running.id !== id) return superseded(id)
    let restarted = false
    if (running.log !== log) {
      running.log = log
      running.sent = 0
      this.compile(running)
      restarted = true
    }
    return this.slice(running, restarted)
  }

  private compile(running: Running): void {
    const compiled = compileMatcher(running.spec.text, running.spec.regex)
    running.search = compiled.ok ? new LogSearch(running.log, compiled.matcher, filtersOf(running.spec)) : null
    running.error = compiled.ok ? null : compiled.error
  }

  private slice(running: Running, restarted: boolean): SearchBatch {
    const search = running.search
    if (search === null) {
      return {
        ...superseded(running.id),
        superseded: false,
        restarted,
        error: running.error,
        done: true,
        length: running.log.length,
      }
    }
    const deadline = Date.now() + SEARCH_SLICE_MS
    const matches: SearchMatch[] = []
    while (!search.done && Date.now() <= deadline && matches.length < SEARCH_BATCH_ROWS) {
      for (const m of search.step({ deadline, maxMatches: SEARCH_BATCH_ROWS - matches.length })) {
        if (running.sent >= SEARCH_ROWS_MAX) continue
        running.sent++
        matches.push(m)
      }
    }
    const all = search.visible()
    const visible = all.length > SEARCH_VISIBLE_MAX ? all.slice(0, SEARCH_VISIBLE_MAX) : all
    return {
      searchId: running.id,
      superseded: false,
      restarted,
      error: null,
      matches,
      total: search.total,
      scanned: search.scannedEvents,
      length: running.log.length,
      done: search.done,
      visible,
      cutEvents: search.cutEvents,
      // Said in words once the search is done (its ranges no longer move): the steps whose request carried a match.
      visibleSteps: search.done ? stepsInRanges(running.log, visible) : null,
    }
  }
}

function superseded(searchId: number): SearchBatch {
  return {
    searchId,
    superseded: true,
    restarted: false,
    error: null,
    matches: [],
    total: 0,
    scanned: 0,
    length: 0,
    done: true,
    visible: [],
    cutEvents: 0,
    visibleSteps: null,
  }
}
