/**
 * A virtualized listbox: only the visible options are mounted (TanStack Virtual, measured row heights), with
 * keyboard navigation (↑/↓/PageUp/PageDown/Home/End) and `aria-activedescendant` pointing at the active option.
 */

import { elementScroll, useVirtualizer, type Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual'
import { startTransition, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { afterNextPaint } from './AfterPaint.tsx'
import { shortcutFor } from './shortcuts.ts'

/** Rows drawn beyond the viewport on each side, so a fast scroll shows no blank band. */
const VIRTUAL_OVERSCAN_ROWS = 8
/**
 * Rows beyond the viewport until the list has painted once. A `?log=` load mounts the transcript's and the surface's
 * first windows in one store update, which React renders and commits in one task: the rows nobody sees yet made it
 * a long one. The rest of the overscan mounts after that first paint, in a transition React can interrupt.
 */
const FIRST_PAINT_OVERSCAN_ROWS = 2
const PAGE_ROWS = 10
/** How long after a navigation key the list keeps that key's row in view while rows are filled and measured. */
const KEY_FOLLOW_MS = 1000

/**
 * Row heights come from the ResizeObserver entry only. TanStack's default also reads `getBoundingClientRect()`
 * when a row mounts, which forces a synchronous layout per row: a drag that swaps the whole window each frame
 * paid for ~30 forced layouts a frame. On mount we answer with the cached (or estimated) height instead; the
 * observer reports the real one right after the browser's own layout.
 */
function measureFromObserver(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, Element>,
): number {
  const box = entry?.borderBoxSize?.[0]
  if (box !== undefined) return Math.round(box.blockSize)
  const index = instance.indexFromElement(element)
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index)
}

/**
 * The scroll element's size, from its ResizeObserver only. TanStack's default also reads `offsetWidth/Height` when
 * the list mounts, which forces a layout of the whole page inside React's commit: on the first screen that was
 * one long task. The observer's first callback comes right after the browser's own
 * layout with the same border-box size; until then the list has no height and mounts no rows.
 */
function observeRectAfterLayout(
  instance: Virtualizer<HTMLDivElement, Element>,
  cb: (rect: { width: number; height: number }) => void,
): (() => void) | undefined {
  const element = instance.scrollElement
  const Observer = instance.targetWindow?.ResizeObserver
  if (element === null || Observer === undefined) return undefined
  const observer = new Observer((entries) => {
    const box = entries[entries.length - 1]?.borderBoxSize?.[0]
    if (box !== undefined) cb({ width: Math.round(box.inlineSize), height: Math.round(box.blockSize) })
  })
  observer.observe(element, { box: 'border-box' })
  return () => observer.disconnect()
}

/**
 * Scroll writes, less the one TanStack makes when the list mounts: it scrolls a brand-new element to its initial
 * offset (0), a no-op that still forces a layout of the whole page inside React's first commit (`scrollTo` needs
 * layout to clamp). Every later write (reveal, keys, anchoring) goes through as usual.
 */
function scrollToSkippingMount(): VirtualizerOptions<HTMLDivElement, Element>['scrollToFn'] {
  let mounted = false
  return (offset, options, instance) => {
    const first = !mounted
    mounted = true
    if (first && offset + (options.adjustments ?? 0) === 0) return
    elementScroll(offset, options, instance)
  }
}

export interface VirtualListProps {
  readonly count: number
  readonly label: string
  readonly idPrefix: string
  readonly estimateSizePx: number
  /** Rows mounted beyond the viewport on each side (default VIRTUAL_OVERSCAN_ROWS). */
  readonly overscanRows?: number
  /** Stable key per position (seq-based where the pane has one). */
  readonly itemKey: (index: number) => string | number
  readonly itemSeq: (index: number) => number | undefined
  readonly itemClassName: (index: number) => string
  readonly renderItem: (index: number) => ReactNode
  readonly activeIndex: number | null
  readonly onActivate: (index: number) => void
  /** Bring this position into view whenever it (or `revealToken`) changes. */
  readonly revealIndex: number | null
  readonly revealToken?: unknown
  /** Called with the mounted window [from, to) so the pane can fetch what it shows. */
  readonly onRange: (from: number, to: number) => void
  readonly emptyText: string
}

export function VirtualList(props: VirtualListProps) {
  const { itemKey, onRange, revealIndex, revealToken, activeIndex, onActivate } = props
  // A list that had no rows mounts its first ones in a transition, which React renders in slices, not in the store
  // update that brought them: a `?log=` load's first summary brings every pane's first rows at once, and mounting
  // them inside that update made it one long task.
  const [rowsShown, setRowsShown] = useState(props.count > 0)
  useEffect(() => {
    if (!rowsShown && props.count > 0) startTransition(() => setRowsShown(true))
  }, [rowsShown, props.count])
  const count = rowsShown ? props.count : 0
  /** Rows are there and their first mount is on its way: the list is busy, not empty. */
  const rowsPending = props.count > 0 && !rowsShown
  const scrollRef = useRef<HTMLDivElement>(null)
  const [scrollToFn] = useState(scrollToSkippingMount)
  // Whether the last revealed row is still kept on its side (keepRevealed), and which side: until the user scrolls,
  // clicks or uses a key in the list.
  const revealHeld = useRef(false)
  const heldAlign = useRef<'start' | 'end' | null>(null)
  const reRevealOnResize = useRef<() => void>(() => undefined)
  const fullOverscan = props.overscanRows ?? VIRTUAL_OVERSCAN_ROWS
  const [painted, setPainted] = useState(false)
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack's virtualizer is the intended escape hatch here.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => props.estimateSizePx,
    overscan: painted ? fullOverscan : Math.min(fullOverscan, FIRST_PAINT_OVERSCAN_ROWS),
    getItemKey: itemKey,
    measureElement: measureFromObserver,
    observeElementRect: (instance, cb) =>
      observeRectAfterLayout(instance, (rect) => {
        cb(rect)
        reRevealOnResize.current()
      }),
    scrollToFn,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? -1

  useEffect(() => {
    if (last >= first) onRange(first, last + 1)
  }, [first, last, onRange, count])

  const hasRows = items.length > 0
  useEffect(
    () => (painted || !hasRows ? undefined : afterNextPaint(() => startTransition(() => setPainted(true)))),
    [painted, hasRows],
  )

  useEffect(() => {
    heldAlign.current = null
    revealHeld.current = revealIndex !== null && revealIndex >= 0 && revealIndex < count
    if (revealHeld.current) keepRevealed()
    // revealToken re-triggers the scroll when the same position is asked for again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keepRevealed reads these same inputs.
  }, [revealIndex, revealToken, count, virtualizer])
  /**
   * `align: 'auto'` decides once, from the heights of the moment, whether the row goes to the top or the bottom; a
   * row that was put at the bottom stays at the bottom when the list's height then changes. Otherwise, where a block
   * above the list that fills in as lazily computed answers arrive left the row depended on when they arrived, and a
   * busy machine showed a whole row fewer.
   */
  const keepRevealed = (): void => {
    if (revealIndex === null) return
    if (heldAlign.current === null) {
      const resolved = virtualizer.getOffsetForIndex(revealIndex, 'auto')?.[1]
      if (resolved === 'start' || resolved === 'end') heldAlign.current = resolved
    }
    virtualizer.scrollToIndex(revealIndex, { align: heldAlign.current ?? 'auto' })
  }
  reRevealOnResize.current = () => {
    if (revealHeld.current && revealIndex !== null && revealIndex < count) keepRevealed()
  }

  // A key that jumps into rows not measured yet (End on a long list) scrolls by estimated heights, and lands short
  // once those rows are filled and measured taller: the first End left the demo's transcript at rows 27-46 of 53 in
  // one run of eight. Until the user scrolls or a second has passed, every render brings the key's row back into view
  // (`align: 'auto'` leaves a row that is already in view where it is).
  const keyTarget = useRef<{ index: number; until: number } | null>(null)
  useEffect(() => {
    const target = keyTarget.current
    if (target === null) return
    if (target.index >= count || performance.now() > target.until) keyTarget.current = null
    else virtualizer.scrollToIndex(target.index, { align: 'auto' })
  })
  const stopFollowingKey = (): void => {
    keyTarget.current = null
    revealHeld.current = false
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (count === 0) return
    const current = activeIndex ?? -1
    const action = shortcutFor('list', event)
    if (action === null) return
    const next = {
      next: current + 1,
      previous: current - 1,
      'page-down': current + PAGE_ROWS,
      'page-up': current - PAGE_ROWS,
      first: 0,
      last: count - 1,
    }[action]
    event.preventDefault()
    revealHeld.current = false
    const clamped = Math.max(0, Math.min(next, count - 1))
    onActivate(clamped)
    virtualizer.scrollToIndex(clamped, { align: 'auto' })
    keyTarget.current = { index: clamped, until: performance.now() + KEY_FOLLOW_MS }
  }

  const activeInRange = activeIndex !== null && activeIndex >= 0 && activeIndex < count
  return (
    // A listbox must hold options: an empty list is a group that says so; rows still on their way make it busy.
    <div
      ref={scrollRef}
      role={count > 0 ? 'listbox' : 'group'}
      aria-label={props.label}
      aria-busy={rowsPending || (count > 0 && items.length === 0) ? true : undefined}
      tabIndex={count > 0 ? 0 : -1}
      aria-activedescendant={activeInRange ? `${props.idPrefix}-${activeIndex}` : undefined}
      onKeyDown={onKeyDown}
      onWheel={stopFollowingKey}
      onPointerDown={stopFollowingKey}
      className="relative min-h-0 flex-1 overflow-auto [contain:layout_paint]"
    >
      {props.count === 0 ? <p className="p-3 text-muted">{props.emptyText}</p> : null}
      <div style={{ height: virtualizer.getTotalSize() }} className="relative w-full">
        {items.map((item) => (
          <div
            key={item.key}
            id={`${props.idPrefix}-${item.index}`}
            role="option"
            aria-selected={item.index === activeIndex}
            data-index={item.index}
            data-seq={props.itemSeq(item.index)}
            ref={virtualizer.measureElement}
            onClick={() => onActivate(item.index)}
            className={`absolute left-0 top-0 w-full cursor-pointer border-b border-line [contain:layout] ${props.itemClassName(item.index)}`}
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {props.renderItem(item.index)}
          </div>
        ))}
      </div>
    </div>
  )
}
