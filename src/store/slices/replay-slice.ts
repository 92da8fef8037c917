/**
 * The replay (issue 30): whether it plays, how fast, and the idle gap it is passing compressed right now (said on
 * the timeline). The pace itself is the timeline's (ui/panes/timeline/replay-clock.ts); the store only holds what
 * the controls show. A new load stops it. The Time mode's switch of the chart strip is here too (tokens stay the default).
 */

import type { LensSliceCreator } from './types.ts'

export const REPLAY_SPEEDS = [1, 4, 16, 64] as const
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number]

/** What the strip above the timeline draws: the context chart (tokens over events) or the time lanes. */
export type ChartMode = 'tokens' | 'time'

export interface ReplaySlice {
  replayPlaying: boolean
  replaySpeed: ReplaySpeed
  /** Log milliseconds of the idle gap being played in one second now, or null. */
  replayIdleMs: number | null
  chartMode: ChartMode
  setReplayPlaying: (playing: boolean) => void
  toggleReplay: () => void
  setReplaySpeed: (speed: ReplaySpeed) => void
  setReplayIdle: (ms: number | null) => void
  setChartMode: (mode: ChartMode) => void
  /** The times of events `from..from+count-1` (ms; NaN where an event has none), for the replay's clock. */
  eventTimes: (from: number, count: number) => Promise<Float64Array>
}

export const createReplaySlice: LensSliceCreator<ReplaySlice> =
  ({ lens: client }) =>
  (set, get, api) => {
    api.subscribe((s, previous) => {
      if (s.loadGeneration !== previous.loadGeneration && s.replayPlaying) set({ replayPlaying: false, replayIdleMs: null })
    })
    return {
      replayPlaying: false,
      replaySpeed: 1,
      replayIdleMs: null,
      chartMode: 'tokens',
      setReplayPlaying: (replayPlaying) => set(replayPlaying ? { replayPlaying } : { replayPlaying, replayIdleMs: null }),
      toggleReplay: () => get().setReplayPlaying(!get().replayPlaying),
      setReplaySpeed: (replaySpeed) => set({ replaySpeed }),
      setReplayIdle: (replayIdleMs) => {
        if (get().replayIdleMs !== replayIdleMs) set({ replayIdleMs })
      },
      setChartMode: (chartMode) => set({ chartMode }),
      eventTimes: async (from, count) => (await client.query('event-times', { from, count })).times,
    }
  }
