/**
 * The replace graph, loaded after first paint: React Flow is the largest library on the page, and the first
 * screen is readable without it. Until the chunk arrives the pane shows its frame with the same test contract
 * (`data-testid=replace-graph`, `data-count`), so nothing that waits for the graph sees a different page.
 */

import { lazy, Suspense } from 'react'
import { useLensStore } from '../../../store/lens-store-context.tsx'
import { selectSnapshot } from '../../../store/selectors.ts'

const ReplaceGraphPane = lazy(async () => ({ default: (await import('./ReplaceGraphPane.tsx')).ReplaceGraphPane }))

function GraphPlaceholder() {
  const count = useLensStore(selectSnapshot)?.replacementCount ?? 0
  return (
    <section
      aria-label="Replace graph"
      data-testid="replace-graph"
      data-count={count}
      aria-busy="true"
      className="flex min-h-0 flex-1 flex-col bg-panel"
    >
      <header className="flex items-center gap-2 border-b border-line bg-raised px-2 py-1">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">Replace graph</h2>
        <span className="text-xs text-muted tabular-nums">{count}</span>
      </header>
      <p className="p-3 text-muted">Loading the graph…</p>
    </section>
  )
}

export function LazyReplaceGraphPane() {
  return (
    <Suspense fallback={<GraphPlaceholder />}>
      <ReplaceGraphPane />
    </Suspense>
  )
}
