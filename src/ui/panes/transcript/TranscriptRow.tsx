/** One transcript entry: role or event type, seq, flags, shadowed marker, and the preview body. */

import type { EventSummary, TranscriptRowRef } from '../../../protocol/event-views.ts'
import { EntryBody } from '../../shared/EntryBody.tsx'
import { VisibleText } from '../../shared/VisibleText.tsx'
import { TONE_TEXT, replaceRangeText, rowView } from '../../shared/row-view.ts'
import { LifespanBar } from './LifespanBar.tsx'

export interface TranscriptRowProps {
  readonly rowRef: TranscriptRowRef | undefined
  readonly summary: EventSummary | undefined
  readonly cursor: number
  /** Events in the session, for the lifespan bar (absent: no bar). */
  readonly length?: number
}

export function TranscriptRow({ rowRef, summary, cursor, length }: TranscriptRowProps) {
  if (rowRef === undefined || summary === undefined) return <div className="h-10 px-2 py-2 text-muted">…</div>
  const view = rowView(summary, cursor, rowRef.span)
  const compact = summary.kind !== 'message'
  return (
    // A shadowed entry is marked by a rule on its left and its badge, not by fading it (faded text fails contrast).
    <div
      className={`px-2 py-1.5 ${view.shadowedBy !== null ? 'shadow-[inset_3px_0_0_var(--color-line)]' : ''}`}
      data-shadowed={view.shadowedBy !== null}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-mono tabular-nums text-muted">
          #{summary.seq ?? '?'}
          {rowRef.span > 1 && summary.seq !== null ? `–#${summary.seq + rowRef.span - 1}` : ''}
        </span>
        <span className={`font-semibold ${TONE_TEXT[view.tone]}`}>
          <VisibleText text={view.label} />
        </span>
        {view.shadowedBy !== null ? (
          <span className="rounded bg-shadowed px-1 text-muted" data-shadowed-by={view.shadowedBy}>
            shadowed by #{view.shadowedBy}
          </span>
        ) : null}
        {compact && summary.replace !== null ? <span className="text-warn">{replaceRangeText(summary)}</span> : null}
        {view.flags.map((flag) => (
          <span key={flag} className="rounded border border-line px-1 text-muted">
            {flag}
          </span>
        ))}
      </div>
      <EntryBody summary={summary} compact={compact} />
      {length !== undefined ? <LifespanBar surface={summary.surface} length={length} cursor={cursor} /> : null}
    </div>
  )
}
