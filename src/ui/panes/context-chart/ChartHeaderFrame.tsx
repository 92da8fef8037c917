/**
 * The context chart's header line(s), without the values: the strip's lead (toggle, mode switch), the values' place
 * and what ends the line. Shared by the chart (ChartValues.tsx) and the strip's fallback while the chart's chunk
 * loads, so both are the same height at any width and the chart's arrival moves nothing. One line where it all fits
 * (100rem, a 1600-pixel window); narrower, the values take the first line whole and the rest shares the second.
 */

import type { ReactNode } from 'react'

/** Where the values line stands: the chart's values and the empty line before them take the same place. */
export const VALUES_LINE = 'min-w-0 flex-1 @max-[100rem]:order-1 @max-[100rem]:basis-full'

export function ChartHeaderFrame({ lead, values, tail }: { lead: ReactNode; values: ReactNode | null; tail: ReactNode }) {
  return (
    <header className="flex flex-wrap items-center gap-x-3 overflow-hidden px-2 pt-1 text-xs @min-[100rem]:flex-nowrap">
      <span className="inline-flex shrink-0 items-center gap-x-3 @max-[100rem]:order-2">{lead}</span>
      {values ?? (
        // Before the first answer, an empty line where the values will be: their arrival changes no height.
        <div aria-hidden="true" className={VALUES_LINE}>
          {'\u00a0'}
        </div>
      )}
      <span className="ml-auto inline-flex shrink-0 items-center justify-end gap-3 whitespace-nowrap @max-[100rem]:order-3">
        {tail}
      </span>
    </header>
  )
}
