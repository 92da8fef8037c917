/** Plain-words verdict at the top: a read failure, or where the harness would reject the log. */

import { useLensStore } from '../../store/lens-store-context.tsx'
import { selectLoadError, selectSummary } from '../../store/selectors.ts'
import { rejectVerdict } from './verdict.ts'

export function RejectBanner() {
  const summary = useLensStore(selectSummary)
  const loadError = useLensStore(selectLoadError)
  const verdict = rejectVerdict(summary)
  if (loadError === null && verdict === null && summary?.cancelled !== true) return null
  return (
    <div
      role="alert"
      data-testid="reject-banner"
      className="flex flex-col gap-0.5 border-b border-danger bg-danger-soft px-3 py-1.5 text-sm"
    >
      {loadError !== null ? <p className="font-semibold">{loadError}</p> : null}
      {summary?.cancelled === true ? (
        <p>Loading was cancelled; showing the {summary.length.toLocaleString('en-US')} events read before that.</p>
      ) : null}
      {verdict !== null ? (
        <p>
          <span className="font-semibold">The harness would reject this log</span> ({verdict.where}): {verdict.message}
        </p>
      ) : null}
    </div>
  )
}
