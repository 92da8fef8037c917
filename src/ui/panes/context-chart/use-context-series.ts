/**
 * The context chart's series for a plot `width` buckets wide: asked of the worker (`context-series`) as the log
 * changes and when the plot is resized, paced by the shared query pacer (one in flight, a slower pace while a file
 * loads, quiet while the user scrubs, a large series' slices shown at most once a second).
 */

import type { ContextSeriesAnswer } from '../../../protocol/context-series.ts'
import { usePacedQuery, type Ask } from '../../shared/use-worker-answer.ts'

async function askSeries(ask: Ask, width: number): Promise<ContextSeriesAnswer> {
  const started = performance.now()
  const answer = await ask('context-series', { width, from: null, to: null })
  // The benchmark probe reads this measure; no test times it.
  performance.measure('context-chart:query', { start: started, end: performance.now() })
  return answer
}

const isComplete = (answer: ContextSeriesAnswer): boolean => answer.complete

/** The latest series to draw (null until the first answer); `width` 0: nothing asked yet. */
export function useContextSeries(width: number): ContextSeriesAnswer | null {
  return usePacedQuery(width > 0 ? width : null, askSeries, isComplete)
}
