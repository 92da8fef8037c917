/** A draggable, keyboard-operable separator between two panes (role=separator, ←/→ move it by 2 %). */

import { useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { shortcutFor } from './shortcuts.ts'

const KEY_STEP = 0.02

export interface SplitterProps {
  readonly label: string
  /** Current position of the separator as a fraction of the container. */
  readonly value: number
  readonly onChange: (fraction: number) => void
  /** The container whose width the fraction refers to, and the fraction where this pane begins. */
  readonly containerRef: React.RefObject<HTMLElement | null>
  readonly origin: number
}

export function Splitter({ label, value, onChange, containerRef, origin }: SplitterProps) {
  const dragging = useRef(false)
  const fractionAt = (clientX: number): number | null => {
    const box = containerRef.current?.getBoundingClientRect()
    if (box === undefined || box.width === 0) return null
    return (clientX - box.left) / box.width - origin
  }
  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    dragging.current = true
    event.currentTarget.setPointerCapture(event.pointerId)
  }
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    if (!dragging.current) return
    const f = fractionAt(event.clientX)
    if (f !== null) onChange(f)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const action = shortcutFor('splitter', event)
    if (action === 'narrower') onChange(value - KEY_STEP)
    else if (action === 'wider') onChange(value + KEY_STEP)
    else return
    event.preventDefault()
  }
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(value * 100)}
      aria-valuemin={0}
      aria-valuemax={100}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (dragging.current = false)}
      onKeyDown={onKeyDown}
      className="w-1.5 shrink-0 cursor-col-resize bg-line hover:bg-accent focus-visible:bg-accent"
    />
  )
}
