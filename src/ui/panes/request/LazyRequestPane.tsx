/**
 * The Request view, loaded when its tab is first opened: the first screen never pays for it. Until the chunk
 * arrives the frame carries the same test id (without `data-step`, which appears with the request).
 */

import { PaneFrame } from '../../shared/PaneFrame.tsx'
import { lazy, Suspense } from 'react'

const RequestPane = lazy(async () => ({ default: (await import('./RequestPane.tsx')).RequestPane }))

function RequestPlaceholder() {
  return (
    <PaneFrame title="Request" testId="request-pane" aria-busy="true" className="h-full">
      <p className="p-3 text-muted">Loading the request view…</p>
    </PaneFrame>
  )
}

export function LazyRequestPane() {
  return (
    <Suspense fallback={<RequestPlaceholder />}>
      <RequestPane />
    </Suspense>
  )
}
