/** A value that follows its input at most once per `intervalMs`, always ending on the latest input (trailing edge). */

import { useEffect, useRef, useState } from 'react'

export function useThrottledValue<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value)
  const lastAt = useRef(0)
  useEffect(() => {
    const wait = Math.max(0, intervalMs - (Date.now() - lastAt.current))
    const timer = setTimeout(() => {
      lastAt.current = Date.now()
      setShown(value)
    }, wait)
    return () => clearTimeout(timer)
  }, [value, intervalMs])
  return shown
}
