/**
 * What a compaction cost and whether it paid for itself (issue 37), in the inspector of its summary (the checkpoint on
 * the surface, or its `compaction/summary` event): "cost ¥a (summary ¥b + cache break ¥c); paid back at step N" or
 * "…; not paid back: -¥d at the end", the core's sentence; what it saves per request, and links to its summary call,
 * the first request after it and the step that paid it back. Once, that it is an estimate and from which card.
 *
 * Contract: `[data-testid=compaction-cost]` (`data-seq`, `data-currency`, `data-cost`, `data-paid-back-at`,
 * `data-balance`) holding `[data-testid=payback-sentence]`.
 */

import { moneyText, roundAmount } from '../../../core/cost/money-text.ts'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { formatCount } from '../../shared/format-count.ts'
import { rateCardText } from '../../shared/rate-card-text.ts'
import { SeqBadge } from '../../shared/SeqBadge.tsx'
import { useWorkerAnswer } from '../../shared/use-worker-answer.ts'

const stepOf = (label: string): { turn: number; step: number } => {
  const [turn, step] = label.split('.').map(Number)
  return { turn: turn ?? 0, step: step ?? 0 }
}

export function CompactionCost({ seq }: { seq: number }) {
  const store = useLensStoreApi()
  const currency = useLensStore((s) => s.currency)
  const answer = useWorkerAnswer(`compaction-cost:${seq}:${currency}`, (ask) => ask('compaction-cost', { seq, currency }))
  if (answer === undefined) return <p className="text-xs text-muted">Pricing the compaction…</p>
  const c = answer.compaction
  if (c === null) return null
  const cost = c.summaryCost === null || c.breakCost === null ? null : c.summaryCost + c.breakCost
  const openStep = (label: string) => store.getState().openRequest(stepOf(label))
  const stepButton = (label: string, title: string) => (
    <button type="button" className="font-mono text-accent hover:underline" title={title} onClick={() => openStep(label)}>
      {label}
    </button>
  )
  const paid = c.paidBackAtStep !== null
  return (
    <div
      role="group"
      aria-label="What this compaction cost"
      data-testid="compaction-cost"
      data-seq={c.seq}
      data-currency={answer.currency}
      data-cost={cost === null ? '' : roundAmount(cost)}
      data-paid-back-at={c.paidBackAtStep ?? ''}
      data-balance={c.balance === null ? '' : roundAmount(c.balance)}
      className={`rounded border px-2 py-1 text-xs ${paid ? 'border-user' : 'border-line'}`}
    >
      <h3 className="font-semibold">What it cost</h3>
      <p data-testid="payback-sentence" className={paid ? 'text-user' : ''}>
        {c.sentence}
      </p>
      <p className="text-muted">
        It took ~{formatCount(c.savedTokens)} tokens off each later request
        {c.savedPerStep === null
          ? ''
          : `, saving ${moneyText(c.savedPerStep, answer.currency)} on the first at its cache-hit rate`}
        , until a later compaction replaced it.{' '}
        <span title="Every amount is an estimate: the usage the log records, priced with the rate card at the time of each call.">
          Estimates · {rateCardText(answer.rateCard)}.
        </span>
      </p>
      <p className="flex flex-wrap gap-x-3">
        {c.summarySeq !== null ? (
          <span>
            <span className="text-muted">summary call </span>
            <SeqBadge
              seq={c.summarySeq}
              onClick={() => void store.getState().selectSeq(c.summarySeq ?? 0, 'inspector', true)}
              label="go to the compaction/summary event"
            />
          </span>
        ) : null}
        {c.firstStep !== null ? (
          <span>
            <span className="text-muted">first request after it </span>
            {stepButton(c.firstStep, 'open the Request view on this step (its cache break)')}
          </span>
        ) : null}
        {c.paidBackAtStep !== null ? (
          <span>
            <span className="text-muted">paid back at </span>
            {stepButton(c.paidBackAtStep, 'open the Request view on the step where its savings reached its cost')}
          </span>
        ) : null}
      </p>
    </div>
  )
}
