/**
 * The typed protocol between the main thread and the lens worker: versioned request and response unions,
 * and the one place where an inbound message is checked (`parseRequest` / `parseResponse`).
 *
 * Trust: the log's content is untrusted, but it never travels as markup; every string here is rendered as text.
 * Messages themselves come from our own code on the other side of `postMessage`, so the parsers check the shape
 * only as far as dispatch needs (type, version, ids) and reject anything else loudly.
 */

import type { Diagnostic, LogEncoding, ReplacementKind, SessionHeader } from '../core/index.ts'
import type { ContextSeriesAnswer, ContextSeriesArgs } from './context-series-query.ts'
import type { DetailTextChunk, DetailTextField, DetailTextInfo } from './detail-text.ts'
import type { ReplaceLayout } from './replace-layout.ts'
import type { StepListAnswer, StepRequestAnswer, StepRequestJsonText, StepTarget } from './step-request-query.ts'

/** Bumped whenever a message shape changes; both sides refuse a mismatch. */
export const PROTOCOL_VERSION = 2

/** Longest text preview a row summary carries (characters); the inspector has the full JSON. */
export const PREVIEW_MAX_CHARS = 4096
/** First part of an event's JSON sent with its detail (characters); the rest comes piece by piece (`detail-text`). */
export const RAW_JSON_MAX_CHARS = 64 * 1024
/** Diagnostics shipped with a summary; the total count is always exact. */
export const DIAGNOSTICS_MAX = 5000

/** Which transcript list: message rows only, or every row (log-only events and chunk runs too). */
export type TranscriptList = 'messages' | 'all'

export type RowKindName = 'message' | 'log-only' | 'chunk-run' | 'replacement'

export interface LoadProgress {
  readonly inputBytes: number
  /** Size of the source when known (a File, or a response with Content-Length), else null. */
  readonly totalBytes: number | null
  readonly events: number
  readonly lines: number
  /** Input bytes per second since the load started. */
  readonly bytesPerSecond: number
}

export interface ReplacementInfo {
  readonly seq: number
  readonly index: number
  readonly start: number
  readonly end: number
  readonly shadowedSeqs: readonly number[]
  readonly sourceEventSeqs: readonly number[]
  readonly kind: ReplacementKind
  readonly compactionId: string | null
  /** Whether each shadowed seq is itself a replacement node (nesting), aligned with `shadowedSeqs`. */
  readonly shadowedIsReplacement: readonly boolean[]
}

/** What the main thread keeps about a loaded log: counts and marks, never the events. */
export interface LogSummary {
  readonly name: string
  readonly length: number
  /** Seq of the last event (for the timeline's `data-max`), or -1 when empty. */
  readonly lastSeq: number
  readonly header: SessionHeader | null
  readonly encoding: LogEncoding | null
  readonly strictLength: number
  readonly upgradedEvents: number
  readonly diagnostics: readonly Diagnostic[]
  readonly diagnosticCount: number
  /** The harness's first fold violation, when it would reject the log. */
  readonly firstViolation: { readonly index: number; readonly seq: unknown; readonly message: string } | null
  readonly replacements: readonly ReplacementInfo[]
  /** Graph positions for every replacement, laid out in the worker (the main thread never runs dagre). */
  readonly replaceLayout: ReplaceLayout
  /** Event indices of turn starts, surface changes (node entries) and diagnostics, each sorted. */
  readonly turnIndices: Int32Array
  readonly surfaceChangeIndices: Int32Array
  readonly diagnosticIndices: Int32Array
  /** Whether seq === index for every event (a valid log), so seqs and indices convert for free. */
  readonly seqIsIndex: boolean
  /** False while a live source is still appending. */
  readonly final: boolean
  readonly cancelled: boolean
  /** Set when the worker's decoded-bytes budget stopped the load (the events shown are the whole prefix before it). */
  readonly sizeBudget: SizeBudgetCut | null
}

/** Where the decoded-bytes budget (`DECODED_BYTES_BUDGET`, open-log.ts) stopped a load. */
export interface SizeBudgetCut {
  /** The budget, in decoded (plain-text) bytes. */
  readonly budgetBytes: number
  /** Decoded bytes of the whole lines kept (<= budgetBytes). */
  readonly keptBytes: number
  /** Where in the source it stopped (end of the last line kept; for zstd, the start of the frame it stopped in), of
   * `totalBytes` when the size is known. */
  readonly inputBytes: number
  readonly totalBytes: number | null
  /** Events kept (= `LogSummary.length`). */
  readonly events: number
}

/** The state as of one cursor: small, so a drag can ask for it every frame. */
export interface CursorSnapshot {
  readonly index: number
  readonly seq: number
  /** Transcript rows at the cursor: message rows only, and every row (log-only shown). */
  readonly messageRowCount: number
  readonly allRowCount: number
  readonly messageCount: number
  /** Surface nodes at the cursor in model order: seq, event index where it entered. */
  readonly surfaceSeqs: Float64Array
  readonly surfaceIndices: Int32Array
  /** Replacements folded at or before the cursor (a prefix of `LogSummary.replacements`). */
  readonly replacementCount: number
}

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
}

/** A full-text search (src/core/search): the query and its filters (`null` / empty: no filter). */
export interface SearchSpec {
  readonly text: string
  readonly regex: boolean
  readonly types: readonly string[]
  readonly turn: number | null
  readonly step: number | null
  readonly surfaceOnly: boolean
}

export interface SearchMatchRow {
  readonly index: number
  readonly seq: number | null
  readonly type: string
  /** JSON path of the matching string in the event (`data.message.content[0].text`). */
  readonly path: string
  readonly snippet: string
  /** [start, end) of the match in `snippet`. */
  readonly highlight: readonly [number, number]
}

/** One slice of a running search. The main thread asks for the next (`search-more`) until `done`. */
export interface SearchBatch {
  readonly searchId: number
  /** This search is no longer the worker's current one (a newer query replaced it): drop the answer. */
  readonly superseded: boolean
  /** The log was replaced since the last slice: discard what is held, the search restarted on the new log. */
  readonly restarted: boolean
  /** The query does not compile (an invalid or unsafe regex), in one line; nothing else is set. */
  readonly error: string | null
  /** Matches new in this slice (none once `SEARCH_ROWS_MAX` were sent: `total` keeps counting). */
  readonly matches: readonly SearchMatchRow[]
  readonly total: number
  /** Events scanned so far, of `length`. */
  readonly scanned: number
  readonly length: number
  /** Every record stored so far was scanned; a live log that grows is searched on by the next `search-more`. */
  readonly done: boolean
  /** Event-index ranges (inclusive) during which a matching event was on the model surface, merged; capped. */
  readonly visible: readonly { readonly from: number; readonly to: number }[]
  /** Events regex mode did not read in full. */
  readonly cutEvents: number
}

/** Result rows a search sends at most (the main thread holds no more); the count stays exact. */
export const SEARCH_ROWS_MAX = 5000
/** Visible ranges sent at most per slice. */
export const SEARCH_VISIBLE_MAX = 2000

type Envelope = { readonly v: typeof PROTOCOL_VERSION }
type Query = Envelope & { readonly id: number }

/** Main thread -> worker. Load messages carry a `loadId` so stale chunks of a replaced load are dropped. */
export type LensRequest =
  | (Envelope & { readonly type: 'load-file'; readonly loadId: number; readonly file: File })
  | (Envelope & {
      readonly type: 'load-begin'
      readonly loadId: number
      readonly name: string
      readonly totalBytes: number | null
      readonly live: boolean
    })
  | (Envelope & {
      /** Fetch `url` (absolute, same origin) in the worker and fold its body as it streams (`?log=`, the demo).
       * `label` is the URL as the user gave it, for messages; `name` the file name shown. */
      readonly type: 'load-url'
      readonly loadId: number
      readonly url: string
      readonly label: string
      readonly name: string
    })
  | (Envelope & { readonly type: 'load-chunk'; readonly loadId: number; readonly bytes: ArrayBuffer })
  | (Envelope & { readonly type: 'load-end'; readonly loadId: number })
  | (Envelope & { readonly type: 'cancel'; readonly loadId: number })
  | (Query & { readonly type: 'state-at'; readonly index: number })
  | (Query & { readonly type: 'transcript-rows'; readonly list: TranscriptList; readonly from: number; readonly to: number })
  | (Query & { readonly type: 'summaries'; readonly indices: readonly number[] })
  | (Query & { readonly type: 'detail'; readonly index: number; readonly cursor: number })
  | (Query & { readonly type: 'index-of-seq'; readonly seq: number })
  | (Query & { readonly type: 'search'; readonly searchId: number; readonly spec: SearchSpec })
  | (Query & { readonly type: 'search-more'; readonly searchId: number })
  | (Query & { readonly type: 'log-prefix'; readonly index: number })
  | (Query & {
      readonly type: 'detail-text'
      readonly index: number
      readonly field: DetailTextField
      readonly offset: number
      readonly length: number
    })
  | (Query & { readonly type: 'detail-blob'; readonly index: number; readonly field: DetailTextField })
  | (Query & { readonly type: 'step-request'; readonly target: StepTarget; readonly have: string | null })
  | (Query & { readonly type: 'step-list' })
  | (Query & { readonly type: 'step-request-json'; readonly turn: number; readonly step: number })
  | (Query & { readonly type: 'context-series' } & ContextSeriesArgs)

export type QueryRequest = Extract<LensRequest, { id: number }>

export interface QueryResults {
  'state-at': CursorSnapshot
  'transcript-rows': { readonly rows: readonly TranscriptRowRef[]; readonly summaries: readonly EventSummary[] }
  summaries: readonly EventSummary[]
  detail: EventDetail | null
  'index-of-seq': number
  search: SearchBatch
  'search-more': SearchBatch
  'log-prefix': LogPrefixFile
  'detail-text': DetailTextChunk | null
  /** The whole text as a UTF-8 Blob (copy and save without the main thread ever holding the string). */
  'detail-blob': Blob | null
  'step-request': StepRequestAnswer
  'step-list': StepListAnswer
  'step-request-json': StepRequestJsonText
  'context-series': ContextSeriesAnswer
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

/**
 * What the panes show first, sent with a load's first summary so they need no round trip to the worker (which is
 * busy folding the rest): the cursor state at that summary's last event (where the cursor goes), the first rows of
 * both transcript lists, and the summaries of those rows and of the first surface nodes.
 */
export interface FirstWindow {
  readonly snapshot: CursorSnapshot
  readonly rows: { readonly [L in TranscriptList]: readonly TranscriptRowRef[] }
  readonly summaries: readonly EventSummary[]
}

/** Worker -> main thread. */
export type LensResponse =
  | (Envelope & { readonly type: 'progress'; readonly loadId: number; readonly progress: LoadProgress })
  | (Envelope & {
      readonly type: 'summary'
      readonly loadId: number
      readonly summary: LogSummary
      /** On the wire only (summary-delta.ts): `summary.replacements` holds the replacements from this index on, those
       * before it are the previous summary's of the same load. The client restores the whole list before its listeners. */
      readonly replacementsFrom?: number
      /** On a load's first summary only. */
      readonly firstWindow?: FirstWindow
    })
  | (Envelope & {
      readonly type: 'load-failed'
      readonly loadId: number
      readonly message: string
      readonly summary: LogSummary | null
    })
  | (Envelope & { readonly type: 'reply'; readonly id: number; readonly ok: true; readonly result: unknown })
  | (Envelope & { readonly type: 'reply'; readonly id: number; readonly ok: false; readonly message: string })

const REQUEST_TYPES = new Set([
  'load-file',
  'load-begin',
  'load-url',
  'load-chunk',
  'load-end',
  'cancel',
  'state-at',
  'transcript-rows',
  'summaries',
  'detail',
  'index-of-seq',
  'log-prefix',
  'detail-text',
  'detail-blob',
  'step-request',
  'step-list',
  'step-request-json',
  'context-series',
  'search',
  'search-more',
])
const RESPONSE_TYPES = new Set(['progress', 'summary', 'load-failed', 'reply'])

function envelopeType(data: unknown, known: Set<string>, side: string): string {
  if (typeof data !== 'object' || data === null) throw new Error(`${side}: message is not an object`)
  const { v, type } = data as { v?: unknown; type?: unknown }
  if (v !== PROTOCOL_VERSION) throw new Error(`${side}: protocol version ${String(v)}, expected ${PROTOCOL_VERSION}`)
  if (typeof type !== 'string' || !known.has(type)) throw new Error(`${side}: unknown message type ${String(type)}`)
  return type
}

/** Check an inbound worker message once, at the boundary. Throws on anything that is not a request. */
export function parseRequest(data: unknown): LensRequest {
  envelopeType(data, REQUEST_TYPES, 'lens worker')
  const id = (data as { id?: unknown }).id
  const type = (data as { type: string }).type
  if (!type.startsWith('load') && type !== 'cancel' && typeof id !== 'number')
    throw new Error(`lens worker: ${type} without an id`)
  return data as LensRequest
}

/** Check an inbound main-thread message once, at the boundary. */
export function parseResponse(data: unknown): LensResponse {
  envelopeType(data, RESPONSE_TYPES, 'lens client')
  return data as LensResponse
}
