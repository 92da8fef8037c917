/** The replacement count the graph draws: follows the cursor's count, at most a frame's node budget per frame. */

import { useEffect, useState } from 'react'
import { stepToward } from './graph-catch-up.ts'

export function useGraphCatchUp(target: number, nodeEnd: Int32Array, budget?: number): number {
  const [drawn, setDrawn] = useState(0)
  const clamped = Math.min(drawn, nodeEnd.length - 1)
  useEffect(() => {
    if (clamped === target) return
    const frame = requestAnimationFrame(() => setDrawn(stepToward(clamped, target, nodeEnd, budget)))
    return () => cancelAnimationFrame(frame)
  }, [clamped, target, nodeEnd, budget])
  return clamped
}
