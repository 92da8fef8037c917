/** A row of seq ranges on the scrubber: when search matches were on the surface, or the selected entry's lifespan. */

import { memo } from 'react'
import { spanFractions } from '../../shared/lifespan.ts'

export const RangeRow = memo(function RangeRow({
  ranges,
  last,
  className,
  label,
  testId,
}: {
  ranges: readonly { readonly from: number; readonly to: number }[]
  last: number
  className: string
  label: string
  testId: string
}) {
  return (
    <div className="relative h-1.5" title={label} data-testid={testId} data-count={ranges.length}>
      {ranges.map((r) => {
        const { left, width } = spanFractions(r.from, r.to, last)
        return (
          <span
            key={r.from}
            data-from={r.from}
            data-to={r.to}
            className={`absolute top-0 h-full rounded-sm ${className}`}
            style={{ left: `${left * 100}%`, width: `${width * 100}%` }}
          />
        )
      })}
    </div>
  )
})
