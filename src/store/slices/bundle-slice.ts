/**
 * The sessions bundle (several logs dropped or picked together): the lineage worker's scan result (headers, tree,
 * seed checks and one File handle per session, zip entries included), which session is open, and the drawer. The
 * logs' bytes stay in the Files; the lens worker holds only the open log, and re-reads a session's File when it is
 * opened again. Scanning runs in the lineage worker (the `lineage` client).
 */

import type { BundleResult, BundleSource } from '../../protocol/lineage.ts'
import type { LensSliceCreator } from './types.ts'

export interface BundleView {
  readonly result: BundleResult | null
  readonly scanning: { readonly done: number; readonly total: number } | null
  readonly error: string | null
  /** Key of the open session and the load generation it was opened as (another load clears it). */
  readonly active: { readonly key: string; readonly generation: number } | null
  readonly drawerOpen: boolean
}

export interface BundleSlice {
  bundle: BundleView
  setDrawerOpen: (open: boolean) => void
  /** Scan `sources` for sessions, show the tree, and open the first root. */
  openBundle: (sources: readonly BundleSource[]) => void
  /** Open one session of the bundle; with `seq`, move the cursor there (and select it) once it is loaded. */
  openBundleSession: (key: string, seq?: number) => void
}

const EMPTY: BundleView = { result: null, scanning: null, error: null, active: null, drawerOpen: false }

export const createBundleSlice: LensSliceCreator<BundleSlice> =
  ({ lineage }) =>
  (set, get, api) => {
    let scan = 0
    const patch = (change: Partial<BundleView>): void => set((s) => ({ bundle: { ...s.bundle, ...change } }))

    /** Once the load that opened a session is ready, move to `seq` there (the source slice first moves to its end). */
    const jumpWhenReady = (generation: number, seq: number): void => {
      const apply = (): void => {
        if (get().loadGeneration === generation) void get().selectSeq(seq, 'link', true)
      }
      if (get().loadState === 'ready') return apply()
      const stop = api.subscribe((s) => {
        if (s.loadGeneration !== generation) return stop()
        if (s.loadState !== 'ready' && s.loadState !== 'error') return
        stop()
        // After the source slice has finished its own reaction to this summary (it moves the cursor to the end).
        setTimeout(apply, 0)
      })
    }

    return {
      bundle: EMPTY,
      setDrawerOpen: (drawerOpen) => patch({ drawerOpen }),
      openBundle: (sources) => {
        const id = ++scan
        patch({ scanning: { done: 0, total: sources.length }, error: null, drawerOpen: true })
        lineage
          .scan(sources, (done, total) => {
            if (id === scan) patch({ scanning: { done, total } })
          })
          .then(
            (result) => {
              if (id !== scan) return
              patch({ scanning: null, result, active: null })
              const first = result.tree.roots[0]
              if (first !== undefined) get().openBundleSession(first)
              else patch({ error: 'none of the files is a session log' })
            },
            (error: unknown) => {
              if (id === scan) patch({ scanning: null, error: error instanceof Error ? error.message : String(error) })
            },
          )
      },
      openBundleSession: (key, seq) => {
        const { result, active } = get().bundle
        const session = result?.sessions.find((s) => s.key === key)
        if (session === undefined) return
        const isOpen = active?.key === key && active.generation === get().loadGeneration
        if (!isOpen) {
          get().loadFile(session.file)
          patch({ active: { key, generation: get().loadGeneration } })
        }
        if (seq !== undefined) jumpWhenReady(get().loadGeneration, seq)
      },
    }
  }
