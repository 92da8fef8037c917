/** One surface node: the message the model receives, with replacement nodes marked and their range shown. */

import type { EventSummary } from '../../../protocol/event-views.ts'
import { EntryBody } from '../../shared/EntryBody.tsx'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { TONE_TEXT, replaceRangeText, rowView } from '../../shared/row-view.ts'

export function SurfaceRow({
  seq,
  summary,
  cursor,
  position,
}: {
  seq: number
  summary: EventSummary | undefined
  cursor: number
  position: number
}) {
  if (summary === undefined) {
    return <div className="h-10 px-2 py-2 font-mono text-xs text-muted">#{seq} …</div>
  }
  const view = rowView(summary, cursor, 1)
  const range = replaceRangeText(summary)
  return (
    <div className="px-2 py-1.5">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="w-8 text-right font-mono tabular-nums text-muted" title="position in the model's history">
          {position + 1}.
        </span>
        <span className="font-mono tabular-nums text-muted">#{seq}</span>
        <span className={`font-semibold ${TONE_TEXT[view.tone]}`}>
          <VisibleText text={view.label} />
        </span>
        {range !== null ? (
          <span className="rounded bg-warn-soft px-1 text-ink" data-replace-range>
            {range}
          </span>
        ) : null}
        {view.flags.map((flag) => (
          <span key={flag} className="rounded border border-line px-1 text-muted">
            {flag}
          </span>
        ))}
      </div>
      {summary.deriveError !== null ? (
        <p className="text-danger">{summary.deriveError}</p>
      ) : (
        <EntryBody summary={summary} compact={false} />
      )}
    </div>
  )
}
