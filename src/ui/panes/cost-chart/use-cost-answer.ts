/**
 * The Cost mode's answer: the session's cost in the page's currency, asked of the worker (`cost`) as the log changes,
 * paced like the other strips' answers, and again when the currency changes. An answer in
 * another currency than the one chosen now is never shown.
 */

import { useMemo } from 'react'
import type { Currency } from '../../../core/index.ts'
import type { CostAnswer } from '../../../protocol/cost.ts'
import { useLensStore } from '../../../store/lens-store-context.tsx'
import { usePacedQuery, type Ask } from '../../shared/use-worker-answer.ts'

interface CostQuestion {
  readonly currency: Currency
}

async function askCost(ask: Ask, question: CostQuestion): Promise<CostAnswer> {
  const started = performance.now()
  const answer = await ask('cost', { currency: question.currency })
  // The benchmark probe reads this measure; no test times it.
  performance.measure('cost-chart:query', { start: started, end: performance.now() })
  return answer
}

const whole = (): boolean => true

export function useCostAnswer(): CostAnswer | null {
  const currency = useLensStore((s) => s.currency)
  const question = useMemo(() => ({ currency }), [currency])
  const answer = usePacedQuery(question, askCost, whole)
  return answer?.currency === currency ? answer : null
}
