// @vitest-environment jsdom
/**
 * The graph's catch-up waits one frame before its first step, so the commit that moved the cursor gets its layout
 * and paint in a frame of its own; once moving it steps every frame. Frames are driven by hand: the test owns
 * requestAnimationFrame, so "a frame" is exactly one `frame()` call, whatever the machine's speed.
 */

import { act, useSyncExternalStore } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mount } from '../../../test-support/react-act.tsx'
import { useGraphCatchUp } from './use-graph-catch-up.ts'

let callbacks = new Map<number, FrameRequestCallback>()
let nextHandle = 1

beforeEach(() => {
  callbacks = new Map()
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    callbacks.set(nextHandle, callback)
    return nextHandle++
  })
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => callbacks.delete(handle))
})
afterEach(() => vi.unstubAllGlobals())

/** Run the callbacks requested so far (one animation frame), then let React commit what they set. */
function frame(): void {
  const due = [...callbacks.values()]
  callbacks.clear()
  act(() => due.forEach((callback) => callback(performance.now())))
}

// Ten replacements owning one node each: with a budget of 3 nodes a frame, 0 → 10 takes four steps.
const nodeEnd = Int32Array.from({ length: 11 }, (_, k) => k)
const drawn: number[] = []

function Probe({ target }: { target: number }) {
  drawn.push(useGraphCatchUp(target, nodeEnd, 3))
  return null
}

/** Mount the probe at `initial`; returns a setter that moves its target (as a new cursor or summary would). */
function mountProbe(initial: number): (target: number) => void {
  drawn.length = 0
  let target = initial
  const listeners = new Set<() => void>()
  const subscribe = (listener: () => void) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }
  function Host() {
    return <Probe target={useSyncExternalStore(subscribe, () => target)} />
  }
  mount(<Host />)
  return (next) =>
    act(() => {
      target = next
      listeners.forEach((listener) => listener())
    })
}

const last = (): number | undefined => drawn.at(-1)

describe('useGraphCatchUp', () => {
  it('leaves the first frame to the commit that moved the target, then steps every frame', () => {
    mountProbe(10)
    expect(last()).toBe(0)
    frame()
    expect(last()).toBe(0) // the frame of the commit that set the target: no step yet
    frame()
    expect(last()).toBe(3)
    frame()
    expect(last()).toBe(6)
    frame()
    expect(last()).toBe(9)
    frame()
    expect(last()).toBe(10)
    frame()
    expect(callbacks.size).toBe(0) // caught up: no frame is requested
  })

  it('waits a frame again when a new target arrives after it caught up, but not while it is still moving', () => {
    const setTarget = mountProbe(2)
    frame()
    frame()
    expect(last()).toBe(2)
    setTarget(8)
    frame()
    expect(last()).toBe(2) // a fresh catch-up: one frame of waiting
    frame()
    expect(last()).toBe(5)
    setTarget(0) // mid-way: the next frame already steps back
    frame()
    expect(last()).toBe(2)
    frame()
    expect(last()).toBe(0)
  })
})
