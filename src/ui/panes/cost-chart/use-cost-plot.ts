/**
 * The Cost mode's uPlot chart in `box`: made once the box has a width and the first answer is here (again per theme:
 * the colours are baked into the options), fed each new answer with `setData`, resized with `setSize`. The timeline
 * cursor is a line over the plot (a div: moving it never redraws the canvas); hovering reports the event under the
 * pointer, a click moves the cursor there. `onPlot` hears where the plot area is in the box (CSS px), for the
 * compaction buttons laid over it.
 */

import { useEffect, useRef, type RefObject } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { CostAnswer } from '../../../protocol/cost.ts'
import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
import type { ChartColors } from '../../shared/chart-colors.ts'
import { costChartOptions, toData } from './cost-chart-options.ts'

/** The plot area inside the box (CSS px). */
export interface PlotBox {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}

const boxOf = (u: uPlot): PlotBox => ({
  left: u.bbox.left / uPlot.pxRatio,
  top: u.bbox.top / uPlot.pxRatio,
  width: u.bbox.width / uPlot.pxRatio,
  height: u.bbox.height / uPlot.pxRatio,
})

export function useCostPlot(
  box: RefObject<HTMLDivElement | null>,
  width: number,
  height: number,
  answer: CostAnswer | null,
  colors: ChartColors,
  cursor: number,
  onHover: (index: number | null) => void,
  onPlot: (plot: PlotBox) => void,
): void {
  const store = useLensStoreApi()
  const chartRef = useRef<uPlot | null>(null)
  const lineRef = useRef<HTMLDivElement | null>(null)
  /** The answer drawn, for uPlot's callbacks (range, hover, marks) made once per chart. */
  const answerRef = useRef<CostAnswer | null>(null)
  const sizeRef = useRef({ width, height })
  const ready = width > 0 && answer !== null

  useEffect(() => {
    answerRef.current = answer
    sizeRef.current = { width, height }
  }, [answer, width, height])

  useEffect(() => {
    const element = box.current
    const first = answerRef.current
    if (element === null || !ready || first === null) return
    const indexAt = (left: number): number => Math.round(u.posToVal(left, 'x'))
    const u = new uPlot(
      costChartOptions(
        sizeRef.current.width,
        sizeRef.current.height,
        colors,
        () => answerRef.current,
        (left) => onHover(left === undefined ? null : indexAt(left)),
      ),
      toData(first),
      element,
    )
    u.over.dataset['testid'] = 'cost-chart-plot'
    const line = document.createElement('div')
    line.className = 'pointer-events-none absolute top-0 h-full w-0.5 -translate-x-1/2'
    line.style.background = colors.cursor
    u.over.appendChild(line)
    lineRef.current = line
    const onClick = (event: MouseEvent): void => {
      const a = answerRef.current
      if (a === null) return
      const index = indexAt(event.clientX - u.over.getBoundingClientRect().left)
      if (index >= 0 && index < a.events) store.getState().setCursor(index)
    }
    u.over.addEventListener('click', onClick)
    u.over.style.cursor = 'pointer'
    chartRef.current = u
    onPlot(boxOf(u))
    return () => {
      u.over.removeEventListener('click', onClick)
      u.destroy()
      chartRef.current = null
      lineRef.current = null
    }
  }, [box, colors, ready, store, onHover, onPlot])

  useEffect(() => {
    const u = chartRef.current
    if (u !== null && answer !== null) u.setData(toData(answer))
  }, [answer])

  useEffect(() => {
    const u = chartRef.current
    if (u === null || width === 0 || (u.width === width && u.height === height)) return
    u.setSize({ width, height })
    onPlot(boxOf(u))
  }, [width, height, onPlot])

  useEffect(() => {
    const u = chartRef.current
    const line = lineRef.current
    if (u === null || line === null || answer === null) return
    const inside = cursor >= 0 && cursor < answer.events
    line.style.display = inside ? '' : 'none'
    if (inside) line.style.left = `${u.valToPos(cursor, 'x')}px`
  }, [cursor, answer, width, height, colors])
}
