/**
 * The Request view, loaded when its tab is first opened: the first screen never pays for it. Until the chunk
 * arrives the frame carries the same test id (without `data-step`, which appears with the request).
 */

import { lazy, Suspense } from 'react'

const RequestPane = lazy(async () => ({ default: (await import('./RequestPane.tsx')).RequestPane }))

function RequestPlaceholder() {
  return (
    <section aria-label="Request" data-testid="request-pane" aria-busy="true" className="flex h-full min-h-0 flex-col bg-panel">
      <header className="flex items-center gap-2 border-b border-line bg-raised px-2 py-1">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">Request</h2>
      </header>
      <p className="p-3 text-muted">Loading the request view…</p>
    </section>
  )
}

export function LazyRequestPane() {
  return (
    <Suspense fallback={<RequestPlaceholder />}>
      <RequestPane />
    </Suspense>
  )
}
