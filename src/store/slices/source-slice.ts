/**
 * Where the log comes from and how loading goes: a dropped or picked File, a `?log=` URL, or a live feed.
 *
 * Live sources (the companion server's Connect flow): call `startLiveFeed(name)` and feed the returned
 * `LiveFeed` with JSONL text or bytes as they arrive (`append`), then `end()` or `cancel()`. The worker folds
 * each chunk as it comes and publishes a summary at most every `PROGRESS_INTERVAL_MS`; the cursor follows the end while it
 * sits on the last event. Starting any other load replaces the feed.
 */

import type { LoadProgress, LogSummary } from '../../protocol/log-summary.ts'
import type { LensSliceCreator } from './types.ts'

export type LoadState = 'idle' | 'loading' | 'ready' | 'error'

export interface LiveFeed {
  /** Append the next piece of the log (JSONL text, or raw bytes of a jsonl / zstd stream). */
  append: (chunk: string | Uint8Array) => void
  /**
   * Everything the source had when it was opened has been appended, through `lastSeq`: once the worker has folded
   * that far the feed is `settled` (what a deep link waits for on a log that never ends).
   */
  settle: (lastSeq: number) => void
  end: () => void
  cancel: () => void
}

/** What the page knows about the open log besides its bytes: a served session's title and project. */
export interface SourceMeta {
  readonly title: string | null
  readonly project: string | null
}

export interface SourceSlice {
  loadState: LoadState
  /** Increments on every new load; late answers for an older load are dropped by comparing it. */
  loadGeneration: number
  sourceName: string
  progress: LoadProgress | null
  loadError: string | null
  summary: LogSummary | null
  live: boolean
  /** The load has all it had when it started: a file or URL read to its end, or a live feed caught up (`settle`). */
  settled: boolean
  sourceMeta: SourceMeta | null
  setSourceMeta: (meta: SourceMeta | null) => void
  /** Close whatever is open and go back to no log (the served page's sessions home). */
  clearSource: () => void
  loadFile: (file: File) => void
  /** Fetch a same-origin URL in the worker (`?log=`, the demo) and fold it while it downloads. */
  loadUrl: (url: string) => void
  startLiveFeed: (name: string) => LiveFeed
  cancelLoad: () => void
}

/** `url` resolved against the page, or null when it names another origin (or is not a URL at all). */
function sameOriginUrl(url: string): string | null {
  try {
    const resolved = new URL(url, window.location.href)
    return resolved.origin === window.location.origin ? resolved.href : null
  } catch {
    return null
  }
}

export const createSourceSlice: LensSliceCreator<SourceSlice> = (client) => (set, get) => {
  let loadId = -1
  // A live feed's settle(lastSeq): the last seq the worker must have folded for the feed to be settled, or null.
  let settleAt: number | null = null

  client.subscribe((event) => {
    if (event.type === 'snapshot') return
    if (event.loadId !== loadId) return
    if (event.type === 'progress') set({ progress: event.progress })
    else if (event.type === 'summary') {
      const { summary } = event
      const previous = get().summary
      const wasAtEnd = previous === null || get().cursor >= previous.length - 1
      let loadState: LoadState = summary.final ? 'ready' : 'loading'
      let loadError: string | null = null
      if (summary.final && !summary.cancelled && summary.length === 0 && summary.diagnosticCount > 0) {
        loadState = 'error'
        loadError = `No events could be read: ${summary.diagnostics[0]?.message ?? 'unknown defect'}`
      }
      if (get().live && !summary.final) loadState = 'ready'
      // A growing log may have grown its last chunk run: forget cached rows from the old end on. A pane whose
      // window did not move asks for nothing by itself, so what it shows is fetched again (else a row dropped here
      // stayed a placeholder when the log did not grow past it, e.g. a final summary after an interim one).
      let dropped = 0
      if (previous !== null) {
        dropped += get().cache.forgetFrom('all', Math.max(0, (get().snapshot?.allRowCount ?? 1) - 1))
        dropped += get().cache.forgetFrom('messages', Math.max(0, (get().snapshot?.messageRowCount ?? 1) - 1))
      }
      // A replacement that arrived since may have shadowed an entry whose cached lifespan was still open.
      const replaced = previous !== null && summary.replacements.length > previous.replacements.length
      if (replaced) dropped += get().cache.forgetOpenLifespans()
      if (dropped > 0) queueMicrotask(() => get().refetchVisible())
      const first = event.firstWindow
      if (first !== undefined) {
        get().cache.addRows('messages', first.rows.messages)
        get().cache.addRows('all', first.rows.all)
        get().cache.addSummaries(first.summaries)
      }
      const settled = get().settled || summary.final || (settleAt !== null && summary.lastSeq >= settleAt)
      set((s) => ({
        summary,
        loadState,
        loadError,
        settled,
        live: get().live && !summary.final,
        cacheVersion: first === undefined ? s.cacheVersion : s.cacheVersion + 1,
      }))
      if (wasAtEnd || get().cursor < 0) get().setCursor(summary.length - 1)
      else get().setCursor(get().cursor)
      // The cursor's state came with the summary: the panes draw it now instead of after a round trip (the worker
      // still answers the cursor's query, and that answer, for the same event, replaces this one).
      if (first !== undefined && first.snapshot.index === get().cursor) set({ snapshot: first.snapshot })
    } else if (event.type === 'load-failed') {
      set({ loadState: 'error', loadError: event.message, summary: event.summary, settled: true })
      if (event.summary !== null) get().setCursor(event.summary.length - 1)
    }
  })

  const reset = (name: string, live: boolean): void => {
    // The worker drops (and stops downloading) the previous load when the next one's first message arrives; a
    // load refused before any message (a ?log= on another origin) cancels it here.
    if (loadId !== -1 && get().loadState === 'loading') client.cancel(loadId)
    loadId = -1
    settleAt = null
    get().cache.clear()
    set((s) => ({
      loadGeneration: s.loadGeneration + 1,
      loadState: 'loading',
      settled: false,
      sourceMeta: null,
      sourceName: name,
      progress: null,
      loadError: null,
      summary: null,
      live,
      cursor: -1,
      snapshot: null,
      selected: null,
      detail: null,
    }))
  }

  return {
    loadState: 'idle',
    loadGeneration: 0,
    sourceName: '',
    progress: null,
    loadError: null,
    summary: null,
    live: false,
    settled: false,
    sourceMeta: null,
    setSourceMeta: (meta) => set({ sourceMeta: meta }),
    clearSource: () => {
      reset('', false)
      set({ loadState: 'idle' })
    },
    loadFile: (file) => {
      reset(file.name, false)
      loadId = client.loadFile(file)
    },
    loadUrl: (url) => {
      const name = decodeURIComponent(url.split('?')[0]?.split('/').pop() || url)
      reset(name, false)
      // Same origin only, as the page's CSP says (connect-src): the worker fetches it, and a worker served without
      // that header would not be held to it, so the rule is kept here, before any request.
      const absolute = sameOriginUrl(url)
      if (absolute === null) {
        const why = `?log= reads this page's own origin only (${window.location.origin}): download the file and drop it instead`
        set({ loadState: 'error', loadError: `Could not read ${url}: ${why}` })
        return
      }
      loadId = client.loadUrl(absolute, url, name)
    },
    startLiveFeed: (name) => {
      reset(name, true)
      const id = (loadId = client.beginStream(name, null, true))
      const encoder = new TextEncoder()
      return {
        append: (chunk) => client.pushChunk(id, typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
        settle: (lastSeq) => {
          if (loadId !== id || get().settled) return
          settleAt = lastSeq
          if ((get().summary?.lastSeq ?? -1) >= settleAt) set({ settled: true })
        },
        end: () => client.endStream(id),
        cancel: () => client.cancel(id),
      }
    },
    cancelLoad: () => {
      if (get().loadState !== 'loading') return
      // With a load under way the worker closes it and publishes what parsed; before the first byte there is nothing.
      if (loadId !== -1) client.cancel(loadId)
      else set({ loadState: 'error', loadError: 'Loading was cancelled before any data arrived.' })
    },
  }
}
