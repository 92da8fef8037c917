/** The replacement count the graph draws: follows the cursor's count, at most a frame's node budget per frame. */

import { useEffect, useRef, useState } from 'react'
import { stepToward } from './graph-catch-up.ts'

export function useGraphCatchUp(target: number, nodeEnd: Int32Array, budget?: number): number {
  const [drawn, setDrawn] = useState(0)
  const clamped = Math.min(drawn, nodeEnd.length - 1)
  // Whether the last frame already moved the graph. A catch-up starts when something else changed the page (the
  // cursor moved, a summary or `ready` arrived), and that commit's style, layout and paint fall in the next frame;
  // so the first step waits one frame more instead of adding the nodes' mount and React Flow's measuring to that
  // frame (in a trace of the 280k `?log=` load, both together made one long frame at `ready`).
  const moving = useRef(false)
  useEffect(() => {
    if (clamped === target) {
      moving.current = false
      return
    }
    const step = (): void => {
      moving.current = true
      setDrawn(stepToward(clamped, target, nodeEnd, budget))
    }
    let frame = requestAnimationFrame(moving.current ? step : () => (frame = requestAnimationFrame(step)))
    return () => cancelAnimationFrame(frame)
  }, [clamped, target, nodeEnd, budget])
  return clamped
}
