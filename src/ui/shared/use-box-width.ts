/** Width (CSS px, floored) of an element as it is laid out, kept up to date by a ResizeObserver; 0 until known. */

import { useEffect, useState, type RefObject } from 'react'

export function useBoxWidth(box: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const observer = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0)
      if (w > 0) setWidth(w)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [box])
  return width
}
