/** A full-text search on the wire: the query, and the slices of results (the core's `SearchMatch`es) streamed back. */

import type { IndexRange, SearchMatch, SpanSteps } from '../core/index.ts'

/** A full-text search (src/core/search): the query and its filters (`null` / empty: no filter). */
export interface SearchSpec {
  readonly text: string
  readonly regex: boolean
  readonly types: readonly string[]
  readonly turn: number | null
  readonly step: number | null
  readonly surfaceOnly: boolean
}

/** One slice of a running search. The main thread asks for the next (`search-more`) until `done`. */
export interface SearchBatch {
  readonly searchId: number
  /** This search is no longer the worker's current one (a newer query replaced it): drop the answer. */
  readonly superseded: boolean
  /** The log was replaced since the last slice: discard what is held, the search restarted on the new log. */
  readonly restarted: boolean
  /** The query does not compile (an invalid or unsafe regex), in one line; nothing else is set. */
  readonly error: string | null
  /** Matches new in this slice (none once `SEARCH_ROWS_MAX` were sent: `total` keeps counting). */
  readonly matches: readonly SearchMatch[]
  readonly total: number
  /** Events scanned so far, of `length`. */
  readonly scanned: number
  readonly length: number
  /** Every record stored so far was scanned; a live log that grows is searched on by the next `search-more`. */
  readonly done: boolean
  /** Event-index ranges (inclusive) during which a matching event was on the model surface, merged; capped. */
  readonly visible: readonly IndexRange[]
  /** Events regex mode did not read in full. */
  readonly cutEvents: number
  /** Once `done`: each range of `visible` with its seqs and the steps whose request carried a match; else null. */
  readonly visibleSteps: readonly SpanSteps[] | null
}

/** Result rows a search sends at most (the main thread holds no more); the count stays exact. */
export const SEARCH_ROWS_MAX = 5000

/** Visible ranges sent at most per slice. */
export const SEARCH_VISIBLE_MAX = 2000
