/** Pure: which of the first `count` laid-out replacements a viewport shows (the large graph mounts only those). */

import type { ReplaceLayout } from '../../../protocol/replace-layout.ts'

export interface ViewBox {
  /** React Flow's transform: screen = flow * zoom + (x, y). */
  readonly x: number
  readonly y: number
  readonly zoom: number
  readonly width: number
  readonly height: number
}

/**
 * Indices of replacements (below `count`) whose box meets the view, in index order; null when more than `max`
 * do (the view is too far out for DOM nodes, the canvas draws it). O(count) over typed arrays.
 */
export function visibleReplacements(
  layout: ReplaceLayout,
  count: number,
  view: ViewBox,
  size: { width: number; height: number },
  max: number,
): number[] | null {
  const n = Math.min(count, layout.count)
  if (view.zoom <= 0 || view.width <= 0 || view.height <= 0) return []
  const x0 = -view.x / view.zoom
  const y0 = -view.y / view.zoom
  const x1 = x0 + view.width / view.zoom
  const y1 = y0 + view.height / view.zoom
  const out: number[] = []
  for (let k = 0; k < n; k++) {
    const x = layout.x[k] as number
    const y = layout.y[k] as number
    if (x + size.width < x0 || x > x1 || y + size.height < y0 || y > y1) continue
    if (out.length === max) return null
    out.push(k)
  }
  return out
}

/** Same list, same order: lets a pan that mounts nothing new skip a React Flow update. */
export function sameIndices(a: readonly number[] | null, b: readonly number[] | null): boolean {
  if (a === b) return true
  if (a === null || b === null || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * `next` with at most `budget` indices that `shown` lacks (the rest mount on later frames), in index order; `done`
 * says whether that is all of `next`. Indices `shown` has that `next` lacks leave at once (unmounting is cheap).
 */
export function mountBudget(
  shown: readonly number[] | null,
  next: readonly number[],
  budget: number,
): { indices: number[]; done: boolean } {
  const have = new Set(shown ?? [])
  let added = 0
  const indices: number[] = []
  for (const k of next) {
    if (have.has(k)) indices.push(k)
    else if (added < budget) {
      added++
      indices.push(k)
    }
  }
  return { indices, done: indices.length === next.length }
}
