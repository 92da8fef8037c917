// @vitest-environment jsdom
/**
 * When a list's first rows mount: a list that had none mounts them in a transition (React renders it in slices), not
 * in the store update that brought them; a list created with rows shows them in its first render.
 */

import { act } from 'react'
import { flushSync } from 'react-dom'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { VirtualList } from './VirtualList.tsx'

/** A ResizeObserver that reports every observed element at once as 300x400 (jsdom lays nothing out). */
class FixedSizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element): void {
    const box = [{ inlineSize: 300, blockSize: 400 }]
    this.callback([{ target, borderBoxSize: box, contentBoxSize: box } as unknown as ResizeObserverEntry], this as never)
  }
  unobserve(): void {}
  disconnect(): void {}
}

function list(count: number) {
  return (
    <VirtualList
      count={count}
      label="Rows"
      idPrefix="rows"
      estimateSizePx={40}
      itemKey={(i) => i}
      itemSeq={(i) => i}
      itemClassName={() => ''}
      renderItem={(i) => <span>row {i}</span>}
      activeIndex={null}
      onActivate={() => undefined}
      revealIndex={null}
      onRange={() => undefined}
      emptyText="No entries."
    />
  )
}

let container: HTMLDivElement
let root: Root
const options = (): number => container.querySelectorAll('[role=option]').length

beforeEach(() => {
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true, ResizeObserver: FixedSizeObserver })
  Object.assign(window, { ResizeObserver: FixedSizeObserver })
  container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
})

afterEach(() => {
  act(() => root.unmount())
  container.remove()
})

describe('VirtualList first rows', () => {
  it('a list that had no rows mounts its first ones after the update that brought them, in a transition', async () => {
    act(() => root.render(list(0)))
    expect(container.textContent).toContain('No entries.')
    // The update as a store change makes it: synchronous. Its render shows no row yet, and says the list is busy,
    // never that it is empty...
    Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: false })
    flushSync(() => root.render(list(50)))
    expect(options()).toBe(0)
    expect(container.textContent).not.toContain('No entries.')
    expect(container.querySelector('[aria-label=Rows]')?.getAttribute('aria-busy')).toBe('true')
    // ...and the rows come in the transition that follows.
    Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })
    await act(async () => {})
    expect(options()).toBeGreaterThan(0)
    expect(container.textContent).toContain('row 0')
  })

  it('a list created with rows shows them in its first render', () => {
    Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: false })
    flushSync(() => root.render(list(50)))
    expect(options()).toBeGreaterThan(0)
    expect(container.textContent).toContain('row 0')
    Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })
  })
})
