/**
 * One event as the panes see it: a row summary (cursor-independent, cached on the main thread), a transcript row,
 * the inspector's detail and its long texts in pieces, and a log prefix saved through a cursor.
 *
 * Trust: the log's content is untrusted, but it never travels as markup; every string here is rendered as text.
 */

import type { Diagnostic, ReplacementKind, SpanSteps } from '../core/index.ts'
import type { HiddenCounts } from '../core/text/hidden-chars.ts'
import type { ReplacementInfo } from './log-summary.ts'

/** Longest text preview a row summary carries (characters); the inspector has the full JSON. */
export const PREVIEW_MAX_CHARS = 4096

/** First part of an event's JSON sent with its detail (characters); the rest comes piece by piece (`detail-text`). */
export const RAW_JSON_MAX_CHARS = 64 * 1024

/** Which transcript list: message rows only, or every row (log-only events and chunk runs too). */
export type TranscriptList = 'messages' | 'all'

export type RowKindName = 'message' | 'log-only' | 'chunk-run' | 'replacement'

export interface ToolCallPreview {
  readonly name: string
  readonly args: string
}

/** A compact, cursor-independent view of one event, cached on the main thread by event index. */
export interface EventSummary {
  readonly index: number
  readonly seq: number | null
  readonly line: number
  readonly type: string
  readonly kind: RowKindName
  /** Role of the derived message (user / assistant / tool), or null for a log-only event. */
  readonly role: 'user' | 'assistant' | 'tool' | null
  readonly text: string
  readonly reasoning: string
  readonly toolCalls: readonly ToolCallPreview[]
  readonly truncated: boolean
  readonly upgraded: boolean
  readonly packed: boolean
  /** Events this row stands for (a chunk run spans many). */
  readonly span: number
  /** Set for a replacement event: the declared range and how it is linked. */
  readonly replace: {
    readonly start: number
    readonly end: number
    readonly kind: ReplacementKind
    readonly shadowedCount: number
  } | null
  /** Surface facts: index where the node entered, the seq/index of the node that shadowed it (or null). */
  readonly surface: {
    readonly enteredIndex: number
    readonly shadowedBySeq: number | null
    readonly shadowedAtIndex: number | null
  } | null
  /** Whether the node derives a model message (false: e.g. an empty max-tokens assistant message). */
  readonly derives: boolean
  readonly deriveError: string | null
}

export interface TranscriptRowRef {
  readonly row: number
  readonly index: number
  readonly kind: RowKindName
  readonly span: number
}

/** Everything the inspector shows for one event, as of a cursor. */
export interface EventDetail {
  readonly summary: EventSummary
  /** The first `RAW_JSON_MAX_CHARS` of the event's JSON (of `rawJsonInfo.total`), cut between code points. */
  readonly rawJson: string
  readonly onDiskJson: string | null
  readonly rawJsonInfo: DetailTextInfo
  readonly onDiskJsonInfo: DetailTextInfo | null
  readonly surfaceOp: string | null
  readonly sourceEventSeqs: readonly number[]
  readonly enteredSeq: number | null
  readonly shadowedAtSeq: number | null
  /** Surface node (seq) covering this event at the cursor: itself, or the replacement that swallowed it. */
  readonly surfaceCounterpart: number | null
  /** Transcript seqs this event stands for at the cursor (itself, or what a replacement covers). Capped. */
  readonly transcriptCounterparts: readonly number[]
  /** Transcript row positions (per list) of the first transcript counterpart, for scrolling it into view. */
  readonly counterpartRows: { readonly messages: number; readonly all: number } | null
  readonly replacement: ReplacementInfo | null
  readonly diagnostics: readonly Diagnostic[]
  /** When it was on the model surface (entry through the event before its replacement, or the end), with the steps
   * whose request carried it; null when it never was. */
  readonly lifespanSteps: SpanSteps | null
}

/** Which of an event's texts: the event as read (upgraded when legacy) or the record as on disk. */
export type DetailTextField = 'raw' | 'disk'

/** What the inspector knows about a whole text: its length (UTF-16 units, as `data-total`) and hidden characters. */
export interface DetailTextInfo {
  readonly total: number
  readonly hidden: HiddenCounts
}

/** One piece `[offset, end)` of a text; `end` never splits a surrogate pair. */
export interface DetailTextChunk extends DetailTextInfo {
  readonly offset: number
  readonly end: number
  readonly text: string
}

/** The log prefix through a cursor as a new plain session.jsonl (`logPrefix` of the core), built in the worker. */
export interface LogPrefixFile {
  readonly blob: Blob
  /** Seq of the last event in it (the cursor's), and how many events it holds. */
  readonly seq: number
  readonly events: number
  /** 1 when a packed row straddled the cut and was re-encoded shorter. */
  readonly cutRows: number
}
