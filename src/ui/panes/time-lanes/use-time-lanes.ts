/** The time lanes of the open log: asked of the worker as the log changes, paced like the context chart's series. */

import type { TimeLanesAnswer } from '../../../protocol/time-lanes.ts'
import { usePacedQuery, type Ask } from '../../shared/use-worker-answer.ts'

async function askLanes(ask: Ask): Promise<TimeLanesAnswer> {
  const started = performance.now()
  const answer = await ask('time-lanes', {})
  // The benchmark probe reads this measure; no test times it.
  performance.measure('time-lanes:query', { start: started, end: performance.now() })
  return answer
}

const whole = (): boolean => true

export function useTimeLanes(): TimeLanesAnswer | null {
  return usePacedQuery(true, askLanes, whole)
}
