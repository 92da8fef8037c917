/**
 * Where the log comes from and how loading goes: a dropped or picked File, a `?log=` URL, or a live feed.
 *
 * Live sources (the companion server's Connect flow): call `startLiveFeed(name)` and feed the returned
 * `LiveFeed` with JSONL text or bytes as they arrive (`append`), then `end()` or `cancel()`. The worker folds
 * each chunk as it comes and publishes a summary at most every ~50 ms; the cursor follows the end while it
 * sits on the last event. Starting any other load replaces the feed.
 */

import type { LoadProgress, LogSummary } from '../../worker/protocol.ts'
import type { LensSliceCreator } from './types.ts'

export type LoadState = 'idle' | 'loading' | 'ready' | 'error'

export interface LiveFeed {
  /** Append the next piece of the log (JSONL text, or raw bytes of a jsonl / zstd stream). */
  append: (chunk: string | Uint8Array) => void
  end: () => void
  cancel: () => void
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
  loadFile: (file: File) => void
  loadUrl: (url: string) => Promise<void>
  startLiveFeed: (name: string) => LiveFeed
  cancelLoad: () => void
}

/** Bytes per chunk forwarded from a fetched body; fetch readers hand out small chunks, so batch them. */
const STREAM_BATCH_BYTES = 1024 * 1024
/** The first batch goes out sooner, so the worker folds and shows the first rows while the rest downloads. */
const FIRST_STREAM_BATCH_BYTES = 128 * 1024

export const createSourceSlice: LensSliceCreator<SourceSlice> = (client) => (set, get) => {
  let loadId = -1
  let abort: AbortController | null = null

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
      // A live log may have grown its last chunk run: forget cached rows from the old end on.
      if (previous !== null) {
        get().cache.forgetFrom('all', Math.max(0, (get().snapshot?.allRowCount ?? 1) - 1))
        get().cache.forgetFrom('messages', Math.max(0, (get().snapshot?.messageRowCount ?? 1) - 1))
      }
      // A replacement that arrived since may have shadowed an entry whose cached lifespan was still open.
      const replaced = previous !== null && summary.replacements.length > previous.replacements.length
      if (replaced && get().cache.forgetOpenLifespans() > 0) queueMicrotask(() => get().refetchVisible())
      // The worker's decoded-bytes budget stopped the load: nothing more is read, so stop downloading the rest.
      if (summary.sizeBudget !== null && abort !== null) {
        abort.abort()
        abort = null
      }
      set({ summary, loadState, loadError, live: get().live && !summary.final })
      if (wasAtEnd || get().cursor < 0) get().setCursor(summary.length - 1)
      else get().setCursor(get().cursor)
    } else if (event.type === 'load-failed') {
      set({ loadState: 'error', loadError: event.message, summary: event.summary })
      if (event.summary !== null) get().setCursor(event.summary.length - 1)
    }
  })

  const reset = (name: string, live: boolean): void => {
    loadId = -1
    abort?.abort()
    abort = null
    get().cache.clear()
    set((s) => ({
      loadGeneration: s.loadGeneration + 1,
      loadState: 'loading',
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
    loadFile: (file) => {
      reset(file.name, false)
      loadId = client.loadFile(file)
    },
    loadUrl: async (url) => {
      const name = decodeURIComponent(url.split('?')[0]?.split('/').pop() || url)
      reset(name, false)
      const controller = new AbortController()
      abort = controller
      let id = -1
      try {
        const response = await fetch(url, { signal: controller.signal })
        if (!response.ok) throw new Error(`The server answered ${response.status} ${response.statusText} for ${url}.`)
        if (response.body === null) throw new Error(`The response for ${url} has no body.`)
        // A static server answers unknown paths with its index page: say so instead of parsing HTML as a log.
        if (response.headers.get('content-type')?.includes('text/html') === true) {
          throw new Error('the server sent an HTML page, not a session log (is the path right?)')
        }
        const length = Number(response.headers.get('content-length'))
        id = loadId = client.beginStream(name, Number.isFinite(length) && length > 0 ? length : null, false)
        const reader = response.body.getReader()
        let batch: Uint8Array[] = []
        let batched = 0
        let first = true
        const flush = (): void => {
          if (batched === 0) return
          const bytes = new Uint8Array(batched)
          let offset = 0
          for (const part of batch) {
            bytes.set(part, offset)
            offset += part.length
          }
          client.pushChunk(id, bytes)
          batch = []
          batched = 0
        }
        while (true) {
          const { done, value } = await reader.read()
          if (done) break
          batch.push(value)
          batched += value.length
          if (batched >= (first ? FIRST_STREAM_BATCH_BYTES : STREAM_BATCH_BYTES)) {
            flush()
            first = false
          }
        }
        flush()
        client.endStream(id)
      } catch (error) {
        if (controller.signal.aborted) return
        if (id !== -1) client.cancel(id)
        const why = error instanceof Error ? error.message : String(error)
        set({ loadState: 'error', loadError: `Could not read ${url}: ${why}` })
      }
    },
    startLiveFeed: (name) => {
      reset(name, true)
      const id = (loadId = client.beginStream(name, null, true))
      const encoder = new TextEncoder()
      return {
        append: (chunk) => client.pushChunk(id, typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
        end: () => client.endStream(id),
        cancel: () => client.cancel(id),
      }
    },
    cancelLoad: () => {
      abort?.abort()
      abort = null
      if (get().loadState !== 'loading') return
      // With a load under way the worker closes it and publishes what parsed; before the first byte there is nothing.
      if (loadId !== -1) client.cancel(loadId)
      else set({ loadState: 'error', loadError: 'Loading was cancelled before any data arrived.' })
    },
  }
}
