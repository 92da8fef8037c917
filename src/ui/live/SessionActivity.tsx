/**
 * Whether the followed session's agent is running, said as the sessions home says it, and since when it has been
 * idle when it is not: a finished session opened from the home must not read as a live one (issue 35). The home's
 * rule: a session runs while its last turn is open and its log changed in the last minute (the server's catalog); a
 * dsh web session runs while its host says so. Without a catalog entry (the Connect flow) an open turn is all there is.
 *
 * Contract: `[data-testid=live-running]` while it runs; `[data-testid=live-idle]` with `data-since` (the log's last
 * change, ms since the epoch) while it does not.
 */

import type { SessionListItem } from '../../live/protocol.ts'
import { relativeTime } from '../shared/relative-time.ts'
import { useNow } from '../shared/use-now.ts'

/** A clock time for today, else the date and time (local). */
function clockTime(ms: number, now: number): string {
  const at = new Date(ms)
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
  return at.toDateString() === new Date(now).toDateString() ? time : `${at.toLocaleDateString()} ${time}`
}

export function SessionActivity({
  viaHost,
  turnOpen,
  entry,
}: {
  /** Followed through a dsh web host: `turnOpen` is then the host's running flag. */
  readonly viaHost: boolean
  readonly turnOpen: boolean | null
  /** The session's row in the served catalog, when there is one. */
  readonly entry: SessionListItem | undefined
}) {
  const now = useNow()
  const running = viaHost ? turnOpen === true : entry !== undefined ? entry.running === true : turnOpen === true
  if (running) {
    return (
      <span className="text-user" data-testid="live-running">
        {viaHost || entry !== undefined ? 'running' : 'turn open'}
      </span>
    )
  }
  if (entry === undefined) return null
  return (
    <span
      className="text-muted"
      data-testid="live-idle"
      data-since={entry.mtimeMs}
      title={`the log last changed at ${new Date(entry.mtimeMs).toISOString()}${entry.turnOpen === true ? '; its last turn never ended' : ''}`}
    >
      not running · idle since {clockTime(entry.mtimeMs, now)} ({relativeTime(entry.mtimeMs, now)})
    </span>
  )
}
