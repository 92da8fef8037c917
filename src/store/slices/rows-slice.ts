/** Lazy row fetching for the virtualized panes: asks the worker only for what is visible and not cached. */

import { RowCache } from '../row-cache.ts'
import type { TranscriptList } from '../../protocol/event-views.ts'
import type { LensSliceCreator } from './types.ts'

export interface RowsSlice {
  /** The viewport cache (a stable reference); `cacheVersion` changes whenever it gains entries. */
  cache: RowCache
  cacheVersion: number
  ensureTranscriptRows: (list: TranscriptList, from: number, to: number) => void
  ensureSummaries: (indices: readonly number[]) => void
  /** Fetch again what the panes last asked for, after the cache dropped entries they may still show. */
  refetchVisible: () => void
}

export const createRowsSlice: LensSliceCreator<RowsSlice> =
  ({ lens: client }) =>
  (set, get) => {
    const inFlightRows = new Set<string>()
    const inFlightSummaries = new Set<number>()
    const bump = (): void => set((s) => ({ cacheVersion: s.cacheVersion + 1 }))
    // The windows last asked for: a pane whose window did not move does not ask again by itself.
    const lastRows: Partial<Record<TranscriptList, readonly [number, number]>> = {}
    let lastSummaries: readonly number[] = []
    return {
      cache: new RowCache(),
      cacheVersion: 0,
      ensureTranscriptRows: (list, from, to) => {
        lastRows[list] = [from, to]
        const { cache } = get()
        let first = from
        while (first < to && (cache.hasRow(list, first) || inFlightRows.has(`${list}:${first}`))) first++
        let last = to
        while (last > first && (cache.hasRow(list, last - 1) || inFlightRows.has(`${list}:${last - 1}`))) last--
        if (first >= last) return
        for (let r = first; r < last; r++) inFlightRows.add(`${list}:${r}`)
        const generation = get().loadGeneration
        client
          .query('transcript-rows', { list, from: first, to: last })
          .then(({ rows, summaries }) => {
            if (get().loadGeneration !== generation) return
            cache.addRows(list, rows)
            cache.addSummaries(summaries)
            bump()
          })
          .catch((error: unknown) => console.error(error))
          .finally(() => {
            for (let r = first; r < last; r++) inFlightRows.delete(`${list}:${r}`)
          })
      },
      ensureSummaries: (indices) => {
        lastSummaries = indices
        const { cache } = get()
        const missing = indices.filter((i) => !cache.hasSummary(i) && !inFlightSummaries.has(i))
        if (missing.length === 0) return
        missing.forEach((i) => inFlightSummaries.add(i))
        const generation = get().loadGeneration
        client
          .query('summaries', { indices: missing })
          .then((summaries) => {
            if (get().loadGeneration !== generation) return
            cache.addSummaries(summaries)
            bump()
          })
          .catch((error: unknown) => console.error(error))
          .finally(() => missing.forEach((i) => inFlightSummaries.delete(i)))
      },
      refetchVisible: () => {
        for (const [list, range] of Object.entries(lastRows) as [TranscriptList, readonly [number, number]][])
          get().ensureTranscriptRows(list, range[0], range[1])
        get().ensureSummaries(lastSummaries)
        bump()
      },
    }
  }
