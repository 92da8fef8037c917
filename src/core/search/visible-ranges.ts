/**
 * When surface nodes were on the model surface: for each node, from the event that put it there to the event before
 * the replacement that shadowed it (or the end of the log), merged. Search's `visible` and the secrets' "seen by the
 * model" are this one answer. Read from the fold's timeline, so a live log's later replacements are reflected.
 */

import type { LensLog } from '../log/lens-log.ts'

/** An inclusive range of event indices. */
export interface IndexRange {
  readonly from: number
  readonly to: number
}

/** The merged spans during which any of `nodes` (surface nodes, in entry order) was on the surface. */
export function visibleRanges(log: LensLog, nodes: Iterable<number>): IndexRange[] {
  const timeline = log.fold.timeline
  const last = log.length - 1
  const out: { from: number; to: number }[] = []
  for (const node of nodes) {
    const by = timeline.shadowedBy(node)
    const from = timeline.indexOf(node)
    const to = by === -1 ? last : timeline.indexOf(by) - 1
    const previous = out.at(-1)
    if (previous !== undefined && from <= previous.to + 1) previous.to = Math.max(previous.to, to)
    else out.push({ from, to })
  }
  return out
}

/** The surface node event `index` (with seq `seq`) entered as, or -1 when it never joined the surface. */
export function surfaceNodeOf(log: LensLog, seq: number, index: number): number {
  const timeline = log.fold.timeline
  const node = timeline.findNode(seq)
  return node !== -1 && timeline.indexOf(node) === index ? node : -1
}
