/**
 * Plain-words verdict at the top: a read failure, or where the harness would reject the log. The harness's message
 * can quote the log (an event type), so hidden characters show as markers: an override would reverse the banner.
 */

import { useLensStore } from '../../store/lens-store-context.tsx'
import { selectLoadError, selectSummary } from '../../store/selectors.ts'
import { VisibleText } from '../shared/VisibleText.tsx'
import { rejectVerdict } from './verdict.ts'
import { formatCount } from '../shared/format-count.ts'

export function RejectBanner() {
  const summary = useLensStore(selectSummary)
  const loadError = useLensStore(selectLoadError)
  // A load that read no event already says why in `loadError` (the same first error): not twice.
  const verdict = loadError !== null && summary?.length === 0 ? null : rejectVerdict(summary)
  if (loadError === null && verdict === null && summary?.cancelled !== true) return null
  return (
    <div
      role="alert"
      data-testid="reject-banner"
      className="flex flex-col gap-0.5 border-b border-danger bg-danger-soft px-3 py-1.5 text-sm"
    >
      {loadError !== null ? (
        <p className="font-semibold">
          <VisibleText text={loadError} />
        </p>
      ) : null}
      {summary?.cancelled === true ? (
        <p>Loading was cancelled; showing the {formatCount(summary.length)} events read before that.</p>
      ) : null}
      {verdict !== null ? (
        <p>
          <span className="font-semibold">The harness would reject this log</span> ({verdict.where}):{' '}
          <VisibleText text={verdict.message} />
        </p>
      ) : null}
    </div>
  )
}
