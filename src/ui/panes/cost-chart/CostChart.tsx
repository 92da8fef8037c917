/**
 * The Cost mode of the strip above the timeline (issue 37): the money spent so far over the log's events (every step
 * at the instant of its request, every compaction's own summary call), each compaction marked with what it cost (its
 * summary call and the cache break it made) and a bar to the step where its savings paid that back, or on to the end
 * when they never did; other cache breaks (a prune, a rewritten message, a header change) marked under the top edge.
 * The answer is the worker's (`cost`, asked only while this mode is shown); hovering says the call under the pointer,
 * a click moves the cursor, a compaction's label selects it (the inspector then says its pay-back in words).
 *
 * Contract: `[data-testid=cost-chart]` (`data-currency`, `data-total`, `data-calls`, `data-compactions`), its totals
 * `[data-testid=cost-totals]`, one `[data-testid=cost-compaction]` per compaction (`data-seq`, `data-cost`,
 * `data-paid-back-at`, `data-balance`), the hover line `[data-testid=cost-hover]`.
 */

import { useRef, useState, type ReactNode } from 'react'
import { roundAmount } from '../../../core/cost/money-text.ts'
import type { CostAnswer } from '../../../protocol/cost.ts'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectCursor } from '../../../store/selectors.ts'
import { useChartColors } from '../../shared/chart-colors.ts'
import { useBoxWidth } from '../../shared/use-box-width.ts'
import { useChartHeight } from '../context-chart/chart-height.ts'
import { callAt, callText, compactionLabel, labelPlaces } from './cost-values.ts'
import { CostTotals, EstimateNote } from './CostTotals.tsx'
import { useCostAnswer } from './use-cost-answer.ts'
import { useCostPlot, type PlotBox } from './use-cost-plot.ts'

/** A compaction label narrower than this (CSS px) from the previous one shows its mark only. */
const LABEL_PX = 230

function CompactionLabels({ answer, plot }: { answer: CostAnswer; plot: PlotBox }) {
  const store = useLensStoreApi()
  const places = labelPlaces(
    answer.compactions.map((c) => c.index),
    answer.events,
    plot,
    LABEL_PX,
  )
  return (
    <>
      {answer.compactions.map((c, i) => {
        const place = places[i]
        if (c.index < 0 || place === undefined) return null
        const cost = c.summaryCost === null || c.breakCost === null ? '' : roundAmount(c.summaryCost + c.breakCost)
        return (
          <button
            key={c.seq}
            type="button"
            data-testid="cost-compaction"
            data-seq={c.seq}
            data-cost={cost}
            data-paid-back-at={c.paidBackAtStep ?? ''}
            data-balance={c.balance === null ? '' : roundAmount(c.balance)}
            aria-label={`compaction #${c.seq}: ${c.sentence}`}
            title={`compaction #${c.seq}: ${c.sentence}`}
            className={`pointer-events-auto absolute whitespace-nowrap rounded px-1 text-[11px] leading-4 hover:bg-accent-soft ${
              c.paidBackIndex >= 0 ? 'text-user' : 'text-warn'
            } ${place.leftward ? '-translate-x-full' : ''}`}
            style={{ left: place.leftward ? place.x - 2 : place.x + 2, top: Math.max(0, plot.top - 20) }}
            onClick={() => void store.getState().selectSeq(c.seq, 'link', true)}
          >
            {place.roomy ? compactionLabel(c, answer.currency) : '⟲'}
          </button>
        )
      })}
    </>
  )
}

function Key() {
  return (
    <span className="font-sans text-muted">
      <span className="text-accent">▁▁</span> spent so far · <span className="text-warn">┆</span> compaction, its cost; its
      savings run along the top to <span className="text-user">┤</span> where they paid it back ·{' '}
      <span className="text-danger">╷</span> another cache break · hover for a step
    </span>
  )
}

export function CostChart({ lead }: { lead: ReactNode }) {
  const cursor = useLensStore(selectCursor)
  const colors = useChartColors()
  const answer = useCostAnswer()
  const boxRef = useRef<HTMLDivElement>(null)
  const width = useBoxWidth(boxRef)
  const height = useChartHeight()
  const [hover, setHover] = useState<number | null>(null)
  const [plot, setPlot] = useState<PlotBox | null>(null)
  useCostPlot(boxRef, width, height, answer, colors, cursor, setHover, setPlot)
  const k = answer === null || hover === null ? -1 : callAt(answer, hover)

  return (
    <section
      id="context-chart"
      aria-label="Cost over the log"
      data-testid="cost-chart"
      data-currency={answer?.currency ?? ''}
      data-total={answer === null ? '' : roundAmount(answer.totals.cost.total)}
      data-calls={answer?.calls.index.length ?? ''}
      data-compactions={answer?.compactions.length ?? ''}
      className="@container bg-panel"
    >
      {/* Two lines whatever is hovered: the totals, then the hover line (one line high), so hovering never moves the
          page. */}
      <header className="flex flex-wrap items-center gap-x-3 overflow-hidden px-2 pt-1 text-xs">
        {lead}
        {answer !== null ? <CostTotals answer={answer} /> : <span className="text-muted">Pricing the log…</span>}
        {answer !== null ? (
          <span className="ml-auto">
            <EstimateNote card={answer.rateCard} notes={answer.notes} />
          </span>
        ) : null}
        <span
          data-testid="cost-hover"
          data-call={answer !== null && hover !== null && k >= 0 ? (answer.calls.labels[k] ?? '') : ''}
          className="block h-4 basis-full truncate whitespace-nowrap font-mono leading-4 tabular-nums text-ink"
        >
          {answer !== null && hover !== null && k >= 0 ? (
            callText(answer, k)
          ) : answer !== null && answer.calls.index.length === 0 ? (
            <span className="font-sans text-muted">No model call in this log yet.</span>
          ) : (
            <Key />
          )}
        </span>
      </header>
      <div className="relative px-1 text-muted" style={{ height }}>
        <div ref={boxRef} className="h-full" />
        <div className="pointer-events-none absolute inset-y-0 left-1 right-1">
          {answer !== null && plot !== null ? <CompactionLabels answer={answer} plot={plot} /> : null}
        </div>
      </div>
    </section>
  )
}
