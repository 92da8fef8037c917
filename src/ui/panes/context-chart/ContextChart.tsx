/**
 * The context chart (issue 8 §4), loaded lazily with uPlot: the surface size after every event (estimated tokens as
 * a min/max band, messages), the usage each step logged (input / output / cache-read tokens), and every compaction
 * and prune as a marker labelled with the tokens it removed. The worker sends a view already cut to the plot's
 * pixel width (`context-series`), so drawing costs the same for 400 events or 1.3M; it is asked again when the
 * plot is resized and, paced, as the log grows (use-context-series.ts). Hover shows the values as text; a click
 * moves the cursor (use-context-plot.ts).
 */

import { useRef, useState, type ReactNode } from 'react'
import { useLensStore } from '../../../store/lens-store-context.tsx'
import { selectCursor, selectSummary } from '../../../store/selectors.ts'
import { useChartColors } from '../../shared/chart-colors.ts'
import { ChartValues } from './ChartValues.tsx'
import { bucketOf, bucketValues, xRange } from './chart-values.ts'
import { plotWidthIn } from './context-chart-options.ts'
import { useChartHeight } from './chart-height.ts'
import { useContextPlot } from './use-context-plot.ts'
import { useContextSeries } from './use-context-series.ts'
import { useBoxWidth } from '../../shared/use-box-width.ts'

export function ContextChart({ toggle }: { toggle: ReactNode }) {
  const summary = useLensStore(selectSummary)
  const cursor = useLensStore(selectCursor)
  const colors = useChartColors()
  const boxRef = useRef<HTMLDivElement>(null)
  const width = useBoxWidth(boxRef)
  const [hoverIndex, setHoverIndex] = useState<number | null>(null)
  // The plot area's width as uPlot reports it once the chart exists (before that, as the options will lay it out):
  // the buckets asked for.
  const [plotWidth, setPlotWidth] = useState(0)
  const answer = useContextSeries(plotWidth > 0 ? plotWidth : width > 0 ? plotWidthIn(width) : 0)
  const height = useChartHeight()
  useContextPlot(boxRef, width, height, answer, colors, cursor, setHoverIndex, setPlotWidth)

  const values = answer === null ? null : bucketValues(answer, bucketOf(answer, hoverIndex ?? cursor))
  return (
    <section
      id="context-chart"
      aria-label="Context over time"
      data-testid="context-chart"
      data-points={answer?.events ?? 0}
      data-drawn={answer?.x.length ?? 0}
      data-bucket-size={answer?.bucketSize ?? 0}
      data-markers={answer?.markerCount ?? 0}
      data-x-min={answer === null ? '' : xRange(answer)[0]}
      data-x-max={answer === null ? '' : xRange(answer)[1]}
      className="@container bg-panel"
    >
      <ChartValues
        lead={toggle}
        answer={answer}
        values={values}
        hovering={hoverIndex !== null}
        seqLabel={summary?.seqIsIndex === false ? 'event' : 'seq'}
        colors={colors}
      />
      <div ref={boxRef} className="relative px-1 text-muted" style={{ height }} />
    </section>
  )
}
