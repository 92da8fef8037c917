/**
 * What the Request view's step cost (issue 37): its total with the parts (input billed as misses, cache reads,
 * output), the period and the model it was billed as, once that every amount is an estimate and from which rate card;
 * and, at the prefix-cache mark, what the break cost: the tokens of the previous request billed again as misses.
 * A step the card cannot price says why in words (and offers the other currency when that one prices it).
 *
 * Contract: `[data-testid=step-cost]` (`data-total`, empty without a price; `data-currency`; `data-period`) and
 * `[data-testid=break-cost]` (`data-cost`, `data-tokens`, `data-cause`).
 */

import { moneyText, roundAmount } from '../../../core/cost/money-text.ts'
import type { StepCostAnswer } from '../../../protocol/cost.ts'
import { useLensStoreApi } from '../../../store/lens-store-context.tsx'
import { formatCount } from '../../shared/format-count.ts'
import { rateCardText } from '../../shared/rate-card-text.ts'

/** The `cost` term and its description, for the request header's list. */
export function StepCostLine({ answer }: { answer: StepCostAnswer | undefined }) {
  const store = useLensStoreApi()
  const step = answer?.step ?? null
  const cost = step?.cost ?? null
  const currency = answer?.currency ?? ''
  const m = (n: number): string => (answer === undefined ? '' : moneyText(n, answer.currency))
  return (
    <>
      <dt className="text-muted">cost</dt>
      <dd
        data-testid="step-cost"
        data-total={cost === null ? '' : roundAmount(cost.total)}
        data-currency={currency}
        data-period={step?.period ?? ''}
        className="flex flex-wrap items-baseline gap-x-3 font-mono tabular-nums"
      >
        {answer === undefined ? (
          <span className="font-sans text-muted">…</span>
        ) : step === null ? (
          <span className="font-sans text-muted">no step</span>
        ) : cost === null ? (
          <span className="font-sans text-warn">
            {step.unpriced === 'the step logged no usage' ? 'no usage logged, so no cost' : `no price: ${step.unpriced}`}
            {answer.otherPrices ? (
              <button
                type="button"
                className="ml-2 rounded border border-accent px-1 text-accent hover:bg-accent-soft"
                onClick={() => store.getState().setCurrency(currency === 'CNY' ? 'USD' : 'CNY')}
              >
                Show in {currency === 'CNY' ? 'USD' : 'CNY'}
              </button>
            ) : null}
          </span>
        ) : (
          <>
            <span className="font-semibold">{m(cost.total)}</span>{' '}
            <span title="input the cache missed (cache writes included)">
              <span className="font-sans text-muted">input </span>
              {m(cost.input)}
            </span>{' '}
            <span>
              <span className="font-sans text-muted">cache read </span>
              {m(cost.cacheRead)}
            </span>{' '}
            <span title="output, reasoning included">
              <span className="font-sans text-muted">output </span>
              {m(cost.output)}
            </span>{' '}
            <span className="font-sans text-muted" title={`rates in force from ${step.rateVersion ?? '?'}`}>
              {step.period}
              {step.billedModel !== null && step.billedModel !== step.model ? ` · billed as ${step.billedModel}` : ''}
            </span>{' '}
            <span
              className="font-sans text-muted"
              data-testid="step-cost-estimate"
              data-card-version={answer.rateCard.version}
              data-card-custom={answer.rateCard.custom ? 'true' : 'false'}
              title="Every amount is an estimate: the usage the log records, priced with the rate card at the time of the request."
            >
              estimate · {rateCardText(answer.rateCard)}
            </span>
          </>
        )}
      </dd>
    </>
  )
}

/** What the break at the prefix-cache mark cost (nothing when the step's request kept the previous prefix). */
export function BreakCost({ answer }: { answer: StepCostAnswer | undefined }) {
  const step = answer?.step ?? null
  if (answer === undefined || step === null || step.breakCauses.length === 0) return null
  return (
    <span
      data-testid="break-cost"
      data-cost={step.breakCost === null ? '' : roundAmount(step.breakCost)}
      data-tokens={step.breakTokens ?? ''}
      data-cause={step.breakCause ?? ''}
      title={`cache break: ${step.breakCause ?? ''}. Tokens the previous request had cached, billed again as misses (at the miss rate less the hit rate).`}
    >
      {' · '}this break cost {step.breakCost === null ? 'an unknown amount' : moneyText(step.breakCost, answer.currency)}
      {step.breakTokens === null ? '' : ` (${formatCount(step.breakTokens)} tokens billed again)`}
    </span>
  )
}
