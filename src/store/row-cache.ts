/**
 * Main-thread cache of what the panes have fetched for their visible windows: transcript row refs (per list)
 * and event summaries. Keyed by event index, which equals seq for a valid log; a broken log may repeat or
 * skip seqs, and the index is the one key that stays unique there. Summaries do not depend on the cursor,
 * so an entry never goes stale until the next load clears the cache.
 */

import type { EventSummary, TranscriptList, TranscriptRowRef } from '../worker/protocol.ts'

export class RowCache {
  private readonly rows: Record<TranscriptList, Map<number, TranscriptRowRef>> = { messages: new Map(), all: new Map() }
  private readonly summaries = new Map<number, EventSummary>()

  row(list: TranscriptList, row: number): TranscriptRowRef | undefined {
    return this.rows[list].get(row)
  }

  summary(index: number): EventSummary | undefined {
    return this.summaries.get(index)
  }

  hasRow(list: TranscriptList, row: number): boolean {
    return this.rows[list].has(row)
  }

  hasSummary(index: number): boolean {
    return this.summaries.has(index)
  }

  addRows(list: TranscriptList, rows: readonly TranscriptRowRef[]): void {
    for (const ref of rows) this.rows[list].set(ref.row, ref)
  }

  addSummaries(summaries: readonly EventSummary[]): void {
    for (const s of summaries) this.summaries.set(s.index, s)
  }

  clear(): void {
    this.rows.messages.clear()
    this.rows.all.clear()
    this.summaries.clear()
  }

  /** Drop rows that may have grown since (a live log extends its last chunk run). */
  forgetFrom(list: TranscriptList, row: number): void {
    for (const key of this.rows[list].keys()) if (key >= row) this.rows[list].delete(key)
  }
}
