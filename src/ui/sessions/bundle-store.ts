/**
 * The sessions bundle on the main thread: the scan result (headers, tree, seed checks and one File handle per
 * session, zip entries included), which session is open, and a pending jump (open a session at a seq). The logs'
 * bytes stay in the Files; the lens worker holds only the open log, and re-reads a session's File when it is opened
 * again. Scanning runs in the lineage worker. A small zustand store of its own: the lens store stays one-log.
 */

import { create } from 'zustand'
import type { LensStore } from '../../store/create-lens-store.ts'
import type { BundleResult, BundleSource, LineageRequest, LineageResponse } from '../../protocol/lineage.ts'
import { indexOfSeqInSummary } from '../../protocol/log-summary.ts'

export interface BundleState {
  result: BundleResult | null
  scanning: { done: number; total: number } | null
  error: string | null
  /** Key of the open session and the lens store load generation it was opened as (another load clears it). */
  active: { key: string; generation: number } | null
  drawerOpen: boolean
  setDrawerOpen: (open: boolean) => void
}

export const useBundleStore = create<BundleState>((set) => ({
  result: null,
  scanning: null,
  error: null,
  active: null,
  drawerOpen: false,
  setDrawerOpen: (open) => set({ drawerOpen: open }),
}))

let worker: Worker | null = null
let nextScan = 1

function lineageWorker(): Worker {
  worker ??= new Worker(new URL('../../worker/lineage.worker.ts', import.meta.url), { type: 'module', name: 'dsh-lens-lineage' })
  return worker
}

/** Scan `sources` for sessions, show the tree, and open the first root (or `preferKey`). */
export function openBundle(sources: readonly BundleSource[], lens: LensStore): void {
  const id = nextScan++
  useBundleStore.setState({ scanning: { done: 0, total: sources.length }, error: null, drawerOpen: true })
  const w = lineageWorker()
  const onMessage = (event: MessageEvent<LineageResponse>): void => {
    const message = event.data
    if (message.id !== id) return
    if (message.type === 'progress') {
      useBundleStore.setState({ scanning: { done: message.done, total: message.total } })
      return
    }
    w.removeEventListener('message', onMessage)
    if (message.type === 'failed') {
      useBundleStore.setState({ scanning: null, error: message.message })
      return
    }
    useBundleStore.setState({ scanning: null, result: message.result, active: null })
    const first = message.result.tree.roots[0]
    if (first !== undefined) openSession(first, lens)
    else useBundleStore.setState({ error: 'none of the files is a session log' })
  }
  w.addEventListener('message', onMessage)
  w.postMessage({ type: 'scan', id, sources } satisfies LineageRequest)
}

/** Open one session of the bundle in the viewer; with `seq`, move the cursor there (and select it) once loaded. */
export function openSession(key: string, lens: LensStore, seq?: number): void {
  const { result, active } = useBundleStore.getState()
  const session = result?.sessions.find((s) => s.key === key)
  if (session === undefined) return
  const isOpen = active?.key === key && active.generation === lens.getState().loadGeneration
  if (!isOpen) {
    lens.getState().loadFile(session.file)
    useBundleStore.setState({ active: { key, generation: lens.getState().loadGeneration } })
  }
  if (seq !== undefined) jumpWhenReady(lens, lens.getState().loadGeneration, seq)
}

function jumpWhenReady(lens: LensStore, generation: number, seq: number): void {
  const apply = async (): Promise<void> => {
    const s = lens.getState()
    if (s.summary === null) return
    const index = indexOfSeqInSummary(s.summary, seq) ?? (await lens.client.query('index-of-seq', { seq }))
    if (index < 0 || lens.getState().loadGeneration !== generation) return
    lens.getState().setCursor(index)
    lens.getState().select(index, 'link')
  }
  if (lens.getState().loadState === 'ready') {
    void apply()
    return
  }
  const stop = lens.subscribe((s) => {
    if (s.loadGeneration !== generation) return stop()
    if (s.loadState !== 'ready' && s.loadState !== 'error') return
    stop()
    // After the source slice has finished its own reaction to this summary (it moves the cursor to the end).
    setTimeout(() => void apply(), 0)
  })
}
