/**
 * Pure: how far the replay moves the cursor in some wall-clock time. Events are replayed at the pace their own
 * `time`s say, sped up by the chosen factor; a stretch longer than a minute between two events (the user away, the
 * machine asleep) takes one second instead, and the player says so. An event without a usable time, or one whose
 * clock went back, follows the one before it at once.
 */

import { REPLAY_SPEEDS, type ReplaySpeed } from '../../../store/slices/replay-slice.ts'

export { REPLAY_SPEEDS, type ReplaySpeed }

/** Gaps in the log longer than this are idle, and replayed in IDLE_PLAY_MS. */
export const IDLE_GAP_MS = 60_000
export const IDLE_PLAY_MS = 1_000

/** Where the replay stands: the cursor, the last clock reading at or before it, and the wall time spent toward the next event. */
export interface ReplayPosition {
  readonly index: number
  /** NaN while no event so far had a usable time. */
  readonly clock: number
  readonly spent: number
}

/** Wall milliseconds from an event to the next, `gap` log milliseconds later (NaN: unknown). */
export function wallGap(gap: number, speed: ReplaySpeed): { readonly ms: number; readonly idle: boolean } {
  if (!(gap > 0)) return { ms: 0, idle: false }
  if (gap > IDLE_GAP_MS) return { ms: IDLE_PLAY_MS, idle: true }
  return { ms: gap / speed, idle: false }
}

export interface ReplayStep {
  readonly position: ReplayPosition
  /** The log gap being played compressed right now (ms), or null. */
  readonly idleGapMs: number | null
  /** The next event's time is not loaded yet: ask for more, the replay waits there. */
  readonly starved: boolean
  /** The cursor reached `last`. */
  readonly ended: boolean
}

/**
 * Advance the replay by `wallMs`. `timeAt(i)`: event i's time (NaN when it has none), undefined when not loaded yet.
 * The cursor only moves forward, one event at a time, so every event is passed in order.
 */
export function advanceReplay(
  from: ReplayPosition,
  wallMs: number,
  speed: ReplaySpeed,
  last: number,
  timeAt: (index: number) => number | undefined,
): ReplayStep {
  let { index, clock } = from
  let budget = from.spent + Math.max(0, wallMs)
  let idleGapMs: number | null = null
  let starved = false
  while (index < last) {
    const next = timeAt(index + 1)
    if (next === undefined) {
      starved = true
      break
    }
    const gap = Number.isNaN(next) || Number.isNaN(clock) ? Number.NaN : next - clock
    const { ms, idle } = wallGap(gap, speed)
    if (budget < ms) {
      idleGapMs = idle ? gap : null
      break
    }
    budget -= ms
    index++
    if (!Number.isNaN(next)) clock = next
  }
  const ended = index >= last
  // Waiting for data or at the end, the time spent does not pile up into a burst later.
  return { position: { index, clock, spent: ended || starved ? 0 : budget }, idleGapMs, starved, ended }
}

/** A replay starting at the cursor: its clock is the cursor event's (or unknown). */
export function startAt(index: number, time: number | undefined): ReplayPosition {
  return { index, clock: time ?? Number.NaN, spent: 0 }
}

/** The next speed in the cycle (the speed button steps through them). */
export function nextSpeed(speed: ReplaySpeed): ReplaySpeed {
  return REPLAY_SPEEDS[(REPLAY_SPEEDS.indexOf(speed) + 1) % REPLAY_SPEEDS.length] as ReplaySpeed
}
