/** The canvases' colours as a React hook (the reading itself is theme-colors.ts, free of React). */

import { useEffect, useState } from 'react'
import { themeChartColors, type ChartColors } from './theme-colors.ts'

export type { ChartColors }

/**
 * The colours of the current theme, read again whenever `<html data-theme>` changes (useTheme sets it after the
 * children's effects ran, so an observer rather than the store's theme).
 */
export function useChartColors(): ChartColors {
  const [colors, setColors] = useState(() => themeChartColors())
  useEffect(() => {
    const observer = new MutationObserver(() => setColors(themeChartColors()))
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
    return () => observer.disconnect()
  }, [])
  return colors
}
