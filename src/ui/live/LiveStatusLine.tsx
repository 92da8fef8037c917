/** The live status line: connection state, last seq, events/s, writer state, follow control, and links to parent/subagent sessions. */

import { useLensStore } from '../../store/lens-store-context.tsx'
import type { StreamError } from '../../live/tail-client.ts'
import { sessionItem } from '../../store/live/live-view.ts'
import { SessionActivity } from './SessionActivity.tsx'
import { BUTTON } from '../shared/button-class.ts'

const STATUS_TEXT: Record<string, string> = {
  connecting: 'connecting…',
  connected: 'connected',
  reconnecting: 'reconnecting…',
  reset: 'reset: the log was truncated or replaced, reloading',
  // The stream has caught up with the log: whether the agent still writes is SessionActivity's to say.
  live: 'up to date',
  closed: 'closed',
}

/** The defects the server stepped over: how many, and where the last one is (all of them in the tooltip). */
function DefectNote({ defects }: { defects: readonly StreamError[] }) {
  const where = (d: StreamError): string =>
    [d.diagnostic, d.line === undefined ? null : `line ${d.line}`, d.offset === undefined ? null : `byte ${d.offset}`]
      .filter((x) => x !== null && x !== undefined)
      .join(', ')
  const last = defects[defects.length - 1]
  return (
    <span
      className="text-danger"
      data-testid="live-defects"
      data-count={defects.length}
      title={defects.map((d) => `${where(d)}: ${d.message}`).join('\n')}
    >
      {defects.length} defect(s) stepped over{last === undefined ? '' : ` · last: ${where(last)}`}; later events keep coming
    </span>
  )
}

/**
 * Where a dsh web session comes from and whether the host answers: `gone` keeps the session open read-only (the page
 * resumes when the host is back), `reconnecting` is the moment after the link dropped.
 */
function HostBadge({ upstream }: { upstream: string | null }) {
  if (upstream === 'gone') {
    return (
      <span className="rounded border border-danger px-1.5 text-danger" data-testid="live-upstream" data-upstream="gone">
        host gone · read-only until dsh web answers again
      </span>
    )
  }
  if (upstream === 'reconnecting' || upstream === 'connecting') {
    return (
      <span className="rounded border border-warn px-1.5 text-warn" data-testid="live-upstream" data-upstream={upstream}>
        dsh web {upstream}…
      </span>
    )
  }
  return (
    <span className="rounded border border-accent px-1.5 text-accent" data-testid="live-upstream" data-upstream={upstream ?? ''}>
      live via dsh web
    </span>
  )
}

export function LiveStatusLine() {
  const view = useLensStore((s) => s.liveView)
  const following = useLensStore((s) => s.summary === null || s.cursor >= s.summary.length - 1)
  const openLiveSession = useLensStore((s) => s.openLiveSession)
  const followNewest = useLensStore((s) => s.followNewest)
  const setPickerOpen = useLensStore((s) => s.setPickerOpen)
  const current = view.sessionId === null ? undefined : sessionItem(view.list, view.sessionId)
  const children = current?.children ?? []
  const tone =
    view.status === 'live' ? 'text-user' : view.status === 'reconnecting' || view.status === 'reset' ? 'text-warn' : 'text-muted'
  const viaHost = view.source === 'dsh-web'
  return (
    <div
      className="flex flex-wrap items-center gap-3 border-b border-line bg-raised px-3 py-1 text-xs"
      role="status"
      data-testid="live-status"
      data-status={view.status}
      data-source={view.source ?? 'file'}
      data-upstream={view.upstream ?? ''}
    >
      <span className={`font-semibold ${tone}`}>● {STATUS_TEXT[view.status] ?? view.status}</span>
      <SessionActivity viaHost={viaHost} turnOpen={view.turnOpen} entry={current} />
      {view.detail !== null && view.status === 'reconnecting' ? <span className="text-muted">({view.detail})</span> : null}
      {viaHost ? <HostBadge upstream={view.upstream} /> : null}
      {viaHost && view.title !== null ? (
        <span className="max-w-[24rem] truncate font-semibold" title={view.title} data-testid="live-title">
          {view.title}
        </span>
      ) : null}
      <span className="font-mono">{view.sessionId ?? 'no session'}</span>
      <span className="tabular-nums" data-testid="live-last-seq">
        last seq {view.lastSeq}
      </span>
      {/* Only while the log grows: reading a log that stands still is not a rate of anything. */}
      {view.eventsPerSecond > 0 ? (
        <span className="tabular-nums" data-testid="live-rate">
          {view.eventsPerSecond.toFixed(1)} events/s
        </span>
      ) : null}
      {view.writer === 'missing' ? (
        <span className="text-warn">
          {viaHost ? 'the dsh web host does not have this session (read-only)' : 'log file missing'}
        </span>
      ) : null}
      {view.resets > 0 ? <span className="text-muted">{view.resets} reset(s)</span> : null}
      {view.error !== null ? <span className="text-danger">{view.error}</span> : null}
      {view.defects.length > 0 ? <DefectNote defects={view.defects} /> : null}
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {current?.parentSession !== undefined ? (
          <button type="button" className={BUTTON} onClick={() => openLiveSession(current.parentSession as string)}>
            ↰ parent
          </button>
        ) : null}
        {children.map((id) => (
          <button key={id} type="button" className={BUTTON} title={id} onClick={() => openLiveSession(id)}>
            ↳ {id.slice(0, 18)}
          </button>
        ))}
        {following ? (
          <span className="text-muted" data-testid="live-following">
            following newest
          </span>
        ) : (
          <button type="button" className={`${BUTTON} border-accent`} data-testid="live-follow" onClick={followNewest}>
            Paused · follow newest
          </button>
        )}
        {view.mode === 'served' ? null : (
          <button type="button" className={BUTTON} onClick={() => setPickerOpen(true)}>
            Sessions…
          </button>
        )}
      </div>
    </div>
  )
}
