/**
 * The one road from a component to the lens worker: a component that shows an answer asks for it here, by one of two
 * hooks, and nowhere else reads the store's client (a lint rule, eslint.config.js, refuses `.client` in src/ui outside
 * this file). A component that acts on an event (copy, save, jump) calls a store action instead.
 *
 * - `useWorkerAnswer(key, (ask) => ask('query', args))`: an answer keyed by its question, asked when `key` changes and
 *   again when the log grows or a new log loads; an answer for an earlier key or an earlier log is never shown
 *   (`latest`: the last answer of this log stays until the next arrives, for a preview that must not flicker).
 * - `usePacedQuery(question, (ask, q) => ask(...), complete)`: a strip's answer as the log changes, paced
 *   (query-pacer.ts): never while the user moves the cursor, the latest answer shown. `ask` and `complete` must be
 *   stable (module-level) functions.
 */

import { useEffect, useState } from 'react'
import type { QueryResults } from '../../protocol/messages.ts'
import type { QueryArgs, QueryType } from '../../protocol/lens-client.ts'
import type { LensStore } from '../../store/create-lens-store.ts'
import { useLensStore, useLensStoreApi } from '../../store/lens-store-context.tsx'
import { selectSummary } from '../../store/selectors.ts'
import { QueryPacer } from './query-pacer.ts'

/** A question to the lens worker, typed by the protocol's query table. */
export type Ask = <T extends QueryType>(type: T, args: QueryArgs<T>) => Promise<QueryResults[T]>

const askOf =
  (store: LensStore): Ask =>
  (type, args) =>
    store.client.query(type, args)

export interface AnswerOptions {
  /** Keep showing the last answer of this log until the next one arrives (never one of an earlier log). */
  readonly latest?: boolean
}

export function useWorkerAnswer<T>(
  key: string | null,
  question: (ask: Ask) => Promise<T> | null,
  options: AnswerOptions = {},
): T | undefined {
  const store = useLensStoreApi()
  const generation = useLensStore((s) => s.loadGeneration)
  const length = useLensStore((s) => s.summary?.length ?? 0)
  const stamp = key === null ? null : `${generation}:${length}:${key}`
  const [held, setHeld] = useState<{ stamp: string; generation: number; value: T } | null>(null)
  useEffect(() => {
    if (stamp === null) return
    let live = true
    question(askOf(store))
      ?.then((value) => {
        if (live) setHeld({ stamp, generation, value })
      })
      .catch(() => {
        if (live && options.latest !== true) setHeld(null)
      })
    return () => {
      live = false
    }
    // `question` is a fresh closure per render; the stamp says when the question changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stamp])
  if (held === null || stamp === null) return undefined
  if (held.stamp === stamp) return held.value
  return options.latest === true && held.generation === generation ? held.value : undefined
}

export function usePacedQuery<Q, A>(
  question: Q | null,
  ask: (ask: Ask, question: Q) => Promise<A>,
  complete: (answer: A) => boolean,
): A | null {
  const store = useLensStoreApi()
  const summary = useLensStore(selectSummary)
  const live = useLensStore((s) => s.live)
  const [answer, setAnswer] = useState<A | null>(null)
  const [pacer] = useState(
    () =>
      new QueryPacer<Q, A>({
        ask: (q) => ask(askOf(store), q),
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
