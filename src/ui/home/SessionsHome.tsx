/**
 * The first page of `dsh-lens`: every session under the served paths, grouped by project, newest first, with its
 * title, project, when it was updated and created, size, event count, a running badge and its children nested under
 * it. The rows come from headers at once; titles, counts and running fill in as the server scans (its progress is
 * shown); new sessions and growing logs appear by themselves (`watch-sessions`). `/` focuses the filter, ↑↓ move
 * between rows, Enter or a click opens one.
 *
 * Contract: `[data-testid=sessions-home]` (`data-state` scanning|ready, `data-count`), one `[data-testid=session-row]`
 * per session shown (`data-session-id`, `data-title`, `data-project`, `data-updated`, `data-created`, `data-events`,
 * `data-running`, `data-kind`, `data-parent-id`, `data-source` file|dsh-web, `data-cost`: its own calls' cost in the
 * page's currency, empty until scanned or without a price), each project's `[data-testid=sessions-project]` with
 * `data-cost` (its sessions' total, subagents included), `[data-testid=sessions-filter]`. With
 * `--dsh`, the rows of the host's sessions (a session both on disk and in the host is one row, from the host) carry a
 * badge `[data-testid=session-source]` (`data-source`, `data-upstream`): "live via dsh web", or the host's trouble.
 * Compare: each row's `[data-testid=session-compare-pick]` (two picked open the Compare view, the first as run A) and,
 * on a subagent's or fork's row whose parent is listed, `[data-testid=session-compare-parent]`.
 * Above the rows, the content search of every session's text (HomeSearch.tsx).
 */

import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { moneyText, roundAmount } from '../../core/cost/money-text.ts'
import { useLensStore } from '../../store/lens-store-context.tsx'
import { formatCount } from '../shared/format-count.ts'
import { VisibleText } from '../shared/VisibleText.tsx'
import { useNow } from '../shared/use-now.ts'
import { HomeSearch } from './HomeSearch.tsx'
import { homeGroups, projectCosts, shortProject, type HomeGroup, type HomeRow } from './home-rows.ts'
import { SessionRow } from './SessionRow.tsx'
import { SessionsNotice } from './SessionsNotice.tsx'

/** Rows drawn before the rest of a long list, then rows added per task. */
const FIRST_SCREEN_ROWS = 40
const ROWS_PER_TASK = 200

/** The groups cut to their first `count` rows in all. */
function firstRows(groups: readonly HomeGroup[], count: number): HomeGroup[] {
  const out: HomeGroup[] = []
  let left = count
  for (const group of groups) {
    if (left <= 0) break
    out.push(group.rows.length <= left ? group : { ...group, rows: group.rows.slice(0, left) })
    left -= group.rows.length
  }
  return out
}

export function SessionsHome({ signedIn }: { signedIn: boolean }) {
  const catalog = useLensStore((s) => s.liveView.list)
  const open = useLensStore((s) => s.openLiveSession)
  const openCompare = useLensStore((s) => s.openLiveCompare)
  // The first of two sessions picked to compare: picking a second opens the Compare view (A: the first picked).
  const [picked, setPicked] = useState<string | null>(null)
  const [filter, setFilter] = useState('')
  const deferredFilter = useDeferredValue(filter)
  const now = useNow()
  const filterRef = useRef<HTMLInputElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const [activePath, setActivePath] = useState<string | null>(null)
  const items = catalog.items
  const currency = useLensStore((s) => s.currency)
  const costs = useMemo(
    () => (items === null ? new Map<string, number>() : projectCosts(items.values(), currency)),
    [items, currency],
  )
  const allGroups = useMemo(() => (items === null ? [] : homeGroups(items.values(), deferredFilter)), [items, deferredFilter])
  // A first screen of rows at once, then the rest a batch per task: a thousand rows take a while to draw, the top of
  // the list should not wait for the bottom, and the scan's updates (every 200 ms) must not restart the drawing (a
  // deferred render of the whole list was restarted by each, and starved).
  const total = useMemo(() => allGroups.reduce((n, g) => n + g.rows.length, 0), [allGroups])
  const [limit, setLimit] = useState(FIRST_SCREEN_ROWS)
  useEffect(() => {
    if (limit >= total) return
    const timer = setTimeout(() => setLimit((l) => l + ROWS_PER_TASK), 0)
    return () => clearTimeout(timer)
  }, [limit, total])
  const groups = useMemo(() => (limit >= total ? allGroups : firstRows(allGroups, limit)), [allGroups, limit, total])
  const rows = useMemo(() => allGroups.flatMap((g) => g.rows), [allGroups])
  const count = items?.size ?? 0
  const scan = catalog.scan
  const scanning = items === null || (scan !== null && scan.scanned < scan.total)
  const active = rows.find((r) => r.item.path === activePath) ?? null

  useEffect(() => {
    // `/` focuses the filter from anywhere on the page that is not a text field.
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
      const target = event.target as HTMLElement | null
      if (target !== null && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return
      event.preventDefault()
      filterRef.current?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  const focusRow = (row: HomeRow | undefined): void => {
    if (row === undefined) return
    setActivePath(row.item.path)
    listRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(row.item.path)}"] [data-row-open]`)?.focus()
  }
  const onPick = useCallback(
    (id: string): void => {
      if (picked === null) return setPicked(id)
      if (picked === id) return setPicked(null)
      setPicked(null)
      openCompare(picked, id)
    },
    [picked, openCompare],
  )
  const listedIds = useMemo(() => new Set(items === null ? [] : [...items.values()].map((i) => i.sessionId)), [items])
  const onCompareParent = useCallback((parent: string, id: string): void => openCompare(parent, id), [openCompare])
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    const inFilter = event.target === filterRef.current
    const at = active === null ? -1 : rows.indexOf(active)
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      focusRow(rows[inFilter ? 0 : Math.min(rows.length - 1, at + 1)])
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      if (at <= 0) filterRef.current?.focus()
      else focusRow(rows[at - 1])
    } else if (event.key === 'Enter') {
      const row = inFilter ? (active ?? rows[0]) : active
      if (row === undefined || row === null) return
      event.preventDefault()
      open(row.item.sessionId)
    } else if (event.key === 'Escape' && inFilter && filter !== '') {
      event.preventDefault()
      setFilter('')
    }
  }

  return (
    <section
      data-testid="sessions-home"
      data-state={scanning ? 'scanning' : 'ready'}
      data-count={count}
      data-shown={rows.length}
      aria-label="Sessions"
      className="min-h-0 flex-1 overflow-auto bg-canvas"
      onKeyDown={onKeyDown}
    >
      <div className="mx-auto flex w-full max-w-6xl flex-col px-6 py-4">
        <header className="flex flex-wrap items-center gap-3">
          <h2 className="text-lg font-semibold">Sessions</h2>
          <span className="text-xs text-muted tabular-nums" data-testid="sessions-progress">
            {formatCount(count)} session{count === 1 ? '' : 's'}
            {scan !== null && scan.scanned < scan.total
              ? ` · reading logs: ${formatCount(scan.scanned)} of ${formatCount(scan.total)}`
              : ''}
          </span>
          <input
            ref={filterRef}
            type="search"
            data-testid="sessions-filter"
            aria-label="Filter sessions by title, project or id"
            placeholder="Filter: title, project or id   ( / )"
            className="ml-auto w-80 rounded border border-line bg-panel px-2 py-1"
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
        </header>
        <HomeSearch />
        <SessionsNotice count={count} signedIn={signedIn} />
        <div ref={listRef} role="listbox" aria-label="Sessions by project">
          {groups.map((group) => (
            <section
              key={group.project}
              role="group"
              aria-label={group.project === '' ? 'no project' : group.project}
              className="mt-4 overflow-hidden rounded border border-line bg-panel"
            >
              <h3
                title={group.project === '' ? 'sessions whose header has no cwd' : group.project}
                data-testid="sessions-project"
                data-cost={roundAmount(costs.get(group.project) ?? 0)}
                className="flex border-b border-line bg-raised px-3 py-1 text-xs font-semibold"
              >
                <VisibleText text={shortProject(group.project)} />
                <span
                  className="ml-auto font-normal text-muted tabular-nums"
                  title="what its sessions cost, subagents included (estimates)"
                >
                  {moneyText(costs.get(group.project) ?? 0, currency)}
                </span>
              </h3>
              <ul role="presentation">
                {group.rows.map((row) => (
                  <SessionRow
                    key={row.item.path}
                    item={row.item}
                    depth={row.depth}
                    childCount={row.childCount}
                    now={now}
                    active={row === active || (active === null && row === rows[0])}
                    picked={row.item.sessionId === picked}
                    parentListed={row.item.parentSession !== undefined && listedIds.has(row.item.parentSession)}
                    currency={currency}
                    onOpen={open}
                    onFocusRow={setActivePath}
                    onPick={onPick}
                    onCompareParent={onCompareParent}
                  />
                ))}
              </ul>
            </section>
          ))}
        </div>
        {rows.length === 0 && count > 0 ? <p className="my-3 text-muted">No session matches “{filter}”.</p> : null}
      </div>
    </section>
  )
}
