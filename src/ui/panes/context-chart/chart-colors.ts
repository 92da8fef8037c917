/**
 * The chart's colours, read from the theme tokens (src/ui/theme.css) so the canvas follows light and dark like the
 * rest of the page. A canvas cannot use `var(--x)`, so the computed values are read once per theme.
 */

import { useEffect, useState } from 'react'

export interface ChartColors {
  readonly ink: string
  readonly muted: string
  readonly line: string
  readonly panel: string
  readonly tokens: string
  readonly tokensFill: string
  readonly messages: string
  readonly input: string
  readonly output: string
  readonly cacheRead: string
  readonly compaction: string
  readonly prune: string
  readonly cursor: string
}

function token(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const value = style.getPropertyValue(`--color-${name}`).trim()
  return value === '' ? fallback : value
}

/** `oklch(l c h)` with an alpha; any other colour syntax is returned as it is (drawn opaque, still readable). */
export function withAlpha(color: string, alpha: number): string {
  const m = /^oklch\(([^/)]*)\)$/.exec(color)
  return m === null ? color : `oklch(${(m[1] as string).trim()} / ${alpha})`
}

export function readChartColors(root: Element = document.documentElement): ChartColors {
  const style = getComputedStyle(root)
  const accent = token(style, 'accent', '#3b6fd8')
  return {
    ink: token(style, 'ink', '#222'),
    muted: token(style, 'muted', '#777'),
    line: token(style, 'line', '#ddd'),
    panel: token(style, 'panel', '#fff'),
    tokens: accent,
    tokensFill: withAlpha(accent, 0.16),
    messages: token(style, 'ink', '#222'),
    input: token(style, 'user', '#2a9d5b'),
    output: token(style, 'assistant', '#7a5bd8'),
    cacheRead: token(style, 'search', '#c03090'),
    compaction: token(style, 'warn', '#d9a400'),
    prune: token(style, 'danger', '#d33'),
    cursor: token(style, 'focus', accent),
  }
}

/**
 * The colours of the current theme, read again whenever `<html data-theme>` changes (useTheme sets it after the
 * children's effects ran, so an observer rather than the store's theme).
 */
export function useChartColors(): ChartColors {
  const [colors, setColors] = useState(() => readChartColors())
  useEffect(() => {
    const observer = new MutationObserver(() => setColors(readChartColors()))
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
    return () => observer.disconnect()
  }, [])
  return colors
}
