/**
 * The diff with the previous step's request, as the core computed it: where the prompt cache stops matching (first
 * differing message index and the estimated tokens before it), messages appended, removed, and replaced (by which
 * compaction summary or prune, as links), header fields changed, and the cache warning when logged cache reads
 * and the estimate disagree. Contract: `[data-testid=request-diff]` with `data-first-difference` (index, or empty).
 */

import type { ReactNode } from 'react'
import type { HeaderChangeDetail, StepRequestView } from '../../../protocol/step-request.ts'
import { SeqButton } from './SeqButton.tsx'
import { formatCount } from '../../shared/format-count.ts'

/** Seq links listed per group; the rest is counted. */
const LINKS_SHOWN = 10

function SeqList({ seqs, onSeq, testId }: { seqs: readonly number[]; onSeq: (seq: number) => void; testId: string }) {
  if (seqs.length === 0) return <span className="text-muted">none</span>
  return (
    <span className="inline-flex flex-wrap gap-x-1.5" data-testid={testId}>
      {seqs.slice(0, LINKS_SHOWN).map((seq) => (
        <SeqButton key={seq} seq={seq} onSeq={onSeq} />
      ))}
      {seqs.length > LINKS_SHOWN ? <span className="text-muted">+{formatCount(seqs.length - LINKS_SHOWN)} more</span> : null}
    </span>
  )
}

const configValue = (config: unknown, key: string): string => {
  const value = typeof config === 'object' && config !== null ? (config as Record<string, unknown>)[key] : undefined
  return typeof value === 'string' ? value : value === undefined ? '—' : (JSON.stringify(value) ?? '?')
}

/** The detail of one changed field: model and effort as before → after, tools by name. */
function fieldDetail(field: string, detail: HeaderChangeDetail | null, request: StepRequestView): string | null {
  if (detail === null) return null
  if (field === 'model' || field === 'provider' || field === 'reasoningEffort')
    return `${configValue(detail.previousConfig, field)} → ${configValue(request.header?.['config'], field)}`
  if (field === 'tools-added') return detail.toolsAdded.join(', ')
  if (field === 'tools-removed') return detail.toolsRemoved.join(', ')
  return null
}

export function RequestDiffBar({
  request,
  headerChange,
  breakCost = null,
  onSeq,
}: {
  request: StepRequestView
  headerChange: HeaderChangeDetail | null
  /** What the cache break cost, when the messages have no mark to say it on (a header change alone). */
  breakCost?: ReactNode
  onSeq: (seq: number) => void
}) {
  const diff = request.diff
  const first = diff.firstDifference
  const where =
    first === null
      ? 'identical to the previous request'
      : diff.previous === null
        ? 'first step: nothing to reuse'
        : first === 0
          ? 'differs from the first message'
          : `first difference at message ${first}`
  return (
    <div
      data-testid="request-diff"
      data-first-difference={first ?? ''}
      data-previous={diff.previous ?? ''}
      className="space-y-0.5 border-b border-line px-2 py-1.5 text-xs"
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold text-muted">diff</span>
        <span className="text-muted">vs</span>
        <span className="font-mono">{diff.previous ?? '—'}</span>
        <span className={first === null ? 'text-user' : 'text-ink'}>{where}</span>
        {diff.previous !== null ? (
          <span
            className="tabular-nums text-muted"
            title="estimated tokens of the unchanged prefix (system, tools and messages before the first difference)"
          >
            · ~{formatCount(diff.tokensBeforeFirstDifference)} tokens unchanged before it
          </span>
        ) : null}
        {breakCost}
      </div>
      {diff.previous !== null ? (
        // One wrapping line of groups, not a row each: the message list below keeps the height.
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
          <span className="inline-flex flex-wrap items-baseline gap-x-1.5">
            <span className="text-user">+ appended {diff.appended.length}</span>
            {diff.appended.length > 0 ? <SeqList seqs={diff.appended} onSeq={onSeq} testId="request-appended" /> : null}
          </span>
          <span className="inline-flex flex-wrap items-baseline gap-x-1.5" data-testid="request-replaced">
            <span className="text-warn">⇄ replaced {diff.replacedBy.length}</span>
            {diff.replacedBy.map((r) => (
              <span key={r.seq} data-testid="request-replaced-by" data-seq={r.seq}>
                <SeqButton
                  seq={r.seq}
                  onSeq={onSeq}
                  title="the compaction summary or prune that replaced them: moves the cursor there"
                />
                <span className="text-muted">
                  {' '}
                  stands for {formatCount(r.shadowedSeqs.length)} earlier message
                  {r.shadowedSeqs.length === 1 ? '' : 's'}
                </span>
              </span>
            ))}
          </span>
          <span className="inline-flex flex-wrap items-baseline gap-x-1.5">
            <span className="text-danger">− removed {diff.removed.length}</span>
            {diff.removed.length > 0 ? <SeqList seqs={diff.removed} onSeq={onSeq} testId="request-removed" /> : null}
          </span>
          <span className="inline-flex flex-wrap items-baseline gap-1" data-testid="request-header-changed">
            <span className="text-muted">header</span>
            {diff.headerChanged.length === 0 ? <span className="text-muted">unchanged</span> : null}
            {diff.headerChanged.map((field) => {
              const detail = fieldDetail(field, headerChange, request)
              return (
                <span key={field} className="rounded border border-line bg-warn-soft px-1 font-mono" data-field={field}>
                  {field}
                  {detail !== null && detail !== '' ? <span className="text-muted"> {detail}</span> : null}
                </span>
              )
            })}
          </span>
        </div>
      ) : null}
      {diff.cacheWarning !== null ? (
        <p role="note" data-testid="request-cache-warning" className="rounded border border-warn bg-warn-soft px-1.5 py-0.5">
          ⚠ {diff.cacheWarning.message}
        </p>
      ) : null}
    </div>
  )
}
