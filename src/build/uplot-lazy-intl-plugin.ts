/**
 * Vite plugin: uPlot 1.6 builds an `Intl.NumberFormat` and an `Intl.DateTimeFormat` when its module is evaluated.
 * The first Intl object a page makes initialises ICU, a long task, and the context chart's chunk is evaluated on
 * the first screen while a `?log=` is loading. Both are made on first use
 * instead (the chart formats its own axis labels, so with our options they are never made). Build only; the build
 * fails if uPlot's source no longer holds the exact lines, so an upgrade cannot silently drop the patch.
 */

import type { Plugin } from 'vite'

/** [uPlot's line, its lazy replacement]. */
export const UPLOT_LAZY_INTL: ReadonlyArray<readonly [string, string]> = [
  [
    "const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
    "let numFormatter = null;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);",
  ],
  [
    'const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;',
    'let localTzValue = null;\nconst localTz = () => (localTzValue ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);',
  ],
  ['else if (tz == localTz)', 'else if (tz == localTz())'],
]

/** `code` of uPlot's ES module with its module-level Intl objects made lazy; throws if a line is not found once. */
export function lazyUplotIntl(code: string): string {
  let out = code.replace(/\r\n/g, '\n')
  for (const [from, to] of UPLOT_LAZY_INTL) {
    const at = out.indexOf(from)
    if (at === -1 || out.indexOf(from, at + 1) !== -1) {
      throw new Error(`uplot-lazy-intl: uPlot's source changed (expected exactly one "${from.split('\n')[0]}")`)
    }
    out = out.slice(0, at) + to + out.slice(at + from.length)
  }
  return out
}

export function uplotLazyIntlPlugin(): Plugin {
  return {
    name: 'dsh-lens-uplot-lazy-intl',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/.test(id.split('?')[0] ?? id)) return null
      return { code: lazyUplotIntl(code), map: null }
    },
  }
}
