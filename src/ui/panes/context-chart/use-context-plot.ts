/**
 * The uPlot chart in `box`: made once the box has a width and the first answer is here (again per theme: the
 * colours are baked into the options), fed each new answer with `setData`, resized with `setSize`. The timeline
 * cursor is a line over the plot (a div: moving it never redraws the canvas); hovering reports the event under the
 * pointer, a click moves the cursor there. `onPlotWidth` hears the plot area's width as uPlot lays it out (the
 * buckets to ask for).
 */

import { useEffect, useRef, type RefObject } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { ContextSeriesAnswer } from '../../../protocol/context-series.ts'
import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
import type { ChartColors } from '../../shared/chart-colors.ts'
import { dashesStandApart, indexAtOffset, valueChanges, xRange } from './chart-values.ts'
import { MESSAGES_DASH, S, chartOptions, toData } from './context-chart-options.ts'

export function useContextPlot(
  box: RefObject<HTMLDivElement | null>,
  width: number,
  height: number,
  answer: ContextSeriesAnswer | null,
  colors: ChartColors,
  cursor: number,
  onHover: (index: number | null) => void,
  onPlotWidth: (width: number) => void,
): void {
  const store = useLensStoreApi()
  const chartRef = useRef<uPlot | null>(null)
  const cursorLineRef = useRef<HTMLDivElement | null>(null)
  /** The answer the chart draws, for uPlot's callbacks (range, hover, click, markers) made once per chart. */
  const answerRef = useRef<ContextSeriesAnswer | null>(null)
  /** The width the chart is made with; later widths go through setSize. */
  const widthRef = useRef(0)
  const heightRef = useRef(height)
  /** When the latest data was handed to uPlot (it draws in a microtask), for the `context-chart:draw` measure. */
  const drawStartRef = useRef<number | null>(null)
  const ready = width > 0 && answer !== null
  /** A chart made in this commit has no series yet: the data effect draws them in a task of its own. */
  const freshRef = useRef(false)
  const cursorRef = useRef(cursor)

  useEffect(() => {
    answerRef.current = answer
    widthRef.current = width
    heightRef.current = height
  }, [answer, width, height])

  useEffect(() => {
    const element = box.current
    const first = answerRef.current
    if (element === null || !ready || first === null) return
    const u = new uPlot(
      chartOptions(
        widthRef.current,
        heightRef.current,
        colors,
        () => answerRef.current,
        (left) => {
          const a = answerRef.current
          onHover(left === undefined || a === null ? null : indexAtOffset(xRange(a), left, u.over.clientWidth, a.from + a.points))
        },
        () => {
          // Placed after every drawing, on the scale just drawn: uPlot applies new data's scale in a microtask, so a
          // line placed right after `setData` stood where the previous answer's scale put it.
          placeCursorLine(chartRef.current, cursorLineRef.current, answerRef.current, cursorRef.current)
          const start = drawStartRef.current
          if (start === null) return
          drawStartRef.current = null
          // From new data to drawn canvas (the benchmark probe reads these; no test times them).
          performance.measure('context-chart:draw', { start, end: performance.now() })
        },
      ),
      // Made empty: its axes and grid are drawn in this task (React's effects), its series in one of their own
      // (the data effect below), so the chart's first appearance is two short tasks, not one long one.
      EMPTY_DATA,
      element,
    )
    u.over.dataset['testid'] = 'context-chart-plot'
    const line = document.createElement('div')
    line.className = 'pointer-events-none absolute top-0 h-full w-0.5 -translate-x-1/2'
    line.style.background = colors.cursor
    line.dataset['testid'] = 'context-chart-cursor'
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
    freshRef.current = true
    onPlotWidth(Math.round(u.bbox.width / uPlot.pxRatio))
    return () => {
      u.over.removeEventListener('click', onClick)
      u.destroy()
      chartRef.current = null
      cursorLineRef.current = null
    }
  }, [box, colors, ready, store, onHover, onPlotWidth])

  useEffect(() => {
    const u = chartRef.current
    if (u === null || answer === null) return
    const draw = (): void => {
      drawStartRef.current = performance.now()
      // Dashed only while its steps stand apart (read at draw time by uPlot): see dashesStandApart.
      const messages = u.series[S.messages]
      const steps = valueChanges(answer.messagesMax)
      if (messages !== undefined) messages.dash = dashesStandApart(steps, u.bbox.width / uPlot.pxRatio) ? MESSAGES_DASH : []
      u.setData(toData(answer))
    }
    if (!freshRef.current) return draw()
    freshRef.current = false
    const timer = setTimeout(draw, 0)
    return () => clearTimeout(timer)
    // colors and ready remake the chart (the effect above): the new, empty one is drawn here.
  }, [answer, colors, ready])

  useEffect(() => {
    const u = chartRef.current
    if (u === null || width === 0 || (u.width === width && u.height === height)) return
    u.setSize({ width, height })
    onPlotWidth(Math.round(u.bbox.width / uPlot.pxRatio))
  }, [width, height, onPlotWidth])

  useEffect(() => {
    cursorRef.current = cursor
    placeCursorLine(chartRef.current, cursorLineRef.current, answer, cursor)
  }, [cursor, answer, width, colors])
}

/** The cursor line over the plot, where the chart's x scale puts the cursor (hidden outside the drawn range). */
function placeCursorLine(u: uPlot | null, line: HTMLDivElement | null, answer: ContextSeriesAnswer | null, cursor: number): void {
  // Before its first data the chart has no x scale to place the line with; the deferred draw places it.
  if (u === null || line === null || answer === null || (u.data[0]?.length ?? 0) === 0) return
  const [lo, hi] = xRange(answer)
  const inside = cursor >= lo && cursor <= hi
  line.style.display = inside ? '' : 'none'
  if (inside) line.style.left = `${u.valToPos(cursor, 'x')}px`
}

/** Seven empty series (x and the six of S): a chart with its axes and no data yet. */
const EMPTY_DATA: uPlot.AlignedData = [[], [], [], [], [], [], []]
