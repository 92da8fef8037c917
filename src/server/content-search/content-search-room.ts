/**
 * The sessions home's content search, on the server: the content index (src/server/content-index) of the served
 * paths, built in the background the first time a page asks (a watch or a search), refreshed again when a search
 * comes after the logs may have changed, and searched for the page. A cold build reads its logs on worker threads
 * (the index's extraction pool) and commits sessions in groups, so the server's event loop stays free for the
 * streams and the sessions list meanwhile; a search before the build is done answers from what is committed and
 * says how far the build is.
 */

import { ContentIndex } from '../content-index/content-index.ts'
import { hitOut, type SearchOrder } from '../content-index/search-request.ts'
import type { ContentHitSession, IndexProgressView } from '../../live/protocol.ts'

export interface ContentSearchOptions {
  readonly roots: readonly string[]
  /** dsh-lens's folder in the user's cache directory (never under the dsh home: the index refuses that). */
  readonly cacheDir: string
  /** One line for what the index says (rebuilt, skipped) and for a build that failed. */
  readonly note: (line: string) => void
}

export interface ContentSearchAnswer {
  readonly query: string
  readonly ok: boolean
  readonly message?: string
  /** How the sessions are ordered (docs/find.md): strongest hit first, or newest first for a word in most events. */
  readonly order?: SearchOrder
  readonly sessions: readonly ContentHitSession[]
  readonly index: IndexProgressView
}

/**
 * What a connection asks of the home's content search. A server without an index (started without a cache
 * directory for one) still answers: `unavailable`, with why, so a page says it in words instead of an error.
 */
export interface ContentSearch {
  /** Follow the index's progress (the current state at once). Returns the stop function. */
  watch(listener: (index: IndexProgressView) => void): () => void
  search(query: string, limit: number): Promise<ContentSearchAnswer>
  close(): Promise<void>
}

/** Why a server started without `contentIndex` cannot search (shown on the home after "Content search is unavailable: "). */
export const NO_CONTENT_INDEX = 'this server was started without a content index (no cache directory was given for one)'

/** The content search of a server that has no index: every watch and search answers `unavailable` with `why`. */
export function noContentSearch(why: string): ContentSearch {
  const index: IndexProgressView = { state: 'unavailable', done: 0, total: 0, sessions: 0, events: 0, message: why }
  return {
    watch: (listener) => {
      listener(index)
      return () => undefined
    },
    search: (query) => Promise.resolve({ query, ok: false, message: why, sessions: [], index }),
    close: () => Promise.resolve(),
  }
}

/** A refresh is started again by a search at most this often (a warm refresh stats every log). */
const REFRESH_AFTER_MS = 2_000
/** Progress is sent to watchers at most this often while a build runs. */
const PROGRESS_MS = 200

export class ContentSearchRoom implements ContentSearch {
  private index: Promise<ContentIndex> | null = null
  private refreshing: Promise<void> | null = null
  private lastRefresh = -Infinity
  private progress: IndexProgressView = { state: 'idle', done: 0, total: 0, sessions: 0, events: 0 }
  private readonly watchers = new Set<(index: IndexProgressView) => void>()
  private lastSent = 0
  private closed = false

  constructor(private readonly options: ContentSearchOptions) {}

  /** Follow the index's progress (the current state at once); starts the background build on first use. */
  watch(listener: (index: IndexProgressView) => void): () => void {
    this.watchers.add(listener)
    listener(this.progress)
    this.ensureFresh()
    return () => this.watchers.delete(listener)
  }

  async search(query: string, limit: number): Promise<ContentSearchAnswer> {
    this.ensureFresh()
    const index = await this.opened()
    if (index === null)
      return { query, ok: false, message: this.progress.message ?? 'no content index', sessions: [], index: this.progress }
    const page = index.search({ query, limit, hitsPerSession: 5 })
    if (!page.ok) return { query, ok: false, message: page.message, sessions: [], index: this.progress }
    const sessions = page.sessions.map((s) => ({
      id: s.id,
      title: s.title,
      project: s.project,
      hits: s.hits.map((h) => ({ ...hitOut(h), highlight: h.highlight })),
    }))
    return { query, ok: true, order: page.order, sessions, index: this.progress }
  }

  async close(): Promise<void> {
    this.closed = true
    this.watchers.clear()
    await this.refreshing
    ;(await this.opened())?.close()
  }

  private opened(): Promise<ContentIndex | null> {
    this.index ??= ContentIndex.open({
      root: this.options.roots,
      cacheDir: this.options.cacheDir,
      notice: (line) => this.options.note(`content index: ${line}`),
    })
    return this.index.catch((error: unknown) => {
      this.publish({ ...this.progress, state: 'unavailable', message: (error as Error).message }, true)
      return null
    })
  }

  /** Starts a refresh unless one runs or one ended a moment ago. */
  private ensureFresh(): void {
    if (this.closed || this.refreshing !== null || performance.now() - this.lastRefresh < REFRESH_AFTER_MS) return
    if (this.progress.state === 'unavailable') return
    this.refreshing = this.refresh().finally(() => {
      this.refreshing = null
      this.lastRefresh = performance.now()
    })
  }

  private async refresh(): Promise<void> {
    const index = await this.opened()
    if (index === null || this.closed) return
    const counts = (): { sessions: number; events: number } => {
      const status = index.status()
      return { sessions: status.sessions, events: status.events }
    }
    const cold = this.progress.state !== 'ready'
    try {
      const report = await index.refresh({
        waitMs: 0,
        onProgress: (p) => {
          if (!cold || p.done === p.total || performance.now() - this.lastSent < PROGRESS_MS) return
          this.publish({ state: 'building', done: p.done, total: p.total, ...counts() }, false)
        },
      })
      if (this.closed) return
      const total = report.indexed + report.appended + report.unchanged + report.skipped.length
      // Another process is writing it: what it committed is searchable; the next search asks again.
      const state = report.upToDate ? 'ready' : this.progress.state === 'idle' ? 'building' : this.progress.state
      this.publish({ state, done: total, total, ...counts() }, true)
    } catch (error) {
      this.options.note(`content index: the build failed: ${(error as Error).message}`)
      this.publish(
        { ...this.progress, state: 'unavailable', message: `the content index failed: ${(error as Error).message}` },
        true,
      )
    }
  }

  private publish(progress: IndexProgressView, always: boolean): void {
    this.progress = progress
    const now = performance.now()
    if (!always && now - this.lastSent < PROGRESS_MS) return
    this.lastSent = now
    for (const listener of this.watchers) listener(progress)
  }
}
