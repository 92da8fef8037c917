/** The session picker of the Connect flow: the server's sessions as the sessions tree (subagent children and forks under their parent). */

import { useMemo } from 'react'
import type { SessionListItem } from '../../live/protocol.ts'
import { formatBytes } from '../shared/format-bytes.ts'
import { liveTreeRows } from '../sessions/live-tree-rows.ts'
import { SessionTree } from '../sessions/SessionTree.tsx'
import { BUTTON } from '../shared/button-class.ts'

export interface SessionPickerProps {
  readonly sessions: readonly SessionListItem[] | null
  readonly error: string | null
  readonly current: string | null
  onOpen(sessionId: string): void
  onRefresh(): void
  onClose(): void
}

function when(ms: number | undefined): string {
  return ms === undefined ? '?' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19)
}

export function SessionPicker({ sessions, error, current, onOpen, onRefresh, onClose }: SessionPickerProps) {
  const rows = useMemo(
    () =>
      sessions === null
        ? []
        : liveTreeRows(sessions).map((row) => ({
            ...row,
            detail:
              row.item.source === 'dsh-web' ? (
                <span className="text-muted">
                  {row.item.title !== undefined && row.item.title !== null ? (
                    <span className="font-semibold text-ink">{row.item.title} · </span>
                  ) : null}
                  {row.item.label !== undefined ? `${row.item.label} · ` : ''}
                  {row.item.cwd ?? 'no cwd'} · updated {when(row.item.mtimeMs)} ·{' '}
                  <span className="text-accent" data-testid="session-source" data-source="dsh-web">
                    live via dsh web
                  </span>
                  {row.item.running === true ? <span className="text-user"> · ● running</span> : null}
                  {row.item.upstream === 'gone' ? <span className="text-danger"> · host gone</span> : null}
                </span>
              ) : (
                <>
                  <span className="text-muted">
                    {row.item.cwd ?? 'no cwd'} · created {when(row.item.createdAt)} · written {when(row.item.mtimeMs)} ·{' '}
                    {formatBytes(row.item.sizeBytes)} · {row.item.encoding}
                    {row.item.turnOpen === true ? ' · ● turn open' : ''}
                  </span>
                  {row.item.headerError !== undefined ? <span className="text-danger">{row.item.headerError}</span> : null}
                </>
              ),
          })),
    [sessions],
  )
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
        <SessionTree
          rows={rows}
          current={rows.find((r) => r.id === current)?.key ?? null}
          optionTestId="session-option"
          onOpen={(key) => {
            const item = rows.find((r) => r.key === key)?.item
            if (item !== undefined) onOpen(item.sessionId)
          }}
        />
      </div>
    </div>
  )
}
