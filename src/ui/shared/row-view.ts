/**
 * Pure projections from a worker `EventSummary` to what a row shows. They only compare worker-given facts with
 * the cursor (e.g. "shadowed at index i <= cursor"); the fold itself is never re-derived here.
 */

import type { EventSummary } from '../../protocol/event-views.ts'
import { formatCount } from './format-count.ts'

export type RowTone = 'user' | 'assistant' | 'tool' | 'log' | 'chunks' | 'replacement'

export interface RowView {
  readonly tone: RowTone
  readonly label: string
  /** Seq of the replacement that shadows this entry at the cursor, or null. */
  readonly shadowedBy: number | null
  readonly flags: readonly string[]
}

/** Seq that shadowed the entry, when the shadowing happened at or before the cursor. */
export function shadowedAt(summary: EventSummary, cursor: number): number | null {
  const s = summary.surface
  if (s === null || s.shadowedAtIndex === null || s.shadowedAtIndex > cursor) return null
  return s.shadowedBySeq
}

const REPLACE_LABEL = { summary: 'compaction summary', prune: 'pruned tool result', other: 'replacement' } as const

export function rowView(summary: EventSummary, cursor: number, span: number): RowView {
  const flags: string[] = []
  if (summary.upgraded) flags.push('legacy, upgraded')
  if (summary.deriveError !== null) flags.push('derive error')
  else if (summary.surface !== null && !summary.derives) flags.push('derives no message')
  if (summary.truncated) flags.push('preview cut')
  let tone: RowTone = summary.role ?? 'log'
  let label = summary.role ?? summary.type
  if (summary.kind === 'chunk-run') {
    tone = 'chunks'
    label = `${formatCount(span)} streaming chunk${span === 1 ? '' : 's'}`
  } else if (summary.replace !== null) {
    tone = 'replacement'
    label = `${REPLACE_LABEL[summary.replace.kind]} (${summary.role ?? summary.type})`
  } else if (summary.kind === 'log-only') label = summary.type
  return { tone, label, shadowedBy: shadowedAt(summary, cursor), flags }
}

/** Text of the range a replacement stands for, e.g. "replaces #5–#9 (3 nodes)". */
export function replaceRangeText(summary: EventSummary): string | null {
  const r = summary.replace
  if (r === null) return null
  const range = r.start === r.end ? `#${r.start}` : `#${r.start}–#${r.end}`
  return `replaces ${range} (${r.shadowedCount} node${r.shadowedCount === 1 ? '' : 's'})`
}

export const TONE_TEXT: Record<RowTone, string> = {
  user: 'text-user',
  assistant: 'text-assistant',
  tool: 'text-tool',
  log: 'text-muted',
  chunks: 'text-muted',
  replacement: 'text-warn',
}
