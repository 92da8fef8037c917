/**
 * One worker answer for a component: asked when `key` changes (and again when the log grows or a new log loads),
 * kept with the key it answers, so an answer for an earlier key or an earlier log is never shown. `ask` returns
 * null when there is nothing to ask.
 */

import { useEffect, useState } from 'react'
import { useLensStore } from '../../store/lens-store-context.tsx'

export function useWorkerAnswer<T>(key: string | null, ask: () => Promise<T> | null): T | undefined {
  const generation = useLensStore((s) => s.loadGeneration)
  const length = useLensStore((s) => s.summary?.length ?? 0)
  const stamp = key === null ? null : `${generation}:${length}:${key}`
  const [held, setHeld] = useState<{ stamp: string; value: T } | null>(null)
  useEffect(() => {
    if (stamp === null) return
    let live = true
    ask()
      ?.then((value) => {
        if (live) setHeld({ stamp, value })
      })
      .catch(() => {
        if (live) setHeld(null)
      })
    return () => {
      live = false
    }
    // `ask` is a fresh closure per render; the stamp says when the question changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stamp])
  return held !== null && held.stamp === stamp ? held.value : undefined
}
