/**
 * The middle column: the model surface at the cursor, or the Request view (the request the harness built for a
 * step), as two tabs. The surface pane keeps its contract (`[data-testid=surface-pane]`) whenever its tab is shown.
 * Tabs: `[data-testid=surface-tab]`, `[data-testid=request-tab]` (`aria-selected`).
 */

import type { KeyboardEvent } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import type { MiddleTab } from '../../../store/slices/request-slice.ts'
import { SurfacePane } from '../surface/SurfacePane.tsx'
import { LazyRequestPane } from './LazyRequestPane.tsx'
import { shortcutFor } from '../../shared/shortcuts.ts'

const TABS: readonly { tab: MiddleTab; label: string; title: string }[] = [
  { tab: 'surface', label: 'Model surface', title: 'The surface at the cursor: every node the model would be sent' },
  {
    tab: 'request',
    label: 'Request',
    title: 'The request the harness built for a step, and what changed since the previous step',
  },
]

export function MiddleColumn() {
  const store = useLensStoreApi()
  const current = useLensStore((s) => s.middleTab)
  // The tabs pattern: one Tab stop for the row (the shown tab), ←/→ (and Home/End) show and focus the other.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    const at = TABS.findIndex((t) => t.tab === current)
    const action = shortcutFor('tabs', event)
    if (action === null) return
    const next = {
      next: (at + 1) % TABS.length,
      previous: (at + TABS.length - 1) % TABS.length,
      first: 0,
      last: TABS.length - 1,
    }[action]
    event.preventDefault()
    store.getState().setMiddleTab((TABS[next] as (typeof TABS)[number]).tab)
    event.currentTarget.querySelectorAll<HTMLElement>('[role=tab]')[next]?.focus()
  }
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div
        role="tablist"
        aria-label="Middle pane"
        onKeyDown={onTabKey}
        className="flex shrink-0 gap-px border-b border-line bg-canvas px-1 pt-0.5"
      >
        {TABS.map(({ tab, label, title }) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={tab === current}
            tabIndex={tab === current ? 0 : -1}
            data-testid={`${tab}-tab`}
            title={title}
            onClick={() => store.getState().setMiddleTab(tab)}
            className={`rounded-t border border-b-0 px-2.5 py-0.5 text-xs ${
              tab === current ? 'border-line bg-raised font-semibold text-ink' : 'border-transparent text-muted hover:text-ink'
            }`}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="min-h-0 flex-1" role="tabpanel">
        {current === 'surface' ? <SurfacePane /> : <LazyRequestPane />}
      </div>
    </div>
  )
}
