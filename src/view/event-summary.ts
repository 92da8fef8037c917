/**
 * One event as a compact, cursor-independent row summary: kind, role, text preview (a few KB at most), flags, and
 * the surface facts the core recorded for its node. The panes render these; the inspector gets the full JSON.
 */

import {
  DeriveOutcome,
  RowKind,
  deriveEventMessage,
  eventTypeLabel,
  isRecord,
  rowKindOf,
  type LensLog,
  type LogEvent,
} from '../core/index.ts'
import { chunkText, describeLogOnly, previewMessage } from './message-text.ts'
import { PREVIEW_MAX_CHARS, type EventSummary, type RowKindName } from '../protocol/event-views.ts'
import type { ReplacementInfo } from '../protocol/log-summary.ts'
import { safeStringify } from './safe-json.ts'

/** Chunk-run previews read at most this many members. */
const CHUNK_PREVIEW_MEMBERS = 2000

export const KIND_NAMES: Record<number, RowKindName> = {
  [RowKind.Message]: 'message',
  [RowKind.LogOnly]: 'log-only',
  [RowKind.ChunkRun]: 'chunk-run',
  [RowKind.Replacement]: 'replacement',
}

const ROLE_OF: Record<string, EventSummary['role']> = {
  'user/message': 'user',
  'assistant/message': 'assistant',
  'tool/result': 'tool',
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text
}

/**
 * @param node the surface node event `index` entered as, or -1
 * @param replacement the replace operation event `index` performed, if any
 */
export function summarizeEvent(
  log: LensLog,
  index: number,
  span: number,
  node: number,
  replacement: ReplacementInfo | undefined,
): EventSummary {
  const event = log.event(index)
  const seqValue = log.seqOf(index)
  const seq = typeof seqValue === 'number' ? seqValue : null
  const packed = log.isPacked(index)
  const base = { index, seq, line: log.lineOf(index), upgraded: log.isUpgraded(index), packed, span }
  if (!isRecord(event)) {
    const text = clip(safeStringify(event) ?? String(event), PREVIEW_MAX_CHARS)
    return {
      ...base,
      type: '(not an object)',
      kind: 'log-only',
      role: null,
      text,
      reasoning: '',
      toolCalls: [],
      truncated: false,
      replace: null,
      surface: null,
      derives: false,
      deriveError: null,
    }
  }
  const type = eventTypeLabel(event.type)
  const kind = KIND_NAMES[rowKindOf(event)] ?? 'log-only'
  const timeline = log.fold.timeline
  let surface: EventSummary['surface'] = null
  if (node !== -1) {
    const by = timeline.shadowedBy(node)
    surface = {
      enteredIndex: index,
      shadowedBySeq: by === -1 ? null : timeline.seqOf(by),
      shadowedAtIndex: by === -1 ? null : timeline.indexOf(by),
    }
  }
  const r = replacement
  const replace = r === undefined ? null : { start: r.start, end: r.end, kind: r.kind, shadowedCount: r.shadowedSeqs.length }
  const common = {
    ...base,
    type,
    kind,
    surface,
    replace,
    derives: node !== -1 && log.nodeDerives(node) === DeriveOutcome.Message,
    deriveError: node === -1 ? null : (log.nodeDeriveError(node) ?? null),
  }
  const role = ROLE_OF[type] ?? null
  if (role !== null) {
    let message: unknown
    try {
      message = deriveEventMessage(event)
    } catch {
      message = type === 'assistant/message' && isRecord(event.data) ? event.data : undefined
    }
    // An empty max-tokens assistant message derives nothing; preview its data's own content then.
    if (message === null && isRecord(event.data)) message = event.data['message']
    const preview = previewMessage(message)
    return { ...common, role, ...preview }
  }
  if (kind === 'chunk-run') return { ...common, role: null, ...chunkPreview(log, index, span) }
  return { ...common, role: null, text: describeLogOnly(event as LogEvent), reasoning: '', toolCalls: [], truncated: false }
}

function chunkPreview(
  log: LensLog,
  index: number,
  span: number,
): { text: string; reasoning: string; toolCalls: []; truncated: boolean } {
  let text = ''
  const members = Math.min(span, CHUNK_PREVIEW_MEMBERS)
  for (let k = 0; k < members && text.length < PREVIEW_MAX_CHARS; k++) text += chunkText(log.event(index + k))
  const truncated = text.length > PREVIEW_MAX_CHARS || members < span
  return { text: text.slice(0, PREVIEW_MAX_CHARS), reasoning: '', toolCalls: [], truncated }
}
