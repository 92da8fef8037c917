/**
 * The transcript's answers: rows of either list (messages, or every event) with their summaries, summaries of given
 * events, and the panes' first window of a log as folded so far. A row's summary (event-summary.ts) knows its surface
 * node and, for a replacement, what it replaced.
 */

import type { RowList } from '../core/index.ts'
import type { EventSummary, TranscriptList, TranscriptRowRef } from '../protocol/event-views.ts'
import type { FirstWindow } from '../protocol/log-summary.ts'
import { nodeOfIndex, stateAt } from './cursor-query.ts'
import { KIND_NAMES, summarizeEvent } from './event-summary.ts'
import type { OpenLog } from './open-log.ts'

/** The summary of event `index` (`span`: the events its row stands for), or null past the log. */
export function summarize(open: OpenLog, index: number, span: number): EventSummary | null {
  const log = open.lensLog
  if (index < 0 || index >= log.length) return null
  const replacement = open.replacements.atIndex(index)
  return summarizeEvent(log, index, span, nodeOfIndex(open, index), replacement)
}

export function transcriptRows(
  open: OpenLog,
  list: TranscriptList,
  from: number,
  to: number,
): { rows: TranscriptRowRef[]; summaries: EventSummary[] } {
  const log = open.lensLog
  const rows: RowList = list === 'all' ? log.allRows : log.messageRows
  const refs: TranscriptRowRef[] = []
  const summaries: EventSummary[] = []
  for (let row = Math.max(0, from); row < Math.min(to, rows.length); row++) {
    const ref: TranscriptRowRef = {
      row,
      index: rows.index.get(row),
      kind: KIND_NAMES[rows.kind.get(row)] ?? 'log-only',
      span: rows.span.get(row),
    }
    refs.push(ref)
    const summary = summarize(open, ref.index, ref.span)
    if (summary !== null) summaries.push(summary)
  }
  return { rows: refs, summaries }
}

export function summaries(open: OpenLog, indices: readonly number[]): EventSummary[] {
  return indices.map((i) => summarize(open, i, 1)).filter((s): s is EventSummary => s !== null)
}

/** The panes' first view of the log as folded so far (FirstWindow): no row or summary beyond `rows` of each. */
export function firstWindow(open: OpenLog, rows: number): FirstWindow {
  const snapshot = stateAt(open, open.lensLog.length - 1)
  const messages = transcriptRows(open, 'messages', 0, rows)
  const all = transcriptRows(open, 'all', 0, rows)
  const byIndex = new Map<number, EventSummary>()
  for (const s of [...messages.summaries, ...all.summaries]) byIndex.set(s.index, s)
  const surface = Array.from(snapshot.surfaceIndices.subarray(0, rows)).filter((i) => !byIndex.has(i))
  for (const s of summaries(open, surface)) byIndex.set(s.index, s)
  return { snapshot, rows: { messages: messages.rows, all: all.rows }, summaries: [...byIndex.values()] }
}
