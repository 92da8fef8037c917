/**
 * The Compare view's head: which two runs (A, B) with what each holds, the sentence of where they parted (the core's
 * `partedLine`, as `dsh-lens diff` prints it first), the first divergence marked with a way to its pair, and the
 * view's own controls (compare again when a followed run A grew, close).
 *
 * Contract: `[data-testid=compare-parted]`; `[data-testid=first-divergence]` with `data-kind`, `data-seq-a`,
 * `data-seq-b`, `data-index` (absent when the runs are equal: `[data-testid=compare-equal]` says so);
 * `[data-testid=compare-run-a]` / `-b` with `data-session-id`; `[data-testid=compare-close]`, `[data-testid=compare-refresh]` with
 * `[data-testid=compare-grown]` (how many events a followed run A has grown by since compared).
 */

import type { CompareRun } from '../../protocol/compare.ts'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import type { CompareRunRef, CompareView } from '../../store/slices/compare-slice.ts'
import { formatCount } from '../shared/format-count.ts'
import { VisibleText } from '../shared/VisibleText.tsx'
import type { CompareState } from './CompareView.tsx'
import { KIND_WORDS } from './compare-words.ts'
import { BUTTON } from '../shared/button-class.ts'

function RunLabel({ side, run, counts }: { side: 'a' | 'b'; run: CompareRunRef; counts: CompareRun | null }) {
  const id = run.source.kind === 'session' ? run.source.sessionId : (counts?.sessionId ?? null)
  return (
    <span className="flex min-w-0 items-baseline gap-1.5" data-testid={`compare-run-${side}`} data-session-id={id ?? ''}>
      <span className={`rounded px-1 font-mono text-xs font-bold text-canvas ${side === 'a' ? 'bg-assistant' : 'bg-tool'}`}>
        {side.toUpperCase()}
      </span>
      <span className="max-w-96 truncate font-semibold" title={id === null ? run.label : `${run.label} (${id})`}>
        <VisibleText text={run.label} />
      </span>
      {counts === null ? null : (
        <span className="shrink-0 text-xs text-muted tabular-nums">
          {formatCount(counts.events)} events · {formatCount(counts.turns)} turns · {formatCount(counts.steps)} steps
        </span>
      )}
    </span>
  )
}

export function CompareHeader({ compare, state }: { compare: CompareView; state: CompareState }) {
  const store = useLensStoreApi()
  const served = useLensStore((s) => s.liveView.mode === 'served')
  const length = useLensStore((s) => (s.loadGeneration === compare.aGeneration ? (s.summary?.length ?? 0) : 0))
  const overview = compare.overview
  const first = overview?.first ?? null
  const grown = overview === null ? 0 : length - overview.runs.a.events
  const bothSessions = compare.a.source.kind === 'session' && compare.b.source.kind === 'session'
  const close = (): void => (served && bothSessions ? store.getState().goHome() : store.getState().closeCompare())
  return (
    <header className="flex flex-col gap-1.5 bg-panel px-4 py-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">Compare</h2>
        <RunLabel side="a" run={compare.a} counts={overview?.runs.a ?? null} />
        <span className="text-muted">with</span>
        <RunLabel side="b" run={compare.b} counts={overview?.runs.b ?? null} />
        <span className="ml-auto flex items-center gap-2">
          {grown > 0 ? (
            <>
              <span className="text-xs text-warn" data-testid="compare-grown">
                A has {formatCount(grown)} more event{grown === 1 ? '' : 's'} since compared
              </span>
              <button
                type="button"
                className={BUTTON}
                data-testid="compare-refresh"
                onClick={() => store.getState().refreshCompare()}
              >
                Compare again
              </button>
            </>
          ) : null}
          <button
            type="button"
            className={BUTTON}
            data-testid="compare-close"
            title={served && bothSessions ? 'Back to the sessions' : 'Back to run A'}
            onClick={close}
          >
            {served && bothSessions ? '← Sessions' : 'Close comparison'}
          </button>
        </span>
      </div>
      {overview !== null ? (
        <p className="text-base font-semibold" data-testid="compare-parted">
          <VisibleText text={overview.parted.charAt(0).toUpperCase() + overview.parted.slice(1)} />
        </p>
      ) : state === 'error' ? (
        <p className="font-semibold text-danger" role="alert" data-testid="compare-error">
          {compare.error}
        </p>
      ) : (
        <p className="text-muted" role="status">
          {state === 'comparing' ? 'Comparing the two runs…' : 'Reading the two runs…'}
        </p>
      )}
      {overview === null ? null : first === null ? (
        <p className="text-xs text-muted" data-testid="compare-equal">
          No divergence: every request and every answer is the same (ids and times aside).
        </p>
      ) : (
        <div
          className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded border border-danger bg-danger-soft px-2 py-1 text-xs"
          data-testid="first-divergence"
          data-kind={first.divergence.kind}
          data-seq-a={first.divergence.a.seq}
          data-seq-b={first.divergence.b.seq}
          data-index={first.index}
        >
          <span className="font-semibold text-danger">First divergence</span>
          <span className="rounded border border-danger px-1 text-danger" title={KIND_WORDS[first.divergence.kind].title}>
            {KIND_WORDS[first.divergence.kind].label}
          </span>
          <span className="font-mono tabular-nums">
            A #{first.divergence.a.seq} · B #{first.divergence.b.seq}
          </span>
          <span className="min-w-0 flex-1 truncate text-ink" title={first.divergence.message}>
            <VisibleText text={first.divergence.message} />
          </span>
          {compare.picked === first.index ? null : (
            <button
              type="button"
              className={BUTTON}
              data-testid="first-divergence-show"
              onClick={() => store.getState().pickComparePair(first.index)}
            >
              Show this pair
            </button>
          )}
        </div>
      )}
    </header>
  )
}
