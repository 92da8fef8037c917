/**
 * A link into a log that is still opening (a session of the sessions bundle, the Compare view's way back to a run):
 * once the load of `generation` has all it had when it started (a file read through, a followed session caught up),
 * the cursor moves to `seq` and selects it. The load may not have started yet (a session's starts when the server's
 * snapshot arrives); a later load drops the jump: the seq belongs to this log.
 */

import type { StoreApi } from 'zustand/vanilla'
import type { LensState } from './slices/types.ts'

export function jumpWhenReady(api: StoreApi<LensState>, generation: number, seq: number, then?: () => void): void {
  const apply = (): void => {
    if (api.getState().loadGeneration !== generation) return
    void api.getState().selectSeq(seq, 'link', true)
    then?.()
  }
  const ready = (s: LensState): boolean => s.loadGeneration === generation && (s.settled || s.loadState === 'error')
  if (ready(api.getState())) return apply()
  const stop = api.subscribe((s) => {
    if (s.loadGeneration > generation) return stop()
    if (!ready(s)) return
    stop()
    // After the source slice has finished its own reaction to this summary (it moves the cursor to the end).
    setTimeout(apply, 0)
  })
}
