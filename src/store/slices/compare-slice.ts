/**
 * The Compare view (issue 38): two runs side by side. Run A is the worker's main log (the log open, or one loaded for
 * the view), run B the other log it holds beside it (`slot: 'other'`). The slice holds which runs they are, how B's
 * load goes, the overview the worker answers once both are whole, the picked pair and the rows fetched so far (the
 * comparison itself stays in the worker). Nothing of it is computed unless the view is open: the overview is asked when
 * both runs are read, and closing the view lets the worker drop run B and the comparison.
 *
 * A served page's two sessions come through the live controller (store/live/live-compare.ts), which feeds both runs
 * with `startCompareFeeds`; files are read with `compareFiles` / `compareWithFile`.
 */

import type { ComparedPair } from '../../core/index.ts'
import type { CompareOverview } from '../../protocol/compare.ts'
import type { LoadProgress, LogSummary } from '../../protocol/log-summary.ts'
import { jumpWhenReady } from '../jump-when-ready.ts'
import { noEventsError } from '../no-events-error.ts'
import type { LiveFeed } from './source-slice.ts'
import type { LensSliceCreator, LensState } from './types.ts'

/** Where a run comes from: the log open now (run A only), a file, or a session of the companion server. */
export type CompareSource =
  | { readonly kind: 'open' }
  | { readonly kind: 'file'; readonly file: File }
  | { readonly kind: 'session'; readonly sessionId: string }

export interface CompareRunRef {
  /** What the view calls it: a session's title, a file's name. */
  readonly label: string
  readonly source: CompareSource
}

export interface OtherLoad {
  readonly state: 'loading' | 'ready' | 'error'
  readonly progress: LoadProgress | null
  readonly error: string | null
  readonly summary: LogSummary | null
}

export interface CompareView {
  /** Bumped by every comparison asked (a new pair of runs, or "compare again"): answers are keyed by it. */
  readonly id: number
  readonly a: CompareRunRef
  readonly b: CompareRunRef
  /** The main log's load that is run A: another load closes the view. */
  readonly aGeneration: number
  readonly bLoad: OtherLoad
  readonly overview: CompareOverview | null
  /** Why there is no comparison (a run could not be read, a session is unknown). */
  readonly error: string | null
  /** The pair shown side by side: the first divergence on arrival. */
  readonly picked: number | null
  /** The aligned list's rows fetched so far, by index. */
  readonly rows: ReadonlyMap<number, ComparedPair>
}

export interface CompareSlice {
  compare: CompareView | null
  /** Two files: A in the main log, B beside it. */
  compareFiles: (a: File, b: File) => void
  /** The log open now is run A, `file` run B ("Compare with…"). */
  compareWithFile: (file: File) => void
  /** Two runs fed by the caller (the served page's sessions): A's feed fills the main log, B's the other. */
  startCompareFeeds: (a: CompareRunRef, b: CompareRunRef, stop: () => void) => { readonly a: LiveFeed; readonly b: LiveFeed }
  /**
   * Show the view on two runs not read yet: `error` says why they cannot be (an unknown session), or null while their
   * loads are about to start (a served page waiting for the server's list).
   */
  placeCompare: (a: CompareRunRef, b: CompareRunRef, error: string | null) => void
  /** The comparison cannot be made (said in the view). */
  failCompare: (message: string) => void
  pickComparePair: (index: number) => void
  /** Rows `from` to `to` of the aligned list (the list asks for what it shows). */
  fetchCompareRows: (from: number, to: number) => void
  /** Compare the runs again as they are now (a followed run A grew). */
  refreshCompare: () => void
  /** Close the view: the log open is run A, at its end. */
  closeCompare: () => void
  /** The way back: open one run at `seq`, its step's request in the Request view. */
  openCompareRun: (side: 'a' | 'b', step: { readonly turn: number; readonly step: number; readonly atSeq: number }) => void
}

const ROW_CHUNK = 100
const LOADING: OtherLoad = { state: 'loading', progress: null, error: null, summary: null }
const EMPTY_VIEW = { bLoad: LOADING, overview: null, error: null, picked: null, rows: new Map<number, ComparedPair>() }

/** Run A is read: the main log is the view's, whole (or a followed log caught up), and not refused. */
export function runAReady(s: LensState): boolean {
  const c = s.compare
  return c !== null && s.loadGeneration === c.aGeneration && s.settled && s.loadState === 'ready' && s.summary !== null
}

export const createCompareSlice: LensSliceCreator<CompareSlice> =
  ({ lens: client }) =>
  (set, get, api) => {
    let nextId = 1
    let otherLoad = -1
    let stopFeeds: (() => void) | null = null
    let askedFor = -1
    const fetched = new Set<number>()
    const patch = (change: Partial<CompareView>, id?: number): void =>
      set((s) =>
        s.compare === null || (id !== undefined && s.compare.id !== id) ? {} : { compare: { ...s.compare, ...change } },
      )

    client.subscribe((event) => {
      if (event.type === 'snapshot' || event.loadId !== otherLoad) return
      const bLoad = get().compare?.bLoad ?? LOADING
      if (event.type === 'progress') patch({ bLoad: { ...bLoad, progress: event.progress } })
      else if (event.type === 'load-failed') patch({ bLoad: { ...bLoad, state: 'error', error: event.message } })
      else if (event.summary.final) {
        const { summary } = event
        const empty = summary.length === 0 && summary.diagnosticCount > 0 ? noEventsError(summary.diagnostics) : null
        patch({ bLoad: { ...bLoad, state: empty === null ? 'ready' : 'error', error: empty, summary } })
      }
    })

    /** Once both runs are read, ask for the overview (once per comparison), and open the first divergence. */
    const askOverview = (s: LensState): void => {
      const c = s.compare
      if (c === null || c.overview !== null || c.error !== null || askedFor === c.id) return
      if (s.loadGeneration === c.aGeneration && s.loadState === 'error') {
        askedFor = c.id
        return patch({ error: `Run A could not be read: ${s.loadError ?? 'no events'}` })
      }
      if (c.bLoad.state === 'error') {
        askedFor = c.id
        return patch({ error: `Run B could not be read: ${c.bLoad.error ?? 'no events'}` })
      }
      if (!runAReady(s) || c.bLoad.state !== 'ready') return
      askedFor = c.id
      const id = c.id
      client.query('compare-overview', {}).then(
        (overview) => patch({ overview, picked: overview.first?.index ?? (overview.pairCount > 0 ? 0 : null) }, id),
        (error: unknown) => patch({ error: error instanceof Error ? error.message : String(error) }, id),
      )
    }

    api.subscribe((s, previous) => {
      const c = s.compare
      if (c === null) return
      // Another log opened in the main log (a file dropped, a session opened): the comparison is no longer of run A.
      if (s.loadGeneration !== c.aGeneration && previous.loadGeneration !== s.loadGeneration) return get().closeCompare()
      askOverview(s)
    })

    /** Open the view on two runs: `startA` starts A's load first (its generation is the view's run A). */
    const begin = <T>(a: CompareRunRef, b: CompareRunRef, startA: () => T): T => {
      stopFeeds?.()
      stopFeeds = null
      if (get().compare !== null) client.cancel(otherLoad)
      otherLoad = -1
      fetched.clear()
      // Closed while A's load starts, so that load does not close the view it opens.
      set({ compare: null })
      const started = startA()
      set({ compare: { ...EMPTY_VIEW, id: nextId++, a, b, aGeneration: get().loadGeneration } })
      return started
    }

    return {
      compare: null,
      compareFiles: (a, b) => {
        begin({ label: a.name, source: { kind: 'file', file: a } }, { label: b.name, source: { kind: 'file', file: b } }, () =>
          get().loadFile(a),
        )
        otherLoad = client.loadFile(b, 'other')
        askOverview(get())
      },
      compareWithFile: (file) => {
        const label = get().sourceMeta?.title ?? get().sourceName
        begin({ label, source: { kind: 'open' } }, { label: file.name, source: { kind: 'file', file } }, () => undefined)
        otherLoad = client.loadFile(file, 'other')
        askOverview(get())
      },
      startCompareFeeds: (a, b, stop) => {
        const feedA = begin(a, b, () => get().startLiveFeed(a.label, false))
        stopFeeds = stop
        const id = (otherLoad = client.beginStream(b.label, null, false, 'other'))
        const encoder = new TextEncoder()
        const feedB: LiveFeed = {
          append: (chunk) => client.pushChunk(id, typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
          // B is read once it is whole: its end is what the view waits for.
          settle: () => undefined,
          end: () => client.endStream(id),
          cancel: () => client.cancel(id),
        }
        return { a: feedA, b: feedB }
      },
      placeCompare: (a, b, error) => {
        stopFeeds?.()
        stopFeeds = null
        // No load of its own: any load that starts now is not this view's run A (-1), until its feeds start it.
        set({ compare: { ...EMPTY_VIEW, id: nextId++, a, b, aGeneration: -1, error } })
      },
      failCompare: (message) => patch({ error: message }),
      pickComparePair: (picked) => patch({ picked }),
      fetchCompareRows: (from, to) => {
        const c = get().compare
        if (c === null || c.overview === null) return
        const id = c.id
        for (let chunk = Math.floor(from / ROW_CHUNK); chunk * ROW_CHUNK < Math.min(to, c.overview.pairCount); chunk++) {
          const key = id * 1e9 + chunk
          if (fetched.has(key)) continue
          fetched.add(key)
          client.query('compare-pairs', { from: chunk * ROW_CHUNK, to: (chunk + 1) * ROW_CHUNK }).then(
            (answer) => {
              const now = get().compare
              if (now === null || now.id !== id) return
              const rows = new Map(now.rows)
              answer.pairs.forEach((pair, k) => rows.set(answer.from + k, pair))
              patch({ rows }, id)
            },
            () => fetched.delete(key),
          )
        }
      },
      refreshCompare: () => {
        const c = get().compare
        if (c === null) return
        fetched.clear()
        set({ compare: { ...c, ...EMPTY_VIEW, bLoad: c.bLoad, id: nextId++ } })
        askOverview(get())
      },
      closeCompare: () => {
        if (get().compare === null) return
        stopFeeds?.()
        stopFeeds = null
        otherLoad = -1
        set({ compare: null })
        // The worker lets run B and the comparison go.
        void client.query('compare-close', {}).catch(() => undefined)
      },
      openCompareRun: (side, step) => {
        const c = get().compare
        if (c === null) return
        const run = side === 'a' ? c.a : c.b
        const mainIsRun = side === 'a' && run.source.kind !== 'session' && get().loadGeneration === c.aGeneration
        get().closeCompare()
        // The load that opens the run is the next one (a session's starts when the server's snapshot arrives).
        const generation = get().loadGeneration + (mainIsRun ? 0 : 1)
        if (run.source.kind === 'session') get().openLiveSession(run.source.sessionId)
        else if (!mainIsRun && run.source.kind === 'file') get().loadFile(run.source.file)
        jumpWhenReady(api, generation, step.atSeq, () => get().openRequest({ turn: step.turn, step: step.step }))
      },
    }
  }
