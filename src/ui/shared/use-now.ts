/** The time now, redrawn every half minute: what relative times ("3 min ago") are said against. */

import { useEffect, useState } from 'react'

/** Relative times are redrawn this often ("3 min ago" must not stay "just now"). */
const CLOCK_MS = 30_000

export function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS)
    return () => clearInterval(timer)
  }, [])
  return now
}
