/**
 * The replace graph, loaded after first paint: React Flow is the largest library on the page, and the first
 * screen is readable without it. Until the chunk arrives the pane shows its frame with the same test contract
 * (`data-testid=replace-graph`, `data-count`), so nothing that waits for the graph sees a different page.
 */

import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { lazy, Suspense } from 'react'
import { useLensStore } from '../../../store/lens-store-context.tsx'
import { selectSnapshot } from '../../../store/selectors.ts'

const ReplaceGraphPane = lazy(async () => ({ default: (await import('./ReplaceGraphPane.tsx')).ReplaceGraphPane }))

function GraphPlaceholder() {
  const count = useLensStore(selectSnapshot)?.replacementCount ?? 0
  return (
    <PaneFrame title="Replace graph" testId="replace-graph" count={count} aria-busy="true" className="flex-1">
      <p className="p-3 text-muted">Loading the graph…</p>
    </PaneFrame>
  )
}

export function LazyReplaceGraphPane() {
  return (
    <Suspense fallback={<GraphPlaceholder />}>
      <ReplaceGraphPane />
    </Suspense>
  )
}
