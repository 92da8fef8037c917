/**
 * Renders its children only once the page has painted since this element mounted (the fallback until then).
 *
 * React Flow measures its container when it mounts (`checkVisibility()` and `offsetWidth` in a passive effect). Mounted
 * in the same commit as the rest of a changed page (a summary that turned the small graph into the large one), that
 * read forces the whole page's pending style and layout into the commit's task, on top of the commit. A frame later the
 * page is laid out, and the read lays out only React Flow's own new subtree.
 */

import { useEffect, useState, type ReactNode } from 'react'

export function AfterPaint({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [painted, setPainted] = useState(false)
  useEffect(() => (painted ? undefined : afterNextPaint(() => setPainted(true))), [painted])
  return painted ? children : fallback
}

/** Calls `callback` once the next frame has been laid out and painted; returns what cancels it (an effect's cleanup). */
export function afterNextPaint(callback: () => void): () => void {
  // A frame callback runs before that frame's layout and paint; a task queued from it runs after them.
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}
