/**
 * Pure: fit the replace graph to its pane, but never so far out that a label is drawn under 9 pixels. The boxes'
 * text is 12 px (text-xs) at zoom 1, so the zoom never goes below 0.75; a graph that does not fit at that zoom is
 * shown from its top (the oldest replacements, where a reader starts) and scrolls (the wheel pans the small graph),
 * centred across when it fits across.
 */

/** The smallest label drawn, and the size labels have at zoom 1. */
export const MIN_LABEL_PX = 9
export const LABEL_PX = 12
/** The lowest zoom at which boxes carry their text. */
export const MIN_LABEL_ZOOM = MIN_LABEL_PX / LABEL_PX

export interface Bounds {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export interface Viewport {
  readonly x: number
  readonly y: number
  readonly zoom: number
}

/** The viewport that shows `bounds` in a `width` x `height` pane with `padding` (a share of the pane) around it. */
export function readableFit(bounds: Bounds, width: number, height: number, padding: number, maxZoom: number): Viewport {
  const roomX = width * (1 - 2 * padding)
  const roomY = height * (1 - 2 * padding)
  const fit = Math.min(roomX / Math.max(1, bounds.width), roomY / Math.max(1, bounds.height))
  const zoom = Math.min(maxZoom, Math.max(MIN_LABEL_ZOOM, fit))
  const across = bounds.width * zoom <= roomX
  const down = bounds.height * zoom <= roomY
  const x = across ? (width - bounds.width * zoom) / 2 - bounds.x * zoom : width * padding - bounds.x * zoom
  const y = down ? (height - bounds.height * zoom) / 2 - bounds.y * zoom : height * padding - bounds.y * zoom
  return { x, y, zoom }
}
