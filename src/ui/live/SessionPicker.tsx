/** The session picker of the Connect flow: the server's sessions, newest first, subagent children nested under their parent. */

import { useMemo } from 'react'
import type { SessionListItem } from '../../live/protocol.ts'
import { formatBytes } from '../app/format-bytes.ts'

export interface SessionPickerProps {
  readonly sessions: readonly SessionListItem[] | null
  readonly error: string | null
  readonly current: string | null
  onOpen(sessionId: string): void
  onRefresh(): void
  onClose(): void
}

const BUTTON = 'rounded border border-line bg-raised px-2 py-0.5 text-xs hover:bg-accent-soft'

function when(ms: number | undefined): string {
  return ms === undefined ? '?' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19)
}

/** Roots (no listed parent) in list order, each followed by its descendants, with their depth. */
function nest(items: readonly SessionListItem[]): Array<{ item: SessionListItem; depth: number }> {
  const byId = new Map(items.map((i) => [i.sessionId, i]))
  const out: Array<{ item: SessionListItem; depth: number }> = []
  const seen = new Set<string>()
  const visit = (item: SessionListItem, depth: number): void => {
    if (seen.has(item.sessionId)) return
    seen.add(item.sessionId)
    out.push({ item, depth })
    for (const child of item.children) {
      const c = byId.get(child)
      if (c !== undefined) visit(c, depth + 1)
    }
  }
  for (const item of items) if (item.parentSession === undefined || !byId.has(item.parentSession)) visit(item, 0)
  for (const item of items) visit(item, 0)
  return out
}

export function SessionPicker({ sessions, error, current, onOpen, onRefresh, onClose }: SessionPickerProps) {
  const rows = useMemo(() => (sessions === null ? [] : nest(sessions)), [sessions])
  return (
    <div className="absolute inset-0 z-40 flex items-start justify-center bg-canvas/70 pt-16" role="dialog" aria-label="Sessions">
      <div
        className="flex max-h-[75vh] w-[min(60rem,95vw)] flex-col rounded border border-line bg-panel shadow-lg"
        data-testid="session-picker"
      >
        <header className="flex items-center gap-2 border-b border-line bg-raised px-3 py-1.5">
          <h2 className="text-sm font-semibold">Live sessions</h2>
          <span className="text-xs text-muted">{sessions === null ? 'loading…' : `${sessions.length} found`}</span>
          <div className="ml-auto flex gap-2">
            <button type="button" className={BUTTON} onClick={onRefresh}>
              Refresh
            </button>
            {current !== null ? (
              <button type="button" className={BUTTON} onClick={onClose}>
                Close
              </button>
            ) : null}
          </div>
        </header>
        {error !== null ? <p className="px-3 py-2 text-xs text-danger">Could not list sessions: {error}</p> : null}
        <ul className="min-h-0 overflow-auto">
          {rows.map(({ item, depth }) => (
            <li key={item.path} className="border-b border-line">
              <button
                type="button"
                className={`flex w-full flex-col items-start gap-0.5 px-3 py-1.5 text-left hover:bg-accent-soft ${item.sessionId === current ? 'bg-accent-soft' : ''}`}
                style={{ paddingLeft: `${0.75 + depth * 1.25}rem` }}
                onClick={() => onOpen(item.sessionId)}
                data-testid="session-option"
              >
                <span className="font-mono text-xs">
                  {depth > 0 ? '↳ ' : ''}
                  {item.sessionId}
                  {item.origin === 'subagent' ? <span className="ml-2 text-muted">subagent</span> : null}
                  {item.turnOpen === true ? <span className="ml-2 text-user">● turn open</span> : null}
                </span>
                <span className="text-xs text-muted">
                  {item.cwd ?? 'no cwd'} · created {when(item.createdAt)} · written {when(item.mtimeMs)} ·{' '}
                  {formatBytes(item.sizeBytes)} · {item.encoding}
                  {item.lastSeq !== null ? ` · last seq ${item.lastSeq}` : ''}
                  {item.children.length > 0 ? ` · ${item.children.length} child session(s)` : ''}
                </span>
                {item.headerError !== undefined ? <span className="text-xs text-danger">{item.headerError}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
