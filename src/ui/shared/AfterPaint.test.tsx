// @vitest-environment jsdom
/**
 * AfterPaint shows its children only after a frame has been drawn since it mounted: not in the mounting commit, not
 * in the frame callback (which runs before that frame's layout), but in the task queued from it. Frames and timers
 * are driven by hand, so the order is exact whatever the machine's speed.
 */

import { act } from 'react'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { mount } from '../../test-support/react-act.tsx'
import { AfterPaint } from './AfterPaint.tsx'

let callbacks = new Map<number, FrameRequestCallback>()
let nextHandle = 1

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  callbacks = new Map()
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    callbacks.set(nextHandle, callback)
    return nextHandle++
  })
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => callbacks.delete(handle))
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

function frame(): void {
  const due = [...callbacks.values()]
  callbacks.clear()
  act(() => due.forEach((callback) => callback(performance.now())))
}

const shown = (host: HTMLElement) => ({
  child: host.querySelector('[data-id=child]') !== null,
  fallback: host.querySelector('[data-id=fallback]') !== null,
})

it('renders the fallback through the mounting commit and the next frame, then the children', () => {
  const host = mount(
    <AfterPaint fallback={<i data-id="fallback" />}>
      <b data-id="child" />
    </AfterPaint>,
  )
  expect(shown(host)).toEqual({ child: false, fallback: true })
  // Timers alone do nothing: the wait starts from a frame.
  act(() => vi.runAllTimers())
  expect(shown(host)).toEqual({ child: false, fallback: true })
  // The frame callback only queues the switch: that frame is laid out and painted without the children.
  frame()
  expect(shown(host)).toEqual({ child: false, fallback: true })
  act(() => vi.runAllTimers())
  expect(shown(host)).toEqual({ child: true, fallback: false })
  // Shown for good: no further frame is asked for.
  expect(callbacks.size).toBe(0)
})
