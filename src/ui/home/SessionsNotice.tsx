/** What the sessions home says instead of rows: signed out, still listing, or nothing found (and where it looked). */

import { useLensStore } from '../../store/lens-store-context.tsx'

export function SessionsNotice({ count, signedIn }: { count: number; signedIn: boolean }) {
  const roots = useLensStore((s) => s.liveView.list.roots)
  const listed = useLensStore((s) => s.liveView.list.items !== null)
  const status = useLensStore((s) => s.liveView.status)
  if (!signedIn && !listed) {
    return (
      <p className="my-3 rounded border border-warn bg-warn-soft px-3 py-2" data-testid="sessions-signed-out">
        This page is not signed in: open the URL that <code>dsh-lens</code> printed (it carries a one-time token), or run{' '}
        <code>dsh-lens</code> again.
      </p>
    )
  }
  if (!listed) {
    return <p className="my-3 text-muted">{status === 'reconnecting' ? 'Reconnecting to dsh-lens…' : 'Listing sessions…'}</p>
  }
  if (count > 0) return null
  const where = roots.map((r) => r.path).join(', ')
  return (
    <p className="my-3 rounded border border-line bg-panel px-3 py-2" data-testid="sessions-empty">
      No sessions were found at <code>{where}</code>: run <code>dsh-lens open PATH</code> or set <code>DSH_HOME</code> to look
      elsewhere, or drop a session log here.
    </p>
  )
}
