/**
 * Keeps `#seq=N&sel=M` in the URL in step with the cursor and selection: applied once per load when it becomes
 * ready for the page's own source (`?log=`, the demo, a served session caught up, or the file a `?file=` link names),
 * and on `hashchange`; written back with `replaceState` afterwards, so a reload or a shared link lands on the same
 * state. Writing starts only after the hash was applied, so the initial "cursor at the end" never overwrites a deep
 * link. A later load (a dropped file) opens at its end: the old hash belongs to the old log.
 */

import { useEffect } from 'react'
import type { LensState, LensStore } from '../../store/create-lens-store.ts'
import { useLensStoreApi } from '../../store/lens-store-context.tsx'
import { indexOfSeqInSummary } from '../../protocol/log-summary.ts'
import { formatHash, parseHash } from '../shared/location-hash.ts'
import { applyStepHash, hashStepOf } from '../panes/request/request-hash.ts'
import { withStepParam } from '../panes/request/step-hash.ts'

/** Hash writes are batched to at most one per this interval. */
const HASH_WRITE_MS = 150

async function applyHash(store: LensStore): Promise<void> {
  const { seq, sel } = parseHash(window.location.hash)
  const state = store.getState()
  const summary = state.summary
  if (summary === null) return
  const toIndex = async (s: number): Promise<number> => indexOfSeqInSummary(summary, s) ?? (await store.getState().indexOfSeq(s))
  if (seq !== null) {
    const index = await toIndex(seq)
    if (index >= 0) state.setCursor(index)
  }
  if (sel !== null) {
    const index = await toIndex(sel)
    if (index >= 0) store.getState().select(index, 'link')
  }
  await applyStepHash(store, window.location.hash, seq !== null)
}

function currentHash(store: LensStore): string {
  const s = store.getState()
  if (s.summary === null || s.cursor < 0) return ''
  const cursorSeq = s.summary.seqIsIndex ? s.cursor : s.snapshot?.index === s.cursor ? s.snapshot.seq : null
  const selSeq = s.selected === null ? null : s.summary.seqIsIndex ? s.selected : (s.detail?.summary.seq ?? null)
  return withStepParam(formatHash({ seq: cursorSeq, sel: selSeq }), hashStepOf(s))
}

export function useHashSync(): void {
  const store = useLensStoreApi()
  useEffect(() => {
    let appliedFor = -1
    let applying = false
    let firstLoad = true
    let writeTimer: ReturnType<typeof setTimeout> | undefined
    // The hash as we last left it: anything else in the URL was put there by someone else (a pasted link, a test)
    // and is applied, never overwritten, even when its `hashchange` has not been dispatched yet.
    let ours = window.location.hash
    // An apply still awaiting the worker when the hook unmounts must not write afterwards.
    let disposed = false
    const writeNow = (): void => {
      writeTimer = undefined
      if (disposed) return
      const s = store.getState()
      if (applying || appliedFor !== s.loadGeneration) return
      if (window.location.hash !== ours) return apply()
      const hash = currentHash(store)
      if (hash !== '' && hash !== window.location.hash) history.replaceState(null, '', hash)
      ours = window.location.hash
    }
    // Chrome throttles replaceState floods (and each call costs), so a drag writes the hash once per settle.
    const write = (): void => {
      writeTimer ??= setTimeout(writeNow, HASH_WRITE_MS)
    }
    const apply = (): void => {
      const generation = store.getState().loadGeneration
      ours = window.location.hash
      applying = true
      void applyHash(store).finally(() => {
        applying = false
        appliedFor = generation
        writeNow()
      })
    }
    const onReady = (s: LensState): void => {
      const generation = s.loadGeneration
      if (appliedFor === generation) return
      const match = s.fileMatch
      if (match !== null) {
        // A `?file=` link: its state lands on the file it names, whenever that file is opened; another file opens
        // from its start (the page says it differs), and the link's hash is kept for the right one.
        if (match.same) {
          const url = new URL(window.location.href)
          url.hash = match.expected.hash
          history.replaceState(null, '', url)
          apply()
        } else appliedFor = generation
      } else if (firstLoad) apply()
      else appliedFor = generation
      firstLoad = false
    }
    // Ready: a file or URL folded to its end, or a live feed folded as far as its source was when it was opened.
    const ready = (s: LensState): boolean => s.summary !== null && (s.summary.final || s.settled)
    const unsubscribe = store.subscribe((s, previous) => {
      if (ready(s) && !ready(previous)) onReady(s)
      write()
    })
    // The page's source is opened before React mounts (start-lens.ts, then the staged boot): a small log can be
    // ready before this effect subscribes, and its hash must still be applied.
    const now = store.getState()
    if (ready(now)) onReady(now)
    const onHashChange = (): void => {
      if (window.location.hash !== ours && window.location.hash !== currentHash(store)) apply()
    }
    window.addEventListener('hashchange', onHashChange)
    return () => {
      disposed = true
      unsubscribe()
      clearTimeout(writeTimer)
      window.removeEventListener('hashchange', onHashChange)
    }
  }, [store])
}
