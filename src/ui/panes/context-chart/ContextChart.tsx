/**
 * The context chart (issue 8 §4), loaded lazily with uPlot: the surface size after every event (estimated tokens as
 * a min/max band, messages), the usage each step logged (input / output / cache-read tokens), and every compaction
 * and prune as a marker labelled with the tokens it removed. The worker sends a view already cut to the plot's
 * pixel width (`context-series`), so drawing costs the same for 400 events or 1.3M; it is asked again when the
 * plot is resized and, throttled, as the log grows. Hover shows the values as text; a click moves the cursor.
 */

import { useEffect, useRef, useState, type ReactNode } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { selectCursor, selectSummary } from '../../../store/selectors.ts'
import type { ContextSeriesAnswer } from '../../../protocol/context-series.ts'
import { useChartColors, type ChartColors } from './chart-colors.ts'
import {
  bucketOf,
  bucketValues,
  dashesStandApart,
  dotsStandApart,
  indexAtOffset,
  rangeText,
  shortCount,
  valueChanges,
  withGaps,
  xRange,
} from './chart-values.ts'
import { formatCount } from '../../shared/format-count.ts'
import { useChartHeight } from './chart-height.ts'

/** Chart heights (px) from which the y axes carry their rotated titles. */
const AXIS_TITLES_FROM = 96

/** At most one query per this interval while a live log grows (the last change is always fetched). */
const REQUERY_INTERVAL_MS = 250
/** The same while a file or URL is still loading (interim summaries): the load path gets the worker's time. */
const LOADING_REQUERY_INTERVAL_MS = 1000
/**
 * A series still being built (1.3M events: ~40 worker slices after the load) is drawn at most once per this interval:
 * each redraw is a 50 ms main-thread task on such a log, and drawing every slice's answer kept the page busy for
 * seconds after ready (the cursor drag's long tasks). The first answer and the complete one are always drawn.
 */
const PARTIAL_DRAW_INTERVAL_MS = 1000
/**
 * While the user moves the cursor (a scrubber drag, held arrow keys) the chart neither asks for nor draws new series
 * data until the cursor has been still this long: redrawing a large series is a 30-80 ms main-thread task, and each
 * query takes up to SERIES_SLICE_MS of the worker's time that the cursor's own answers wait behind. On the 1.3M log
 * the series is still being completed when a drag starts right after ready. The cursor line moves on every step.
 */
const SCRUB_QUIET_MS = 300
/** Marker labels closer than this (CSS px) to the previous label are left out; the line and the hover stay. */
const LABEL_GAP_PX = 44
/** The y axes' width and their labels' (CSS px), and the plot's padding [top, right, bottom, left]. */
const Y_AXIS_SIZE = 44
const AXIS_LABEL_SIZE = 14
const PADDING: [number, number, number, number] = [6, 4, 0, 4]
/**
 * The plot area's width in a box this wide (two labelled y axes and the side padding, as `chartOptions` lays them
 * out): the buckets the first query asks for, before uPlot exists to say. Asking for the box's width instead drew
 * the first answer with more buckets than the plot has pixels until a second query replaced it.
 */
function plotWidthIn(boxWidth: number): number {
  return Math.max(1, boxWidth - 2 * (Y_AXIS_SIZE + AXIS_LABEL_SIZE) - PADDING[1] - PADDING[3])
}
const FONT = '11px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif'

/** uPlot's `points.show` (see `dotsStandApart`). */
function sparseEnough(u: uPlot, seriesIdx: number, i0: number, i1: number): boolean {
  const values = u.data[seriesIdx]
  return values !== undefined && dotsStandApart(values, i0, i1, u.bbox.width / uPlot.pxRatio)
}

/** Opacity of replacement markers packed too close for dashes (see dashesStandApart). */
const DENSE_MARKER_ALPHA = 0.35

/** The surface-messages line's dash (while its steps stand apart). */
const MESSAGES_DASH = [4, 3]

/** uPlot series order (index 0 is x). */
const S = { tokensMax: 1, tokensMin: 2, messages: 3, input: 4, output: 5, cacheRead: 6 } as const

function toData(answer: ContextSeriesAnswer): uPlot.AlignedData {
  return [
    answer.x,
    answer.tokensMax,
    answer.tokensMin,
    answer.messagesMax,
    withGaps(answer.input),
    withGaps(answer.output),
    withGaps(answer.cacheRead),
  ]
}

function drawMarkers(u: uPlot, answer: ContextSeriesAnswer, colors: ChartColors): void {
  const { ctx } = u
  const ratio = uPlot.pxRatio
  const { top, height, left, width } = u.bbox
  ctx.save()
  ctx.beginPath()
  ctx.rect(left, top, width, height)
  ctx.clip()
  ctx.font = FONT.replace('11px', `${Math.round(10 * ratio)}px`)
  ctx.textBaseline = 'top'
  let lastLabel = -Infinity
  // One dashed path per colour, one line per pixel column: a log with 5,000 replacements has several markers per
  // column, and a stroke() each (dashed, on a software canvas) cost the graph-5k bench lane ~100 ms per redraw.
  const lines = { prune: new Path2D(), compaction: new Path2D() }
  const lastX = { prune: -Infinity, compaction: -Infinity }
  let columns = 0
  for (const marker of answer.markers) {
    const x = Math.round(u.valToPos(marker.index, 'x', true)) + 0.5
    const kind = marker.kind === 'prune' ? 'prune' : 'compaction'
    const color = colors[kind]
    if (x !== lastX[kind]) {
      lines[kind].moveTo(x, top)
      lines[kind].lineTo(x, top + height)
      lastX[kind] = x
      columns++
    }
    if (x - lastLabel >= LABEL_GAP_PX * ratio) {
      const label = `−${shortCount(marker.removed)}`
      const room = left + width - x
      const labelWidth = ctx.measureText(label).width
      ctx.fillStyle = color
      // Near the right edge the label goes left of its line rather than off the plot.
      ctx.textAlign = room < labelWidth + 6 * ratio ? 'right' : 'left'
      ctx.fillText(label, ctx.textAlign === 'right' ? x - 3 * ratio : x + 3 * ratio, top + 2 * ratio)
      lastLabel = x
    }
  }
  ctx.lineWidth = ratio
  // Packed close, solid lines at low alpha: as light as the dashes were, and the series stays visible through them.
  if (dashesStandApart(columns, width / ratio)) ctx.setLineDash([3 * ratio, 2 * ratio])
  else ctx.globalAlpha = DENSE_MARKER_ALPHA
  for (const kind of ['prune', 'compaction'] as const) {
    ctx.strokeStyle = colors[kind]
    ctx.stroke(lines[kind])
  }
  ctx.restore()
}

function chartOptions(
  width: number,
  height: number,
  colors: ChartColors,
  current: () => ContextSeriesAnswer | null,
  onHover: (left: number | undefined) => void,
  onDraw: () => void,
): uPlot.Options {
  const axis = (scale: string, side: 1 | 3 | 2, label: string | undefined, values: (v: number) => string): uPlot.Axis => ({
    scale,
    side,
    stroke: colors.muted,
    font: FONT,
    labelFont: FONT,
    ...(label !== undefined ? { label, labelSize: AXIS_LABEL_SIZE, labelGap: 0 } : {}),
    size: side === 2 ? 22 : Y_AXIS_SIZE,
    gap: 3,
    grid: { show: scale !== 'msg', stroke: colors.line, width: 1 },
    ticks: { show: true, stroke: colors.line, width: 1, size: 3 },
    values: (_u, splits) => splits.map(values),
  })
  const points = (color: string): Partial<uPlot.Series> => ({
    scale: 'tok',
    stroke: color,
    width: 1,
    spanGaps: true,
    points: { show: sparseEnough, size: 4, stroke: color, fill: color },
  })
  return {
    width,
    height,
    legend: { show: false },
    padding: PADDING,
    cursor: {
      x: true,
      y: false,
      points: { show: false },
      drag: { x: false, y: false, setScale: false },
    },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: {
        time: false,
        range: () => {
          const answer = current()
          return answer === null ? [0, 1] : xRange(answer)
        },
      },
      tok: { range: (_u, _min, max) => [0, max > 0 ? max * 1.12 : 1] },
      msg: { range: (_u, _min, max) => [0, max > 0 ? Math.ceil(max * 1.12) : 1] },
    },
    axes: [
      axis('x', 2, undefined, (v) => (Number.isInteger(v) ? formatCount(v) : '')),
      // A short chart (a short window) has no room for the rotated axis titles: the key above names the lines.
      axis('tok', 3, height >= AXIS_TITLES_FROM ? 'tokens' : undefined, shortCount),
      axis('msg', 1, height >= AXIS_TITLES_FROM ? 'messages' : undefined, (v) => (Number.isInteger(v) ? String(v) : '')),
    ],
    series: [
      {},
      {
        label: 'surface tokens (est.)',
        scale: 'tok',
        stroke: colors.tokens,
        width: 1.5,
        fill: colors.tokensFill,
        paths: uPlot.paths.stepped?.({ align: 1 }),
      },
      {
        label: 'surface tokens min',
        scale: 'tok',
        stroke: colors.tokens,
        width: 0.5,
        paths: uPlot.paths.stepped?.({ align: 1 }),
      },
      {
        label: 'surface messages',
        scale: 'msg',
        stroke: colors.messages,
        width: 1.25,
        dash: MESSAGES_DASH,
        paths: uPlot.paths.stepped?.({ align: 1 }),
      },
      { label: 'logged input', ...points(colors.input) },
      { label: 'logged output', ...points(colors.output) },
      { label: 'logged cache read', ...points(colors.cacheRead) },
    ],
    bands: [{ series: [S.tokensMax, S.tokensMin], fill: colors.tokensFill }],
    hooks: {
      draw: [
        (u) => {
          const answer = current()
          if (answer !== null) drawMarkers(u, answer, colors)
          onDraw()
        },
      ],
      setCursor: [(u) => onHover(u.cursor.left === undefined || u.cursor.left < 0 ? undefined : u.cursor.left)],
    },
  }
}

function Swatch({ color, dashed = false }: { color: string; dashed?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block w-3.5 align-middle"
      style={dashed ? { borderTop: `2px dashed ${color}`, height: 0 } : { background: color, height: 2 }}
    />
  )
}

/** One labelled value of the values line. */
function Value({ color, label, value, dashed }: { color: string; label: string; value: string; dashed?: boolean }) {
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap">
      <Swatch color={color} dashed={dashed === true} />
      <span className="text-muted">{label}</span>
      <span className="font-mono tabular-nums text-ink">{value}</span>
    </span>
  )
}

export function ContextChart({ toggle }: { toggle: ReactNode }) {
  const store = useLensStoreApi()
  const summary = useLensStore(selectSummary)
  const live = useLensStore((s) => s.live)
  const cursor = useLensStore(selectCursor)
  const [answer, setAnswer] = useState<ContextSeriesAnswer | null>(null)
  const [width, setWidth] = useState(0)
  /** Width of the plot area (the box less the axes) as uPlot reports it once the chart exists: the buckets asked for. */
  const [plotWidth, setPlotWidth] = useState(0)
  const queryWidth = plotWidth > 0 ? plotWidth : width > 0 ? plotWidthIn(width) : 0
  const [hoverIndex, setHoverIndex] = useState<number | null>(null)
  const colors = useChartColors()
  const height = useChartHeight()
  const boxRef = useRef<HTMLDivElement>(null)
  const chartRef = useRef<uPlot | null>(null)
  const cursorLineRef = useRef<HTMLDivElement | null>(null)
  const answerRef = useRef<ContextSeriesAnswer | null>(null)
  /** When the user last moved the cursor (not the cursor following the end of a growing log). */
  const cursorMovedAt = useRef(-Infinity)
  /** When the latest data was handed to uPlot (it draws in a microtask), for the `context-chart:draw` measure. */
  const drawStartRef = useRef<number | null>(null)

  useEffect(() => {
    const length = store.getState().summary?.length ?? 0
    if (cursor >= 0 && cursor !== length - 1) cursorMovedAt.current = performance.now()
  }, [cursor, store])

  // Width of the box: the chart's pixel width, and the number of buckets asked for.
  useEffect(() => {
    const box = boxRef.current
    if (box === null) return
    const observer = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0)
      if (w > 0) setWidth(w)
    })
    observer.observe(box)
    return () => observer.disconnect()
  }, [])

  // Queries: on every new summary (a live log sends one per burst) and resize, at most one in flight and one per
  // REQUERY_INTERVAL_MS; the latest wish always runs last.
  // `latest` is the newest effect's scheduler: an answer that lands after its effect was replaced hands the pending
  // wish to the newer one (else the last summary of a load could be left unasked).
  const query = useRef({
    inFlight: false,
    pending: false,
    lastAt: 0,
    timer: 0 as ReturnType<typeof setTimeout> | 0,
    latest: null as (() => void) | null,
    /** When an incomplete answer was last drawn (-Infinity: none yet for this chart). */
    partialDrawnAt: -Infinity,
  })
  useEffect(() => {
    if (summary === null || queryWidth === 0) return
    const q = query.current
    let disposed = false
    const run = (): void => {
      q.timer = 0
      if (disposed) return
      if (q.inFlight) {
        q.pending = true
        return
      }
      const scrubbing = cursorMovedAt.current + SCRUB_QUIET_MS - performance.now()
      if (scrubbing > 0) {
        q.timer = setTimeout(run, scrubbing)
        return
      }
      q.inFlight = true
      q.lastAt = performance.now()
      const started = performance.now()
      store.client
        .query('context-series', { width: queryWidth, from: null, to: null })
        .then((next) => {
          performance.measure('context-chart:query', { start: started, end: performance.now() })
          if (disposed) return
          const now = performance.now()
          if (now - cursorMovedAt.current < SCRUB_QUIET_MS) {
            // Asked before the cursor started moving: drop it and ask again once it is still (the worker's series
            // only grows, so the later answer holds at least this one).
            q.pending = true
            q.lastAt = -Infinity
          } else if (next.complete || now - q.partialDrawnAt >= PARTIAL_DRAW_INTERVAL_MS) {
            if (!next.complete) q.partialDrawnAt = now
            answerRef.current = next
            setAnswer(next)
          }
          // A large log's series is built in slices: ask for the rest right away once the log is loaded (while
          // it loads, at the loading pace).
          if (!next.complete) {
            q.pending = true
            if (summary.final || live) q.lastAt = -Infinity
          }
        })
        .catch((error: unknown) => console.error(error))
        .finally(() => {
          q.inFlight = false
          if (q.pending) {
            q.pending = false
            q.latest?.()
          }
        })
    }
    const schedule = (): void => {
      if (q.timer !== 0) return
      const interval = summary.final || live ? REQUERY_INTERVAL_MS : LOADING_REQUERY_INTERVAL_MS
      q.timer = setTimeout(run, Math.max(0, interval - (performance.now() - q.lastAt)))
    }
    q.latest = schedule
    schedule()
    return () => {
      disposed = true
      if (q.latest === schedule) q.latest = null
      if (q.timer !== 0) clearTimeout(q.timer)
      q.timer = 0
    }
  }, [store, summary, queryWidth, live])

  // The chart itself: made once per theme (colours are baked into the options), fed new data as answers arrive.
  useEffect(() => {
    const box = boxRef.current
    if (box === null || width === 0 || answerRef.current === null) return
    const u = new uPlot(
      chartOptions(
        width,
        height,
        colors,
        () => answerRef.current,
        (left) => {
          const a = answerRef.current
          const plotWidth = u.over.clientWidth
          setHoverIndex(left === undefined || a === null ? null : indexAtOffset(xRange(a), left, plotWidth, a.from + a.points))
        },
        () => {
          const start = drawStartRef.current
          if (start === null) return
          drawStartRef.current = null
          // From new data to drawn canvas (the benchmark probe reads these; no test times them).
          performance.measure('context-chart:draw', { start, end: performance.now() })
        },
      ),
      toData(answerRef.current),
      box,
    )
    u.over.dataset['testid'] = 'context-chart-plot'
    const line = document.createElement('div')
    line.className = 'pointer-events-none absolute top-0 h-full w-0.5 -translate-x-1/2'
    line.style.background = colors.cursor
    u.over.appendChild(line)
    cursorLineRef.current = line
    const onClick = (event: MouseEvent): void => {
      const a = answerRef.current
      if (a === null) return
      const rect = u.over.getBoundingClientRect()
      const index = indexAtOffset(xRange(a), event.clientX - rect.left, rect.width, a.from + a.points)
      if (index >= 0) store.getState().setCursor(index)
    }
    u.over.addEventListener('click', onClick)
    u.over.style.cursor = 'pointer'
    chartRef.current = u
    setPlotWidth(Math.round(u.bbox.width / uPlot.pxRatio))
    return () => {
      u.over.removeEventListener('click', onClick)
      u.destroy()
      chartRef.current = null
      cursorLineRef.current = null
    }
    // Width changes go through setSize below; a new answer through setData.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [colors, answer === null, store])

  useEffect(() => {
    const u = chartRef.current
    if (u === null || answer === null) return
    drawStartRef.current = performance.now()
    // Dashed only while its steps stand apart (read at draw time by uPlot): see dashesStandApart.
    const messages = u.series[S.messages]
    const steps = valueChanges(answer.messagesMax)
    if (messages !== undefined) messages.dash = dashesStandApart(steps, u.bbox.width / uPlot.pxRatio) ? MESSAGES_DASH : []
    u.setData(toData(answer))
  }, [answer])

  useEffect(() => {
    const u = chartRef.current
    if (u === null || width === 0 || (u.width === width && u.height === height)) return
    u.setSize({ width, height })
    setPlotWidth(Math.round(u.bbox.width / uPlot.pxRatio))
  }, [width, height])

  // The timeline cursor as a line over the plot (a div: moving it never redraws the canvas).
  useEffect(() => {
    const u = chartRef.current
    const line = cursorLineRef.current
    if (u === null || line === null || answer === null) return
    const [lo, hi] = xRange(answer)
    const inside = cursor >= lo && cursor <= hi
    line.style.display = inside ? '' : 'none'
    if (inside) line.style.left = `${u.valToPos(cursor, 'x')}px`
  }, [cursor, answer, width, colors])

  const shownIndex = hoverIndex ?? cursor
  const values = answer === null ? null : bucketValues(answer, bucketOf(answer, shownIndex))
  const seqLabel = summary?.seqIsIndex === false ? 'event' : 'seq'
  const where = values === null ? '' : rangeText(seqLabel, values.first, values.last)
  const usageWhere =
    values?.usageFirst == null || values.usageLast === null
      ? 'no step logged usage yet'
      : `logged by the step at ${rangeText(seqLabel, values.usageFirst, values.usageLast)}`

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
      {/* One line where the values, the key and the event count fit (90rem, a 1440-pixel window); narrower, the key
          and the count take a second line, so the values (what the user reads while hovering) are never the part cut
          off. The switch depends on the strip's width only, never on the values' length: hovering never changes the
          layout. */}
      <header className="flex flex-wrap items-center gap-x-3 overflow-hidden px-2 pt-1 text-xs @min-[90rem]:flex-nowrap">
        {toggle}
        {values !== null ? (
          <div
            data-testid="context-chart-values"
            data-first={values.first}
            data-last={values.last}
            data-hover={hoverIndex !== null}
            className="flex min-w-0 flex-1 items-center gap-3 overflow-hidden"
          >
            <span className="font-mono tabular-nums text-ink whitespace-nowrap">
              {hoverIndex === null ? 'at cursor, ' : ''}
              {where}
            </span>
            <Value color={colors.tokens} label="surface" value={`~${values.tokens} tok (est.)`} />
            <Value color={colors.messages} dashed label="" value={`${values.messages} msgs`} />
            <span className="inline-flex items-center gap-3" title={usageWhere}>
              <Value color={colors.input} label="logged input" value={values.input ?? '—'} />
              <Value color={colors.output} label="output" value={values.output ?? '—'} />
              <Value color={colors.cacheRead} label="cache read" value={values.cacheRead ?? '—'} />
            </span>
            {values.removed.map((text, k) => (
              <Value key={k} dashed color={text.startsWith('prune') ? colors.prune : colors.compaction} label="" value={text} />
            ))}
          </div>
        ) : null}
        <span className="ml-auto inline-flex shrink-0 items-center justify-end gap-3 whitespace-nowrap @max-[90rem]:basis-full">
          <span
            className="inline-flex items-center gap-3 text-muted"
            title="Tokens each replacement removed: the logged shadowedTokenCount where there is one, else our estimate of what it shadowed"
          >
            <Value color={colors.compaction} dashed label="compaction" value="" />
            <Value color={colors.prune} dashed label="prune" value="" />
          </span>
          <span className="text-muted tabular-nums" title="events per drawn point after downsampling">
            {answer === null
              ? ''
              : `${formatCount(answer.events)} events${answer.bucketSize > 1 ? ` · ${formatCount(answer.bucketSize)} per point` : ''}`}
          </span>
        </span>
      </header>
      <div ref={boxRef} className="relative px-1 text-muted" style={{ height }} />
    </section>
  )
}
