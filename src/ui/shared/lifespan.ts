/**
 * Pure: an entry's visibility lifespan from the facts the worker sent (`EventSummary.surface`): on the model
 * surface from the event where its node entered through the event before the one that shadowed it, or to the end.
 * Index arithmetic only; the fold's answer (entered / shadowed) is the core's.
 */

import type { EventSummary } from '../../protocol/event-views.ts'

export interface Lifespan {
  readonly from: number
  readonly to: number
  /** Still on the surface at the end of the log. */
  readonly open: boolean
}

export function lifespanOf(surface: EventSummary['surface'], length: number): Lifespan | null {
  if (surface === null || length <= 0) return null
  const open = surface.shadowedAtIndex === null
  return { from: surface.enteredIndex, to: open ? length - 1 : (surface.shadowedAtIndex as number) - 1, open }
}

/** Left and width of [from, to] on a track over events 0..last, as fractions; at least a sliver wide. */
export function spanFractions(from: number, to: number, last: number): { left: number; width: number } {
  if (last <= 0) return { left: 0, width: 1 }
  const left = Math.max(0, Math.min(1, from / last))
  const right = Math.max(left, Math.min(1, (to + 1) / (last + 1)))
  return { left, width: Math.max(0.002, right - left) }
}
