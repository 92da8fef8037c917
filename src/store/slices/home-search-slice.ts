/**
 * The sessions home's content search: the query, the server's latest answer (`content-search` over the served
 * paths' content index), the index's progress while it builds in the background (`watch-index`), and opening a hit:
 * the session at the hit's event, with the query in the viewer's search so the term is marked there.
 */

import type { IndexProgressView } from '../../live/protocol.ts'
import type { ContentHits } from '../../live/tail-client.ts'
import type { LensSliceCreator, LensState } from './types.ts'

/**
 * Typing settles this long before the query goes to the server. Short, because it is most of what a keystroke waits
 * for before its results are painted (issue 40's target; the figures are in docs/benchmarks.md); the index answers in
 * milliseconds and an older answer is dropped, so a query per pause costs little.
 */
export const HOME_SEARCH_DEBOUNCE_MS = 50

export interface HomeSearchView {
  readonly query: string
  /** The answer to the latest query sent (null: none yet, or the box is empty). */
  readonly answer: ContentHits | null
  /** A query is on its way (the answer shown belongs to an older one). */
  readonly pending: boolean
  /** The connection refused or lost the search (the index's own sentences come in `answer.message`). */
  readonly error: string | null
}

export interface HomeSearchSlice {
  homeSearch: HomeSearchView
  /** The content index's progress; null until the server first says it (or on a page without a server). */
  indexProgress: IndexProgressView | null
  searchSessions: (query: string) => void
  /** Follow the index's progress (it starts the background build). Returns the stop function. */
  watchIndex: () => () => void
  /** Open a hit's session at its event, the query's term searched (and so marked) in the viewer. */
  openSearchHit: (sessionId: string, seq: number) => void
}

const IDLE: HomeSearchView = { query: '', answer: null, pending: false, error: null }

/** The viewer's search text for a content query: a trailing `*` (a prefix) is the same text as a substring. */
export function viewerSearchText(query: string): string {
  return query.trim().replace(/\*+$/, '').trim()
}

function ready(s: LensState): boolean {
  return s.summary !== null && (s.summary.final || s.settled)
}

export const createHomeSearchSlice: LensSliceCreator<HomeSearchSlice> =
  ({ live }) =>
  (set, get, api) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let latest = 0
    /** Stops waiting for the previous hit's session, when another hit is opened first. */
    let stopWaiting = (): void => undefined

    const send = (query: string, id: number): void => {
      if (live === null) return
      live.client.searchContent(query).then(
        (answer) => {
          if (id !== latest) return
          set({ homeSearch: { query, answer, pending: false, error: null } })
          // A server without an index says so in its answer too: the home shows that state, not an empty result.
          if (answer.index.state === 'unavailable') set({ indexProgress: answer.index })
        },
        (error: unknown) => {
          if (id === latest) set({ homeSearch: { ...get().homeSearch, pending: false, error: (error as Error).message } })
        },
      )
    }

    /** Once the opened session is folded as far as it was: the cursor on the hit, and its search result active. */
    const landOn = (sessionId: string, seq: number, generation: number): void => {
      stopWaiting()
      let moved = false
      const unsubscribe = api.subscribe((s) => {
        if (s.liveView.sessionId !== sessionId) return stopWaiting()
        if (!moved && s.loadGeneration > generation && ready(s)) {
          moved = true
          void s.indexOfSeq(seq).then((index) => {
            if (index < 0 || get().liveView.sessionId !== sessionId) return
            get().setCursor(index)
            get().select(index, 'link')
          })
        }
        const position = s.searchResults?.matches.findIndex((m) => m.seq === seq) ?? -1
        if (moved && position >= 0) {
          stopWaiting()
          if (s.activeMatch !== position) set({ activeMatch: position })
        }
      })
      stopWaiting = () => {
        unsubscribe()
        stopWaiting = () => undefined
      }
    }

    return {
      homeSearch: IDLE,
      indexProgress: null,
      searchSessions: (query) => {
        clearTimeout(timer)
        const id = ++latest
        if (query.trim() === '') {
          set({ homeSearch: { ...IDLE, query } })
          return
        }
        set({ homeSearch: { ...get().homeSearch, query, pending: true } })
        timer = setTimeout(() => send(query, id), HOME_SEARCH_DEBOUNCE_MS)
      },
      watchIndex: () => {
        if (live === null) return () => undefined
        return live.client.watchIndex((indexProgress) => set({ indexProgress }))
      },
      openSearchHit: (sessionId, seq) => {
        const generation = get().loadGeneration
        get().setSearch({ text: viewerSearchText(get().homeSearch.query), regex: false })
        landOn(sessionId, seq, generation)
        get().openLiveSession(sessionId)
      },
    }
  }
