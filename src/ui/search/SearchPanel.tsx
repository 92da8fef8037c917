/**
 * The search bar and its results: the query box (Ctrl/Cmd+F or `/` focuses it, Esc clears), a regex toggle,
 * filters (event type, turn, step, surface events only), the running count, and a virtualized result list.
 * Enter / ↑↓ (in the box or the list) move through results and move the timeline cursor there. The searching is
 * the worker's; this only renders what it sent.
 */

import { useCallback, useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { KNOWN_SESSION_EVENT_TYPES } from '../../core/load/known-event-types.ts'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import type { SearchSpec } from '../../protocol/search.ts'
import { VirtualList } from '../shared/VirtualList.tsx'
import { HighlightedSnippet } from '../shared/HighlightedSnippet.tsx'
import { isTextField } from '../shared/shortcuts.ts'
import { focusesSearch, searchBoxAction } from './search-keys.ts'
import { formatCount } from '../shared/format-count.ts'
import { VisibilityWords } from '../shared/VisibilityWords.tsx'

const FIELD = 'rounded border border-line bg-canvas px-1.5 py-0.5 text-xs'
const RESULT_ROW_PX = 25
/** The result list grows with its rows up to this height, then scrolls (virtualized). */
const RESULTS_MAX_PX = 180
/** The type filter offers the harness's vocabulary (a constant list, no log data on this thread). */
const EVENT_TYPES = [...KNOWN_SESSION_EVENT_TYPES].sort()

function parseNumber(text: string): number | null {
  const n = Number(text)
  return text.trim() === '' || !Number.isSafeInteger(n) || n < 0 ? null : n
}

/** `end`: what the app puts at the row's end (the Secrets answer's toggle: another finder over the same log). */
export function SearchPanel({ end }: { end?: ReactNode } = {}) {
  const store = useLensStoreApi()
  const spec = useLensStore((s) => s.searchSpec)
  const results = useLensStore((s) => s.searchResults)
  const active = useLensStore((s) => s.activeMatch)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      if (!focusesSearch(event, isTextField(event.target))) return
      event.preventDefault()
      input.current?.focus()
      input.current?.select()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  const set = (patch: Partial<SearchSpec>): void => store.getState().setSearch(patch)
  const onBoxKey = (event: KeyboardEvent<HTMLInputElement>): void => {
    const action = searchBoxAction(event)
    if (action === null) return
    event.preventDefault()
    if (action.kind === 'clear') store.getState().clearSearch()
    else store.getState().stepMatch(action.delta)
  }
  const matches = results?.matches ?? []
  const itemKey = useCallback((i: number) => i, [])
  const onRange = useCallback(() => {}, [])
  const count = results?.total ?? 0
  const status =
    results === null
      ? ''
      : results.error !== null
        ? results.error
        : `${formatCount(count)} match${count === 1 ? '' : 'es'}${results.done ? '' : ` · searching ${Math.floor((results.scanned / Math.max(1, results.length)) * 100)}%`}${
            count > matches.length ? ` · first ${formatCount(matches.length)} listed` : ''
          }${results.cutEvents > 0 ? ` · ${formatCount(results.cutEvents)} long events read in part (regex)` : ''}`

  return (
    <section aria-label="Search" className="flex flex-col border-b border-line bg-panel">
      <div className="flex flex-wrap items-center gap-2 px-3 py-1">
        <input
          ref={input}
          type="search"
          data-testid="search-input"
          aria-label="Search every event (Ctrl+F or /)"
          placeholder="Search events…  (Ctrl+F or /)"
          value={spec.text}
          onChange={(event) => set({ text: event.currentTarget.value })}
          onKeyDown={onBoxKey}
          className={`${FIELD} w-72 font-mono`}
        />
        <label className="flex items-center gap-1 text-xs text-muted">
          <input type="checkbox" data-testid="search-regex" checked={spec.regex} onChange={() => set({ regex: !spec.regex })} />
          regex
        </label>
        <select
          aria-label="Event type"
          data-testid="search-type"
          value={spec.types[0] ?? ''}
          onChange={(event) => set({ types: event.currentTarget.value === '' ? [] : [event.currentTarget.value] })}
          className={FIELD}
        >
          <option value="">any type</option>
          {EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <input
          aria-label="Turn"
          placeholder="turn"
          inputMode="numeric"
          data-testid="search-turn"
          defaultValue=""
          onChange={(event) => set({ turn: parseNumber(event.currentTarget.value) })}
          className={`${FIELD} w-14`}
        />
        <input
          aria-label="Step"
          placeholder="step"
          inputMode="numeric"
          data-testid="search-step"
          defaultValue=""
          onChange={(event) => set({ step: parseNumber(event.currentTarget.value) })}
          className={`${FIELD} w-14`}
        />
        <label className="flex items-center gap-1 text-xs text-muted">
          <input
            type="checkbox"
            data-testid="search-surface-only"
            checked={spec.surfaceOnly}
            onChange={() => set({ surfaceOnly: !spec.surfaceOnly })}
          />
          surface events only
        </label>
        <span
          className={`text-xs tabular-nums ${results?.error != null ? 'text-danger' : 'text-muted'}`}
          role="status"
          data-testid="search-status"
        >
          {status}
        </span>
        {results !== null && results.visible.length > 0 ? (
          <span className="flex items-center gap-1 text-xs text-muted">
            <span className="inline-block h-2 w-4 rounded-sm bg-search" aria-hidden="true" /> on the model surface (timeline)
          </span>
        ) : null}
        {end !== undefined ? (
          // Basis 0: what the end holds shrinks into the row's free room rather than wrapping the row.
          <span className="ml-auto flex min-w-40 flex-1 basis-0 items-center justify-end gap-2">{end}</span>
        ) : null}
      </div>
      {results !== null && results.error === null && results.visibleSteps !== null && results.total > 0 ? (
        <VisibilityWords
          spans={results.visibleSteps}
          testId="search-visible-text"
          className="border-t border-line px-3 py-0.5 text-xs"
        />
      ) : null}
      {results !== null && results.error === null ? (
        <div
          data-testid="search-results"
          data-count={count}
          data-done={results.done}
          data-visible={results.visible.map((r) => `${r.from}-${r.to}`).join(',')}
          className="flex min-h-0 flex-col border-t border-line"
          style={{ height: Math.min(RESULTS_MAX_PX, Math.max(1, matches.length) * RESULT_ROW_PX + 2) }}
        >
          <VirtualList
            count={matches.length}
            label="Search results"
            idPrefix="search-result"
            estimateSizePx={RESULT_ROW_PX}
            itemKey={itemKey}
            itemSeq={(i) => matches[i]?.seq ?? undefined}
            itemClassName={(i) => (i === active ? 'bg-accent-soft' : 'hover:bg-raised')}
            renderItem={(i) => {
              const m = matches[i]
              if (m === undefined) return null
              return (
                <div className="flex min-w-0 items-baseline gap-2 px-3 py-1 text-xs">
                  <span className="shrink-0 font-mono tabular-nums text-muted">#{m.seq ?? m.index}</span>
                  <span className="shrink-0 font-semibold">{m.type}</span>
                  <span className="shrink-0 font-mono text-muted">{m.path}</span>
                  <span className="min-w-0 truncate">
                    <HighlightedSnippet text={m.snippet} highlight={m.highlight} />
                  </span>
                </div>
              )
            }}
            activeIndex={active}
            onActivate={(i) => store.getState().activateMatch(i)}
            revealIndex={active}
            onRange={onRange}
            emptyText={results.done ? 'No matches.' : 'Searching…'}
          />
        </div>
      ) : null}
    </section>
  )
}
