/**
 * The replay's controls on the timeline: play/pause (Space too), the speed, and while a long idle gap plays in one
 * second, a note saying so.
 */

import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { formatDuration } from '../../shared/format-duration.ts'
import { REPLAY_SPEEDS, type ReplaySpeed } from './replay-clock.ts'
import { useReplay } from './use-replay.ts'

export function ReplayControls() {
  const store = useLensStoreApi()
  const playing = useLensStore((s) => s.replayPlaying)
  const speed = useLensStore((s) => s.replaySpeed)
  const idleMs = useLensStore((s) => s.replayIdleMs)
  const empty = useLensStore((s) => (s.summary?.length ?? 0) === 0)
  useReplay()
  return (
    <div className="flex shrink-0 items-center gap-1.5 text-xs">
      <button
        type="button"
        data-testid="play"
        data-speed={speed}
        data-playing={playing}
        aria-pressed={playing}
        aria-label={playing ? 'Pause the replay (Space)' : 'Replay the log at the speed it happened (Space)'}
        title={playing ? 'Pause (Space)' : 'Replay at the speed it happened (Space)'}
        disabled={empty}
        onClick={() => store.getState().toggleReplay()}
        className="flex h-6 w-6 items-center justify-center rounded border border-line bg-raised text-ink hover:border-accent disabled:opacity-40"
      >
        <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
      </button>
      <label className="sr-only" htmlFor="replay-speed">
        Replay speed
      </label>
      <select
        id="replay-speed"
        data-testid="replay-speed"
        value={speed}
        onChange={(event) => store.getState().setReplaySpeed(Number(event.target.value) as ReplaySpeed)}
        className="rounded border border-line bg-raised px-0.5 py-0.5 font-mono tabular-nums text-ink"
      >
        {REPLAY_SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
      {idleMs !== null ? (
        <span data-testid="replay-idle" data-gap-ms={idleMs} className="whitespace-nowrap text-muted" aria-live="polite">
          idle {formatDuration(idleMs)}, played in 1 s
        </span>
      ) : null}
    </div>
  )
}
