/**
 * The timeline cursor (an event index) and the latest snapshot the worker published for it. Moving the cursor
 * is synchronous; the snapshot follows as soon as the worker answers (drags are coalesced in the client).
 */

import { nextMark, previousMark } from '../timeline-steps.ts'
import { indexOfSeqInSummary, type CursorSnapshot } from '../../protocol/log-summary.ts'
import type { LensSliceCreator } from './types.ts'

export type MarkKind = 'surface' | 'replace' | 'turn' | 'diagnostic'

export interface CursorSlice {
  cursor: number
  snapshot: CursorSnapshot | null
  setCursor: (index: number) => void
  step: (delta: number) => void
  /** Jump to the previous (-1) or next (+1) mark of a kind; stays put when there is none. */
  jump: (kind: MarkKind, direction: -1 | 1) => void
  /** The event index holding `seq` (-1: none): from the summary when it can say, else from the worker. */
  indexOfSeq: (seq: number) => Promise<number>
}

export const createCursorSlice: LensSliceCreator<CursorSlice> =
  ({ lens: client }) =>
  (set, get) => {
    client.subscribe((event) => {
      if (event.type !== 'snapshot') return
      // Only the answer for where the cursor is now is worth publishing.
      if (event.snapshot.index === get().cursor) set({ snapshot: event.snapshot })
    })

    const marksOf = (kind: MarkKind): ArrayLike<number> => {
      const summary = get().summary
      if (summary === null) return []
      if (kind === 'surface') return summary.surfaceChangeIndices
      if (kind === 'turn') return summary.turnIndices
      if (kind === 'diagnostic') return summary.diagnosticIndices
      return summary.replacements.map((r) => r.index)
    }

    return {
      cursor: -1,
      snapshot: null,
      setCursor: (index) => {
        const length = get().summary?.length ?? 0
        const cursor = length === 0 ? -1 : Math.max(0, Math.min(Math.trunc(index), length - 1))
        set({ cursor })
        if (cursor >= 0) client.requestState(cursor)
        else set({ snapshot: null })
        get().refreshDetail()
      },
      step: (delta) => get().setCursor(get().cursor + delta),
      jump: (kind, direction) => {
        const marks = marksOf(kind)
        const cursor = get().cursor
        const target = direction > 0 ? nextMark(marks, cursor) : previousMark(marks, cursor)
        if (target !== undefined) get().setCursor(target)
      },
      indexOfSeq: async (seq) => {
        const summary = get().summary
        const known = summary === null ? null : indexOfSeqInSummary(summary, seq)
        return known ?? client.query('index-of-seq', { seq })
      },
    }
  }
