/** Shapes the generator produces: events and packed rows exactly as the harness writes them, grouped in batches. */

import type { PackedRow } from '../core/model/log-event.ts'

/** The session header, with the harness's key order preserved by construction. */
export interface GeneratedHeader {
  readonly type: 'session'
  readonly version: 0
  readonly id: string
  readonly createdAt: number
  readonly cwd?: string
  /** A subagent child's parent session id (with origin 'subagent' and delegationDepth >= 1). */
  readonly parentSession?: string
  readonly origin?: 'subagent'
  readonly delegationDepth: number
}

export type GeneratedSurfaceOp = 'append' | { readonly op: 'replace'; readonly start: number; readonly end: number }

/** One event; keys in the order `Session.append` writes them: type, seq, time, data, sourceEventSeqs?, surfaceOp?. */
export interface GeneratedEvent {
  readonly type: string
  readonly seq: number
  readonly time: number
  readonly data: unknown
  readonly sourceEventSeqs?: readonly number[]
  readonly surfaceOp?: GeneratedSurfaceOp
}

/** A packed chunk row: storage-only, stands for `texts.length` (or `args.length`) consecutive chunk events. */
export type GeneratedPackedRow = PackedRow

/** One line of the log body. */
export type GeneratedRecord = GeneratedEvent | GeneratedPackedRow

/** One durable append (one zstd frame): never empty, never split across frames. */
export type GeneratedBatch = readonly GeneratedRecord[]

export interface GeneratedSession {
  readonly header: GeneratedHeader
  readonly batches: readonly GeneratedBatch[]
  /** Logical event count (packed members counted one by one). */
  readonly eventCount: number
}

/** A `tool/result` event's data as both generators write it. */
export interface ToolResultData {
  readonly turn: number
  readonly step: number
  readonly message: {
    readonly id: string
    readonly role: 'user'
    readonly content: readonly [
      { readonly type: 'tool-result'; readonly toolCallId: string; readonly content: unknown; readonly isError: boolean },
    ]
    readonly source: { readonly kind: 'tool'; readonly callId: string }
  }
}
