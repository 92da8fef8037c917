/**
 * The context chart's header: the values at the hovered bucket (or at the cursor) with their colours, and the key
 * with the event count, laid out by ChartHeaderFrame: narrower than 1600 pixels the values take the first line whole,
 * so the values (what the user reads while hovering) are never the part cut off. The layout depends on the strip's
 * width only, never on the values' length: hovering never changes it, nor does the first answer's arrival.
 */

import type { ReactNode } from 'react'
import type { ContextSeriesAnswer } from '../../../protocol/context-series.ts'
import { formatCount } from '../../shared/format-count.ts'
import type { ChartColors } from '../../shared/chart-colors.ts'
import { rangeText, type BucketValues } from './chart-values.ts'
import { ChartHeaderFrame, VALUES_LINE } from './ChartHeaderFrame.tsx'

function Swatch({ color, dashed = false }: { color: string; dashed?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block w-3.5 align-middle"
      style={dashed ? { borderTop: `2px dashed ${color}`, height: 0 } : { background: color, height: 2 }}
    />
  )
}

/** One labelled value of the values line. */
export function Value({ color, label, value, dashed }: { color: string; label: string; value: string; dashed?: boolean }) {
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap">
      <Swatch color={color} dashed={dashed === true} />
      <span className="text-muted">{label}</span>
      <span className="font-mono tabular-nums text-ink">{value}</span>
    </span>
  )
}

export function ChartValues({
  lead,
  answer,
  values,
  hovering,
  seqLabel,
  colors,
}: {
  /** What comes first on the line: the strip's toggle and mode switch. */
  lead: ReactNode
  answer: ContextSeriesAnswer | null
  values: BucketValues | null
  hovering: boolean
  seqLabel: string
  colors: ChartColors
}) {
  const where = values === null ? '' : rangeText(seqLabel, values.first, values.last)
  const usageWhere =
    values?.usageFirst == null || values.usageLast === null
      ? 'no step logged usage yet'
      : `logged by the step at ${rangeText(seqLabel, values.usageFirst, values.usageLast)}`
  return (
    <ChartHeaderFrame
      lead={lead}
      values={
        values === null ? null : (
          <div
            data-testid="context-chart-values"
            data-first={values.first}
            data-last={values.last}
            data-hover={hovering}
            className={`flex items-center gap-3 overflow-hidden ${VALUES_LINE}`}
          >
            <span className="font-mono tabular-nums text-ink whitespace-nowrap">
              {hovering ? '' : 'at cursor, '}
              {where}
            </span>
            <Value color={colors.tokens} label="surface" value={`~${values.tokens} tok (est.)`} />
            <Value color={colors.messages} dashed label="" value={`${values.messages} msgs`} />
            <span className="inline-flex items-center gap-3" title={usageWhere}>
              <Value color={colors.input} label="logged input" value={values.input ?? '—'} />
              <Value color={colors.output} label="output" value={values.output ?? '—'} />
              <Value color={colors.cacheRead} label="cache read" value={values.cacheRead ?? '—'} />
            </span>
            {values.removed.map((text, k) => (
              <Value key={k} dashed color={text.startsWith('prune') ? colors.prune : colors.compaction} label="" value={text} />
            ))}
          </div>
        )
      }
      tail={
        <>
          <span
            className="inline-flex items-center gap-3 text-muted"
            title="Tokens each replacement removed: the logged shadowedTokenCount where there is one, else our estimate of what it shadowed"
          >
            <Value color={colors.compaction} dashed label="compaction" value="" />
            <Value color={colors.prune} dashed label="prune" value="" />
          </span>
          <span className="text-muted tabular-nums" title="events per drawn point after downsampling">
            {answer === null
              ? ''
              : `${formatCount(answer.events)} events${answer.bucketSize > 1 ? ` · ${formatCount(answer.bucketSize)} per point` : ''}`}
          </span>
        </>
      }
    />
  )
}
