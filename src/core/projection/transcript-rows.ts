/**
 * Which events a human transcript lists, and how. The transcript is the
 * append-origin log in order (reference 3.1: replacement copies are model-only).
 * Streaming chunks are never one row each: a run of them is one collapsible row.
 */

import { Int32Vector } from '../model/growable-array.ts'
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

/** A transcript row list: event index where each row starts, its kind, and how many events it spans. */
export class RowList {
  readonly index = new Int32Vector(256)
  readonly kind = new Int32Vector(256)
  readonly span = new Int32Vector(256)

  get length(): number {
    return this.index.length
  }

  add(index: number, kind: RowKind): void {
    this.index.push(index)
    this.kind.push(kind)
    this.span.push(1)
  }

  /** Grow the last row when it is a chunk run ending right before `index`. */
  extendChunkRun(index: number, size: number): boolean {
    const last = this.length - 1
    if (last < 0 || this.kind.get(last) !== RowKind.ChunkRun) return false
    if (this.index.get(last) + this.span.get(last) !== index) return false
    this.span.set(last, this.span.get(last) + size)
    return true
  }

  /** Rows that start at or before event `index`. */
  countAt(index: number): number {
    return this.index.countAtMost(index)
  }
}

/** Both transcript lists of a log, fed in log order: every row (log-only ones included), and message rows only. */
export class TranscriptRows {
  /** Every transcript row, log-only ones included. */
  readonly all = new RowList()
  /** Message rows only: what the transcript shows by default. */
  readonly messages = new RowList()

  /** One event (not a packed row) that is an object. */
  observe(event: LogEvent, index: number): void {
    const kind = rowKindOf(event)
    if (kind === RowKind.ChunkRun) {
      if (!this.all.extendChunkRun(index, 1)) this.all.add(index, RowKind.ChunkRun)
      return
    }
    this.all.add(index, kind)
    if (kind === RowKind.Message) this.messages.add(index, kind)
  }

  /** A packed row of `size` chunk deltas, the first at event `index`. */
  observeRun(index: number, size: number): void {
    if (this.all.extendChunkRun(index, size)) return
    this.all.add(index, RowKind.ChunkRun)
    this.all.span.set(this.all.length - 1, size)
  }
}
