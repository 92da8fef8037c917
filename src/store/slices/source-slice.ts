/**
 * Where the log comes from and how loading goes: a dropped or picked File, a `?log=` URL, or a live feed.
 *
 * Live sources (the companion server's Connect flow): call `startLiveFeed(name)` and feed the returned
 * `LiveFeed` with JSONL text or bytes as they arrive (`append`), then `end()` or `cancel()`. The worker folds
 * each chunk as it comes and publishes a summary at most every `PROGRESS_INTERVAL_MS`; the cursor follows the end while it
 * sits on the last event. Starting any other load replaces the feed.
 */

import type { LoadProgress, LogSummary } from '../../protocol/log-summary.ts'
import { noEventsError } from '../no-events-error.ts'
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

/** Where the open log came from: a dropped or picked File, a URL (`?log=`, the demo), or a live feed. */
export type SourceKind = 'file' | 'url' | 'live'

/** A file named by a link (`?file=<name>&size=<n>&sha256=<first 16 hex>#…`): the page waits for the user to open it. */
export interface ExpectedFile {
  readonly name: string
  readonly size: number | null
  /** The first 16 hex digits of its SHA-256, or null when the link has none. */
  readonly sha256: string | null
  /** The link's hash (`#seq=…&sel=…`), applied once the right file is open. */
  readonly hash: string
}

/** A dropped or picked file, named as a link names it (`?file=`), once it was read through. */
export interface FileIdentity {
  readonly name: string
  readonly size: number
  /** The first 16 hex digits of its SHA-256 (null where the worker could not hash it). */
  readonly sha256: string | null
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
  sourceKind: SourceKind | null
  /** The open file's name, size and digest once it was read through (a `?file=` link names it so). */
  fileIdentity: FileIdentity | null
  /** The file a `?file=` link asks for, until the right file is open. */
  expectedFile: ExpectedFile | null
  /** How the last file opened compares with the file the link asked for (null: no link, or not read through yet). */
  fileMatch: { readonly same: boolean; readonly expected: ExpectedFile; readonly opened: FileIdentity | null } | null
  expectFile: (expected: ExpectedFile | null) => void
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

/** Whether `opened` is the file `expected` names: same digest prefix, and same size and name where the link has them. */
export function sameFile(expected: ExpectedFile, opened: FileIdentity | null): boolean {
  if (opened === null) return false
  if (expected.size !== null && expected.size !== opened.size) return false
  if (expected.sha256 !== null) return expected.sha256 === opened.sha256
  return expected.name === opened.name
}

export const createSourceSlice: LensSliceCreator<SourceSlice> =
  ({ lens: client }) =>
  (set, get) => {
    let loadId = -1
    let pendingFile: { name: string; size: number } | null = null
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
          loadError = noEventsError(summary.diagnostics)
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
        // A file read through: its identity for links, and whether it is the file a `?file=` link asked for.
        const fileIdentity =
          summary.final && !summary.cancelled && pendingFile !== null
            ? { ...pendingFile, sha256: summary.sourceSha256?.slice(0, 16) ?? null }
            : get().fileIdentity
        const expected = get().expectedFile
        const fileMatch =
          summary.final && !summary.cancelled && pendingFile !== null && expected !== null
            ? { same: sameFile(expected, fileIdentity), expected, opened: fileIdentity }
            : get().fileMatch
        set((s) => ({
          summary,
          loadState,
          loadError,
          settled,
          fileIdentity,
          fileMatch,
          expectedFile: fileMatch?.same === true ? null : s.expectedFile,
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

    const reset = (name: string, live: boolean, kind: SourceKind | null): void => {
      // The worker drops (and stops downloading) the previous load when the next one's first message arrives; a
      // load refused before any message (a ?log= on another origin) cancels it here.
      if (loadId !== -1 && get().loadState === 'loading') client.cancel(loadId)
      loadId = -1
      settleAt = null
      pendingFile = null
      get().cache.clear()
      set((s) => ({
        loadGeneration: s.loadGeneration + 1,
        loadState: 'loading',
        settled: false,
        sourceKind: kind,
        fileIdentity: null,
        fileMatch: null,
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
      sourceKind: null,
      fileIdentity: null,
      expectedFile: null,
      fileMatch: null,
      expectFile: (expected) => set({ expectedFile: expected, fileMatch: null }),
      sourceMeta: null,
      setSourceMeta: (meta) => set({ sourceMeta: meta }),
      clearSource: () => {
        reset('', false, null)
        set({ loadState: 'idle' })
      },
      loadFile: (file) => {
        reset(file.name, false, 'file')
        pendingFile = { name: file.name, size: file.size }
        loadId = client.loadFile(file)
      },
      loadUrl: (url) => {
        const name = decodeURIComponent(url.split('?')[0]?.split('/').pop() || url)
        reset(name, false, 'url')
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
        reset(name, true, 'live')
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
