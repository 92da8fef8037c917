/**
 * The entry's visibility lifespan as a thin bar over the whole session: where it entered the model surface and
 * where it was shadowed (or the end), with a tick at the cursor. Entries that never reached the surface show none.
 */

import { lifespanOf, spanFractions } from '../../shared/lifespan.ts'
import type { EventSummary } from '../../../protocol/event-views.ts'

export function LifespanBar({ surface, length, cursor }: { surface: EventSummary['surface']; length: number; cursor: number }) {
  const span = lifespanOf(surface, length)
  if (span === null) return null
  const last = length - 1
  const { left, width } = spanFractions(span.from, span.to, last)
  const seen = cursor >= span.from && cursor <= span.to
  const title = `visible to the model from #${span.from} to #${span.to}${span.open ? ' (the end of the log)' : ''}${seen ? ', and at the cursor' : ''}`
  return (
    <div
      className="relative mt-1 h-1 w-full rounded-sm bg-raised"
      data-testid="lifespan"
      data-from={span.from}
      data-to={span.to}
      title={title}
      aria-label={title}
      role="img"
    >
      <span
        className={`absolute top-0 h-full rounded-sm bg-lifespan ${seen ? '' : 'opacity-50'}`}
        style={{ left: `${left * 100}%`, width: `${width * 100}%` }}
      />
      {last > 0 && cursor >= 0 ? (
        <span className="absolute -top-0.5 h-2 w-px bg-ink/60" style={{ left: `${(cursor / last) * 100}%` }} aria-hidden="true" />
      ) : null}
    </div>
  )
}
