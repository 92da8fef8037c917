/**
 * The chart's height follows the window's: on a short screen the chart strip shrinks before the panes above it do
 * (a laptop's 800 pixels keep six whole messages in the Request view). Full height from 900 pixels up, down to a
 * floor that still shows the lines.
 */

import { useEffect, useState } from 'react'

export const CHART_HEIGHT_MAX = 128
export const CHART_HEIGHT_MIN = 56

/** Canvas height (CSS px, x axis included) for a window `windowHeight` pixels tall. */
export function chartHeightFor(windowHeight: number): number {
  return Math.round(Math.max(CHART_HEIGHT_MIN, Math.min(CHART_HEIGHT_MAX, windowHeight - 772)))
}

export function useChartHeight(): number {
  const [height, setHeight] = useState(() => chartHeightFor(window.innerHeight))
  useEffect(() => {
    const onResize = (): void => setHeight(chartHeightFor(window.innerHeight))
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])
  return height
}
