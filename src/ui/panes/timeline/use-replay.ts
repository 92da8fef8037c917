/**
 * Plays the log while `replayPlaying`: each animation frame moves the cursor as far as the events' own times say
 * (replay-clock.ts), so the panes (transcript, surface, request, graph) follow it as the session happened. It
 * pauses when the cursor moves by anything else (a drag, a click, a key that moves it), on any key but Space (which
 * toggles it), and at the end of the log.
 */

import { useEffect } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { EventTimeBuffer } from './event-time-buffer.ts'
import { advanceReplay, startAt, type ReplayPosition } from './replay-clock.ts'

/** A frame longer than this (a background tab) counts as this long: the replay never leaps. */
const MAX_FRAME_MS = 100

/** Keys that do not stop the replay: Space toggles it, modifiers alone are nothing yet. */
const KEEP_PLAYING = new Set([' ', 'Shift', 'Control', 'Alt', 'Meta'])

export function useReplay(): void {
  const store = useLensStoreApi()
  const playing = useLensStore((s) => s.replayPlaying)
  const speed = useLensStore((s) => s.replaySpeed)
  useEffect(() => {
    if (!playing) return
    const state = store.getState()
    const last = (): number => (store.getState().summary?.length ?? 0) - 1
    // From the start when played at the end.
    if (state.cursor >= last()) state.setCursor(0)
    const buffer = new EventTimeBuffer((from, count) => store.getState().eventTimes(from, count))
    let own = store.getState().cursor
    let position: ReplayPosition | null = null
    let lastFrame = performance.now()
    let frame = 0
    const stop = (): void => store.getState().setReplayPlaying(false)
    const tick = (now: number): void => {
      const s = store.getState()
      if (s.cursor !== own) return stop()
      const wall = Math.min(MAX_FRAME_MS, now - lastFrame)
      lastFrame = now
      if (position === null) {
        // The cursor event's own time starts the clock (once its window is here).
        const time = buffer.get(own)
        if (time === undefined) {
          frame = requestAnimationFrame(tick)
          return
        }
        position = startAt(own, time)
      }
      const step = advanceReplay(position, wall, speed, last(), (i) => buffer.get(i))
      position = step.position
      if (position.index !== own) {
        own = position.index
        s.setCursor(own)
      }
      s.setReplayIdle(step.idleGapMs)
      if (step.ended) return stop()
      frame = requestAnimationFrame(tick)
    }
    frame = requestAnimationFrame(tick)
    const onKey = (event: KeyboardEvent): void => {
      if (!KEEP_PLAYING.has(event.key)) stop()
    }
    document.addEventListener('keydown', onKey, true)
    return () => {
      cancelAnimationFrame(frame)
      document.removeEventListener('keydown', onKey, true)
      store.getState().setReplayIdle(null)
    }
  }, [playing, speed, store])
}
