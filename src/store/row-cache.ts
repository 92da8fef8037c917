/**
 * Main-thread cache of what the panes have fetched for their visible windows: transcript row refs (per list)
 * and event summaries. Keyed by event index, which equals seq for a valid log; a broken log may repeat or
 * skip seqs, and the index is the one key that stays unique there. Summaries do not depend on the cursor; the one
 * fact in them a growing live log can change is an open lifespan (a later replace shadows the node), so those
 * entries are dropped when replacements arrive (`forgetOpenLifespans`).
 */

import type { EventSummary, TranscriptList, TranscriptRowRef } from '../protocol/event-views.ts'

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

  /**
   * Drop summaries still on the surface at the end of the log (open lifespan), and the rows that point at them so
   * their windows are fetched again: a replacement that arrived since may have shadowed them. Shadowed ones are final.
   */
  forgetOpenLifespans(): number {
    const open = new Set<number>()
    for (const [index, s] of this.summaries) if (s.surface !== null && s.surface.shadowedAtIndex === null) open.add(index)
    for (const index of open) this.summaries.delete(index)
    for (const rows of Object.values(this.rows)) for (const [row, ref] of rows) if (open.has(ref.index)) rows.delete(row)
    return open.size
  }

  /** Drop rows that may have grown since (a live log extends its last chunk run); returns how many were dropped. */
  forgetFrom(list: TranscriptList, row: number): number {
    let dropped = 0
    for (const key of this.rows[list].keys())
      if (key >= row) {
        this.rows[list].delete(key)
        dropped++
      }
    return dropped
  }
}
