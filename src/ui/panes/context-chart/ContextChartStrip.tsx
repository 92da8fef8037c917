/**
 * The strip above the timeline that holds the context chart: a toggle that is always there (open or collapsed,
 * remembered in localStorage), and the chart itself loaded after first paint (uPlot is its own chunk, so the
 * initial JS stays small). Collapsed, nothing is loaded or asked of the worker.
 */

import { readPreference, writePreference } from '../../shared/preference-storage.ts'
import { lazy, Suspense, useEffect } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectSummary } from '../../../store/selectors.ts'

const ContextChart = lazy(async () => ({ default: (await import('./ContextChart.tsx')).ContextChart }))

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

export function ContextChartStrip() {
  const store = useLensStoreApi()
  const open = useRememberedOpen()
  const summary = useLensStore(selectSummary)
  const toggle = (
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
      Context over time
    </button>
  )
  if (!open || summary === null) {
    return <div className="flex items-center bg-panel px-2 py-0.5">{toggle}</div>
  }
  return (
    <Suspense
      fallback={
        <div className="bg-panel">
          <div className="px-2 pt-1">{toggle}</div>
          <p className="flex h-32 items-center px-3 text-xs text-muted">Loading the chart…</p>
        </div>
      }
    >
      <ContextChart toggle={toggle} />
    </Suspense>
  )
}
