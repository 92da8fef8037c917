/**
 * Before the comparison: how far each run has been read (A into the worker's main log, B into the other), then
 * "comparing", or why there is no comparison. `[data-testid=compare-progress]`, one `[data-testid=compare-reading]`
 * per run (`data-run` a | b, `data-state` loading | ready | error).
 */

import type { LoadProgress } from '../../protocol/log-summary.ts'
import { useLensStore } from '../../store/lens-store-context.tsx'
import { runAReady, type CompareView } from '../../store/slices/compare-slice.ts'
import { formatBytes } from '../shared/format-bytes.ts'
import { formatCount } from '../shared/format-count.ts'
import type { CompareState } from './CompareView.tsx'

function Reading({
  run,
  state,
  progress,
  error,
}: {
  run: 'a' | 'b'
  state: 'loading' | 'ready' | 'error'
  progress: LoadProgress | null
  error: string | null
}) {
  const total = progress?.totalBytes ?? null
  const share = progress !== null && total !== null && total > 0 ? Math.min(1, progress.inputBytes / total) : null
  return (
    <li className="flex flex-col gap-1" data-testid="compare-reading" data-run={run} data-state={state}>
      <span className="text-sm">
        <span className="font-semibold">Run {run.toUpperCase()}</span>{' '}
        {state === 'error' ? (
          <span className="text-danger">{error}</span>
        ) : (
          <span className="text-muted tabular-nums">
            {state === 'ready' ? 'read' : 'reading'}
            {progress === null
              ? '…'
              : ` · ${formatBytes(progress.inputBytes)}${total === null ? '' : ` of ${formatBytes(total)}`} · ${formatCount(progress.events)} events`}
          </span>
        )}
      </span>
      <span className="h-1 w-full overflow-hidden rounded bg-raised" aria-hidden="true">
        <span
          className="block h-full bg-accent"
          style={{ width: `${state === 'ready' ? 100 : share === null ? 0 : share * 100}%` }}
        />
      </span>
    </li>
  )
}

export function CompareProgress({ compare, state }: { compare: CompareView; state: CompareState }) {
  const aReady = useLensStore(runAReady)
  const mine = useLensStore((s) => s.loadGeneration === compare.aGeneration)
  const aProgress = useLensStore((s) => (mine ? s.progress : null))
  const aError = useLensStore((s) => (mine && s.loadState === 'error' ? s.loadError : null))
  if (state === 'error' && compare.aGeneration === -1) return null
  return (
    <section aria-label="Reading the runs" className="flex flex-1 flex-col items-center border-t border-line p-8">
      <ul className="flex w-full max-w-xl flex-col gap-4" data-testid="compare-progress">
        <Reading run="a" state={aError !== null ? 'error' : aReady ? 'ready' : 'loading'} progress={aProgress} error={aError} />
        <Reading run="b" state={compare.bLoad.state} progress={compare.bLoad.progress} error={compare.bLoad.error} />
      </ul>
    </section>
  )
}
