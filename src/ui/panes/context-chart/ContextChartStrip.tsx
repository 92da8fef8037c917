/**
 * The strip above the timeline: a toggle that is always there (open or collapsed, remembered in localStorage), a
 * switch between its modes (Tokens: the context chart, the default; Time: where each step's time went, issue 30;
 * Cost: the money spent over the log, issue 37), and the chart itself loaded after first paint (uPlot and the lanes are chunks of their own, so the initial JS
 * stays small). Collapsed, nothing is loaded or asked of the worker.
 */

import { readPreference, writePreference } from '../../shared/preference-storage.ts'
import { lazy, Suspense, useEffect, type ReactNode } from 'react'
import { ChartHeaderFrame } from './ChartHeaderFrame.tsx'
import { useChartHeight } from './chart-height.ts'
import type { ChartMode } from '../../../store/slices/replay-slice.ts'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectSummary } from '../../../store/selectors.ts'

const ContextChart = lazy(async () => ({ default: (await import('./ContextChart.tsx')).ContextChart }))
const TimeLanesChart = lazy(async () => ({ default: (await import('../time-lanes/TimeLanesChart.tsx')).TimeLanesChart }))
const CostChart = lazy(async () => ({ default: (await import('../cost-chart/CostChart.tsx')).CostChart }))

const OPEN_KEY = 'dsh-lens.context-chart'

/** Restore the remembered open/collapsed state once, then remember every change. */
function useRememberedOpen(): boolean {
  const store = useLensStoreApi()
  const open = useLensStore((s) => s.contextChartOpen)
  useEffect(() => {
    const saved = readPreference(OPEN_KEY)
    if (saved === 'open' || saved === 'closed') store.getState().setContextChartOpen(saved === 'open')
  }, [store])
  useEffect(() => {
    writePreference(OPEN_KEY, open ? 'open' : 'closed')
  }, [open])
  return open
}

const MODES: readonly { mode: ChartMode; label: string; title: string }[] = [
  { mode: 'tokens', label: 'Tokens', title: 'Context size and logged usage over the events' },
  { mode: 'time', label: 'Time', title: 'Model, tool and waiting time per step on a wall-clock axis' },
  { mode: 'cost', label: 'Cost', title: 'Money spent over the events: each step, compaction and cache break (estimates)' },
]

const TITLES: Record<ChartMode, string> = { tokens: 'Context over time', time: 'Time per step', cost: 'Cost over the log' }

function ModeSwitch({ mode }: { mode: ChartMode }) {
  const store = useLensStoreApi()
  return (
    <span role="group" aria-label="Chart mode" className="inline-flex shrink-0 overflow-hidden rounded border border-line">
      {MODES.map((m) => (
        <button
          key={m.mode}
          type="button"
          data-testid={`chart-mode-${m.mode}`}
          aria-pressed={mode === m.mode}
          title={m.title}
          onClick={() => {
            store.getState().setChartMode(m.mode)
            store.getState().setContextChartOpen(true)
          }}
          className={`px-1.5 text-xs ${mode === m.mode ? 'bg-accent-soft font-semibold text-ink' : 'text-muted hover:text-ink'}`}
        >
          {m.label}
        </button>
      ))}
    </span>
  )
}

/**
 * While a chart's chunk loads: the Tokens chart's header frame and height, so its arrival moves nothing on the page
 * (the fallback was 128 pixels and one header line, the chart 56 and two at 1280x800). Tokens is what every page opens
 * on; the Time and Cost charts load on a click of their switch, and take their own sizes when they come.
 */
function ChartFallback({ lead }: { lead: ReactNode }) {
  const height = useChartHeight()
  return (
    <div className="@container bg-panel">
      <ChartHeaderFrame lead={lead} values={null} tail={null} />
      <p className="flex items-center px-3 text-xs text-muted" style={{ height }}>
        Loading the chart…
      </p>
    </div>
  )
}

export function ContextChartStrip() {
  const store = useLensStoreApi()
  const open = useRememberedOpen()
  const mode = useLensStore((s) => s.chartMode)
  const summary = useLensStore(selectSummary)
  const lead = (
    <>
      <button
        type="button"
        data-testid="context-chart-toggle"
        aria-expanded={open}
        aria-controls="context-chart"
        onClick={() => store.getState().setContextChartOpen(!open)}
        className="flex shrink-0 items-center gap-1 rounded px-1 text-xs font-semibold uppercase tracking-wide text-muted hover:text-ink"
      >
        <span aria-hidden="true" className="inline-block w-2.5 text-center">
          {open ? '▾' : '▸'}
        </span>
        {TITLES[mode]}
      </button>
      <ModeSwitch mode={mode} />
    </>
  )
  if (!open || summary === null) {
    return <div className="flex items-center gap-3 bg-panel px-2 py-0.5">{lead}</div>
  }
  // Keyed by mode: switching unmounts the other chart at once (a Suspense boundary would keep it, hidden, while the
  // new one's chunk loads, with its test ids and its queries).
  return (
    <Suspense key={mode} fallback={<ChartFallback lead={lead} />}>
      {mode === 'time' ? (
        <TimeLanesChart lead={lead} />
      ) : mode === 'cost' ? (
        <CostChart lead={lead} />
      ) : (
        <ContextChart toggle={lead} />
      )}
    </Suspense>
  )
}
