/** The time lanes of the open log: asked of the worker as the log changes, paced like the context chart's series. */

import type { LensClient } from '../../../protocol/lens-client.ts'
import type { TimeLanesAnswer } from '../../../protocol/time-lanes.ts'
import { usePacedQuery } from '../../shared/use-paced-query.ts'

async function askLanes(client: LensClient): Promise<TimeLanesAnswer> {
  const started = performance.now()
  const answer = await client.query('time-lanes', {})
  // The benchmark probe reads this measure; no test times it.
  performance.measure('time-lanes:query', { start: started, end: performance.now() })
  return answer
}

const whole = (): boolean => true

export function useTimeLanes(): TimeLanesAnswer | null {
  return usePacedQuery(true, askLanes, whole)
}
