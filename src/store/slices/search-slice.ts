/**
 * Full-text search as view state: the query, the rows found so far (capped by the worker at `SEARCH_ROWS_MAX`),
 * the exact count, and when a matching message was on the surface. The worker does the searching in slices
 * (src/view/search-query.ts); this slice pulls slice after slice while its search is the current one, restarts
 * on a new query (typing is debounced), and pulls again when a live log grows or a new log loads.
 */

import type { SearchBatch, SearchSpec } from '../../protocol/search.ts'
import type { SearchMatch, SpanSteps } from '../../core/index.ts'
import type { LensSliceCreator } from './types.ts'

/** Typing settles this long before a query is sent. */
export const SEARCH_DEBOUNCE_MS = 150

export interface SearchResults {
  readonly searchId: number
  readonly matches: readonly SearchMatch[]
  readonly total: number
  readonly scanned: number
  readonly length: number
  readonly done: boolean
  readonly error: string | null
  readonly visible: readonly { readonly from: number; readonly to: number }[]
  /** Once done: `visible` with seqs and the steps whose request carried a match (null while searching). */
  readonly visibleSteps: readonly SpanSteps[] | null
  readonly cutEvents: number
}

export interface SearchSlice {
  searchSpec: SearchSpec
  searchResults: SearchResults | null
  /** Position in `searchResults.matches` of the result the cursor was moved to. */
  activeMatch: number | null
  setSearch: (patch: Partial<SearchSpec>) => void
  clearSearch: () => void
  /** Move to result `position`: the cursor goes to its event and the event is selected. */
  activateMatch: (position: number) => void
  /** Next (+1) or previous (-1) result, wrapping. */
  stepMatch: (delta: 1 | -1) => void
}

export const EMPTY_SEARCH: SearchSpec = { text: '', regex: false, types: [], turn: null, step: null, surfaceOnly: false }

export const createSearchSlice: LensSliceCreator<SearchSlice> =
  ({ lens: client }) =>
  (set, get) => {
    let nextId = 1
    let current = 0
    let pulling = false
    /** The log changed while a pull ran: pull once more after it. */
    let again = false
    let timer: ReturnType<typeof setTimeout> | undefined

    const apply = (batch: SearchBatch): void => {
      if (batch.superseded || batch.searchId !== current) return
      const held = get().searchResults
      const keep = held !== null && held.searchId === batch.searchId && !batch.restarted
      set({
        searchResults: {
          searchId: batch.searchId,
          matches: keep && batch.matches.length === 0 ? held.matches : [...(keep ? held.matches : []), ...batch.matches],
          total: batch.total,
          scanned: batch.scanned,
          length: batch.length,
          done: batch.done,
          error: batch.error,
          visible: batch.visible,
          visibleSteps: batch.visibleSteps,
          cutEvents: batch.cutEvents,
        },
        ...(keep ? {} : { activeMatch: null }),
      })
    }

    /** Pull slices of search `id` until it is done or replaced. */
    const pull = async (id: number, first: Promise<SearchBatch> | null): Promise<void> => {
      pulling = true
      again = false
      try {
        let batch = await (first ?? client.query('search-more', { searchId: id }))
        apply(batch)
        while (id === current && (!batch.done || again) && !batch.superseded) {
          again = false
          batch = await client.query('search-more', { searchId: id })
          apply(batch)
        }
      } catch (error) {
        console.error(error)
      } finally {
        if (id === current) pulling = false
      }
    }

    const start = (): void => {
      const spec = get().searchSpec
      if (spec.text === '') {
        current = 0
        pulling = false
        set({ searchResults: null, activeMatch: null })
        return
      }
      const id = nextId++
      current = id
      void pull(id, client.query('search', { searchId: id, spec }))
    }

    client.subscribe((event) => {
      // The log grew (live) or was replaced (a new load): a finished search scans on, or restarts, in the worker.
      if (event.type !== 'summary' || current === 0) return
      if (pulling) again = true
      else void pull(current, null)
    })

    return {
      searchSpec: EMPTY_SEARCH,
      searchResults: null,
      activeMatch: null,
      setSearch: (patch) => {
        set({ searchSpec: { ...get().searchSpec, ...patch } })
        clearTimeout(timer)
        if (patch.text !== undefined) timer = setTimeout(start, SEARCH_DEBOUNCE_MS)
        else start()
      },
      clearSearch: () => {
        clearTimeout(timer)
        set({ searchSpec: { ...get().searchSpec, text: '' } })
        start()
      },
      activateMatch: (position) => {
        const match = get().searchResults?.matches[position]
        if (match === undefined) return
        set({ activeMatch: position })
        get().setCursor(match.index)
        get().select(match.index, 'link')
      },
      stepMatch: (delta) => {
        const count = get().searchResults?.matches.length ?? 0
        if (count === 0) return
        const active = get().activeMatch
        const next = active === null ? (delta > 0 ? 0 : count - 1) : (active + delta + count) % count
        get().activateMatch(next)
      },
    }
  }
