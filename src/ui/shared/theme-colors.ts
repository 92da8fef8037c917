/**
 * The canvases' colours, read from the theme tokens (src/ui/theme.css) so the chart, the timeline and the large graph
 * follow light and dark like the rest of the page. A canvas cannot use `var(--x)`, so the computed values are read
 * once per theme. No React here: start-lens.ts reads them before React is evaluated (chart-colors.ts has the hook).
 */

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
  /** Tool calls (the Time mode's tools lane). */
  readonly tool: string
}

function token(style: CSSStyleDeclaration, name: string, fallback: string, missing: string[]): string {
  const value = style.getPropertyValue(`--color-${name}`).trim()
  if (value !== '') return value
  missing.push(name)
  return fallback
}

/**
 * A colour with an alpha. The page's tokens are written as `oklch(…)`, but the built stylesheet hands them to
 * `getComputedStyle` converted (`lab(…)` in Chromium), so every CSS colour function is handled: space-separated
 * arguments take ` / alpha`, the legacy comma form `rgba`/`hsla`. Anything else is returned as it is (drawn opaque,
 * still readable).
 */
export function withAlpha(color: string, alpha: number): string {
  const m = /^(oklch|oklab|lab|lch|rgb|rgba|hsl|hsla|hwb)\(([^/)]*)\)$/.exec(color.trim())
  if (m === null) return color
  const fn = m[1] as string
  const args = (m[2] as string).trim()
  if (args.includes(',')) {
    const parts = args
      .split(',')
      .map((p) => p.trim())
      .slice(0, 3)
    return `${fn.startsWith('hsl') ? 'hsla' : 'rgba'}(${parts.join(', ')}, ${alpha})`
  }
  return `${fn.replace(/a$/, '')}(${args} / ${alpha})`
}

/** The colours, and the tokens the page did not define (their fallbacks were used). */
function readTokens(root: Element): { colors: ChartColors; missing: string[] } {
  const style = getComputedStyle(root)
  const missing: string[] = []
  const t = (name: string, fallback: string): string => token(style, name, fallback, missing)
  const accent = t('accent', '#3b6fd8')
  const colors = {
    ink: t('ink', '#222'),
    muted: t('muted', '#777'),
    line: t('line', '#ddd'),
    panel: t('panel', '#fff'),
    tokens: accent,
    tokensFill: withAlpha(accent, 0.16),
    messages: t('ink', '#222'),
    input: t('user', '#2a9d5b'),
    output: t('assistant', '#7a5bd8'),
    cacheRead: t('search', '#c03090'),
    compaction: t('warn', '#d9a400'),
    prune: t('danger', '#d33'),
    cursor: t('focus', accent),
    tool: t('tool', '#c08030'),
  }
  return { colors, missing }
}

/**
 * The colours for the document's theme, read once per theme. Reading them is a `getComputedStyle` that makes the
 * browser recalculate the whole page's style first when the DOM just changed: the timeline, the chart and the large
 * graph each did it when they mounted, ~10 ms inside the task of a new log's first summary. A read that fell back on
 * any token (the stylesheet not applied yet) is not kept.
 */
let kept: { theme: string | null; colors: ChartColors } | null = null
export function themeChartColors(root: Element = document.documentElement): ChartColors {
  const theme = root.getAttribute('data-theme')
  if (kept !== null && kept.theme === theme) return kept.colors
  const { colors, missing } = readTokens(root)
  kept = missing.length === 0 ? { theme, colors } : null
  return colors
}
