/**
 * Component tests under jsdom: mount a tree inside `act`, unmount it after each test, and wait for a condition while
 * letting React and the in-thread worker host run (each poll is an `act` around a short timer).
 */

import { act, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach } from 'vitest'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const mounted: (() => void)[] = []
afterEach(() => {
  for (const unmount of mounted.splice(0)) unmount()
})

/** Render `node` into a fresh element of the document; it is unmounted and removed after the test. */
export function mount(node: ReactNode): HTMLDivElement {
  const host = document.createElement('div')
  document.body.append(host)
  const root = createRoot(host)
  act(() => root.render(node))
  mounted.push(() => {
    act(() => root.unmount())
    host.remove()
  })
  return host
}

/** Poll `check` every 20 ms (inside `act`) until it holds; fails after 10 s with `what()`. */
export async function until(check: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`)
    await act(() => new Promise((r) => setTimeout(r, 20)))
  }
}
