/**
 * A strip's paced question to the worker (query-pacer.ts): asked again as the log changes (each summary) and when
 * `question` changes, never while the user moves the cursor; the latest answer shown. `ask` and `complete` must be
 * stable (module-level) functions.
 */

import { useEffect, useState } from 'react'
import type { LensClient } from '../../protocol/lens-client.ts'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { selectSummary } from '../../store/selectors.ts'
import { QueryPacer } from './query-pacer.ts'

export function usePacedQuery<Q, A>(
  question: Q | null,
  ask: (client: LensClient, question: Q) => Promise<A>,
  complete: (answer: A) => boolean,
): A | null {
  const store = useLensStoreApi()
  const summary = useLensStore(selectSummary)
  const live = useLensStore((s) => s.live)
  const [answer, setAnswer] = useState<A | null>(null)
  const [pacer] = useState(
    () =>
      new QueryPacer<Q, A>({
        ask: (q) => ask(store.client, q),
        show: setAnswer,
        complete,
        onError: (error) => console.error(error),
      }),
  )
  useEffect(() => () => pacer.dispose(), [pacer])

  useEffect(() => {
    if (summary === null || question === null) return
    pacer.wish(question, summary.final || live)
  }, [pacer, summary, question, live])

  // The user moving the cursor, not the cursor following the end of a growing log.
  useEffect(
    () =>
      store.subscribe((s, previous) => {
        if (s.cursor !== previous.cursor && s.cursor >= 0 && s.cursor !== (s.summary?.length ?? 0) - 1) pacer.cursorMoved()
      }),
    [store, pacer],
  )
  return answer
}
