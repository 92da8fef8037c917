/**
 * What "Copy link" and "Save prefix" ask the worker: the seq an event index stands for (a link names seqs), and the
 * log through an index as a new plain session.jsonl (the core's `logPrefix`, built in the worker).
 */

import type { LogPrefixFile } from '../../protocol/event-views.ts'
import type { LensSliceCreator } from './types.ts'

export interface ExportSlice {
  /** The seq of the event at `index` (null: none), without asking the worker when seq and index are the same. */
  seqOfIndex: (index: number | null) => Promise<number | null>
  /** The log through `index`, as a file to download. */
  logPrefix: (index: number) => Promise<LogPrefixFile>
}

export const createExportSlice: LensSliceCreator<ExportSlice> =
  ({ lens: client }) =>
  (_set, get) => ({
    seqOfIndex: async (index) => {
      const summary = get().summary
      if (summary === null || index === null || index < 0) return null
      if (summary.seqIsIndex) return index
      const [summaryOfIndex] = await client.query('summaries', { indices: [index] })
      return summaryOfIndex?.seq ?? null
    },
    logPrefix: (index) => client.query('log-prefix', { index }),
  })
