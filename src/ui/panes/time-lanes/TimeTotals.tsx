/**
 * The session's totals in one line (the same figures as `lens timing --json`'s totals and `lens check`'s line), with
 * the clock's oddities counted and explained on hover.
 */

import type { TimingTotals, TimingWarning } from '../../../core/index.ts'
import { formatCount } from '../../shared/format-count.ts'
import { formatDuration, formatRate, formatShare } from '../../shared/format-duration.ts'

const ms = (value: number | null): string => (value === null ? '—' : formatDuration(value))
const tokens = (value: number | null): string => (value === null ? '—' : formatCount(value))

export function TimeTotals({ totals, warnings }: { totals: TimingTotals; warnings: readonly TimingWarning[] }) {
  return (
    <span
      data-testid="time-totals"
      data-steps={totals.steps}
      data-model-ms={totals.modelMs ?? ''}
      data-tool-ms={totals.toolMs ?? ''}
      data-ttft-median-ms={totals.ttftMedianMs ?? ''}
      data-ttft-p95-ms={totals.ttftP95Ms ?? ''}
      data-tokens-per-second={totals.tokensPerSecond ?? ''}
      data-cache-hit={totals.cacheHit ?? ''}
      className="inline-flex min-w-0 flex-wrap items-center gap-x-3 font-mono tabular-nums text-ink"
    >
      <span>
        {totals.steps} <span className="font-sans text-muted">steps</span>
      </span>
      <span>
        <span className="font-sans text-muted">model </span>
        {ms(totals.modelMs)}
      </span>
      <span>
        <span className="font-sans text-muted">tools </span>
        {ms(totals.toolMs)}
      </span>
      <span title="request to first output, nearest-rank median and 95th percentile over the steps">
        <span className="font-sans text-muted">TTFT </span>
        {ms(totals.ttftMedianMs)}
        <span className="font-sans text-muted"> p95 </span>
        {ms(totals.ttftP95Ms)}
      </span>
      <span>{formatRate(totals.tokensPerSecond)}</span>
      <span title="cache read over input (uncached + cache read + cache write)">
        <span className="font-sans text-muted">cache hit </span>
        {formatShare(totals.cacheHit)}
      </span>
      <span>
        <span className="font-sans text-muted">in </span>
        {tokens(totals.inputTokens)}
        <span className="font-sans text-muted"> out </span>
        {tokens(totals.outputTokens)}
      </span>
      {warnings.length > 0 ? (
        <span data-testid="time-clock-warnings" className="font-sans text-warn" title={warnings.map((w) => w.message).join('\n')}>
          clock: {warnings.map((w) => `${w.count} ${w.code === 'clock-backwards' ? 'backward' : 'zero'}`).join(', ')}
        </span>
      ) : null}
    </span>
  )
}
