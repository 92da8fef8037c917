/**
 * The Request view's data: the worker's `step-request` answer for the picked step, or for the cursor when none is
 * picked, and the `step-list` for the picker. Queries are coalesced like the cursor's (one in flight, the latest
 * wanted runs next), and carry the key of the answer held, so a drag inside one step costs a tiny "unchanged"
 * reply per frame. A growing live log changes the key (its length is in it): the answer is refetched.
 */

import { useEffect, useRef, useState } from 'react'
import { useLensStore, useLensStoreApi } from '../../../store/lens-store-context.tsx'
import type { StepListEntry } from '../../../core/index.ts'
import type { StepRequestAnswer, StepTarget } from '../../../protocol/step-request.ts'

/** A live log's step list waits this long after a change (it is only the picker's). */
const STEP_LIST_MS = 500

export interface StepRequestState {
  readonly answer: StepRequestAnswer | null
  readonly error: string | null
  readonly steps: readonly StepListEntry[]
}

export function useStepRequest(): StepRequestState {
  const store = useLensStoreApi()
  const pin = useLensStore((s) => s.requestPin)
  const cursor = useLensStore((s) => s.cursor)
  const length = useLensStore((s) => s.summary?.length ?? 0)
  const generation = useLensStore((s) => s.loadGeneration)
  const final = useLensStore((s) => s.summary?.final ?? false)
  // Each answer is stamped with the load it belongs to: one from an earlier log is never shown.
  const [answer, setAnswer] = useState<{ generation: number; value: StepRequestAnswer } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [steps, setSteps] = useState<{ generation: number; value: readonly StepListEntry[] } | null>(null)
  const held = useRef<{ key: string | null; inFlight: boolean; wanted: StepTarget | null; generation: number }>({
    key: null,
    inFlight: false,
    wanted: null,
    generation,
  })

  useEffect(() => {
    const h = held.current
    if (h.generation !== generation) {
      h.generation = generation
      h.key = null
    }
    if (length === 0 || (pin === null && cursor < 0)) {
      h.wanted = null
      h.key = null
      return
    }
    h.wanted = pin ?? { index: cursor }
    const pump = (): void => {
      if (h.inFlight || h.wanted === null) return
      const target = h.wanted
      h.wanted = null
      h.inFlight = true
      const asked = h.generation
      store
        .getState()
        .stepRequest(target, h.key)
        .then((next) => {
          if (asked !== h.generation || h.wanted !== null) return
          setError(null)
          if (next.unchanged) return
          h.key = next.key
          setAnswer({ generation: asked, value: next })
        })
        .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
        .finally(() => {
          h.inFlight = false
          pump()
        })
    }
    pump()
  }, [store, pin, cursor, length, generation])

  // The list is refetched when the number of steps changes (or the log ends), not on every live chunk: building it
  // costs O(steps) in the worker.
  const stepCount = answer !== null && answer.generation === generation ? answer.value.stepCount : 0
  useEffect(() => {
    if (stepCount === 0) return
    let live = true
    const timer = setTimeout(
      () => {
        store
          .getState()
          .stepList()
          .then((list) => live && setSteps({ generation, value: list }))
          .catch((e: unknown) => console.error(e))
      },
      final ? 0 : STEP_LIST_MS,
    )
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [store, stepCount, generation, final])

  const empty = length === 0 || (pin === null && cursor < 0)
  return {
    answer: empty || answer?.generation !== generation ? null : answer.value,
    error,
    steps: length === 0 || steps?.generation !== generation ? [] : steps.value,
  }
}
