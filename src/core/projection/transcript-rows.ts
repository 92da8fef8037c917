/**
 * Which events a human transcript lists, and how. The transcript is the
 * append-origin log in order (reference 3.1: replacement copies are model-only).
 * Streaming chunks are never one row each: a run of them is one collapsible row.
 */

import { isRecord, type LogEvent } from '../model/log-event.ts'

export const enum RowKind {
  /** An append-origin user/assistant/tool message: always listed. */
  Message = 0,
  /** A log-only event (boundaries, headers, titles, todos, compaction markers, tool calls). */
  LogOnly = 1,
  /** A run of consecutive `assistant/chunk` events. */
  ChunkRun = 2,
  /** A replacement surface event: model-only, listed as a marker where it landed. */
  Replacement = 3,
}

const MESSAGE_TYPES = new Set<unknown>(['user/message', 'assistant/message', 'tool/result'])

/** Classify one event for the transcript. */
export function rowKindOf(event: LogEvent): RowKind {
  if (event.type === 'assistant/chunk') return RowKind.ChunkRun
  if (MESSAGE_TYPES.has(event.type)) {
    if (event.surfaceOp === 'append') return RowKind.Message
    if (isRecord(event.surfaceOp)) return RowKind.Replacement
  }
  return RowKind.LogOnly
}
