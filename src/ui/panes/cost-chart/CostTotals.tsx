/**
 * The Cost mode's totals in one line (the figures of `dsh-lens cost`'s first lines): what was spent, over how many
 * calls, what the cache breaks cost, the cache-hit share, the calls the card cannot price with the reason on hover
 * (and, when the other currency prices them, a button to show that one), and once, that every amount is an estimate
 * from the logged usage and which rate card it comes from.
 */

import { roundAmount } from '../../../core/cost/money-text.ts'
import type { CostAnswer } from '../../../protocol/cost.ts'
import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { formatShare } from '../../shared/format-duration.ts'
import { rateCardText } from '../../shared/rate-card-text.ts'
import { callsText, money, otherPricesMore, totalText } from './cost-values.ts'

export function EstimateNote({ card, notes }: { card: CostAnswer['rateCard']; notes: readonly string[] }) {
  return (
    <span
      data-testid="cost-estimate"
      data-card-version={card.version}
      data-card-checked={card.checked}
      data-card-custom={card.custom ? 'true' : 'false'}
      className="whitespace-nowrap text-muted"
      title={[
        'Every amount is an estimate: the usage the log records, priced with the rate card at the time of each request.',
        ...notes,
      ].join('\n')}
    >
      estimates · {rateCardText(card)}
      {notes.length > 0 ? ` · ${notes.length} note${notes.length === 1 ? '' : 's'}` : ''}
    </span>
  )
}

export function CostTotals({ answer }: { answer: CostAnswer }) {
  const store = useLensStoreApi()
  const t = answer.totals
  const reasons = answer.unpriced.map((u) => u.reason)
  return (
    <span
      data-testid="cost-totals"
      data-currency={answer.currency}
      data-total={roundAmount(t.cost.total)}
      data-break-cost={roundAmount(t.breakCost)}
      data-breaks={t.breaks}
      data-unpriced-steps={t.unpricedSteps}
      className="inline-flex min-w-0 flex-wrap items-center gap-x-3 font-mono tabular-nums text-ink"
    >
      <span>
        <span className="font-sans text-muted">spent </span>
        <span className="font-semibold">{totalText(answer)}</span>
      </span>{' '}
      <span className="font-sans text-muted">{callsText(answer)}</span>{' '}
      <span title="what the requests after a compaction, a prune, a rewritten message or a header change paid again for tokens the cache held">
        <span className="font-sans text-muted">cache breaks </span>
        {money(t.breakCost, answer.currency)} ({t.breaks})
      </span>{' '}
      <span title="cache read over input (uncached + cache read + cache write)">
        <span className="font-sans text-muted">cache hit </span>
        {formatShare(t.cacheHit)}
      </span>{' '}
      {t.unpricedSteps > 0 ? (
        <span data-testid="cost-unpriced" className="font-sans text-warn" title={reasons.join('\n')}>
          {t.unpricedSteps} step{t.unpricedSteps === 1 ? '' : 's'} without a price
          {reasons.length === 1 ? `: ${reasons[0]}` : ''}
        </span>
      ) : null}
      {otherPricesMore(answer) ? (
        <button
          type="button"
          data-testid="cost-currency-hint"
          className="rounded border border-accent px-1.5 font-sans text-accent hover:bg-accent-soft"
          onClick={() => store.getState().setCurrency(answer.other.currency)}
          title={`The card prices ${answer.other.pricedSteps} of these steps in ${answer.other.currency}`}
        >
          Show in {answer.other.currency}
        </button>
      ) : null}
    </span>
  )
}
