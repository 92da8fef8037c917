/**
 * What the main thread keeps about the open log: its summary (counts and marks, never the events), the load's
 * progress, the replacements, and the cursor's state. Shapes are the core's where the core has one.
 */

import type {
  BudgetCut,
  DecoderProgress,
  Diagnostic,
  FoldViolation,
  LogEncoding,
  Replacement,
  ReplacementLink,
  SessionHeader,
} from '../core/index.ts'
import type { EventSummary, TranscriptList, TranscriptRowRef } from './event-views.ts'
import type { ReplaceLayout } from './replace-layout.ts'

/** Diagnostics shipped with a summary; the total count is always exact. */
export const DIAGNOSTICS_MAX = 5000

/** The core's decoder progress (`inputBytes`, `lines`) as the page shows it. */
export interface LoadProgress extends Pick<DecoderProgress, 'inputBytes' | 'lines'> {
  /** Size of the source when known (a File, or a response with Content-Length), else null. */
  readonly totalBytes: number | null
  readonly events: number
  /** Input bytes per second since the load started. */
  readonly bytesPerSecond: number
}

/** The core's `Replacement` with how it is linked (`ReplacementLink`) and which of its shadowed nodes nest. */
export interface ReplacementInfo extends Replacement {
  readonly kind: ReplacementLink['kind']
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
  readonly firstViolation: Pick<FoldViolation, 'index' | 'seq' | 'message'> | null
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
  /** A dropped or picked file's SHA-256 (64 hex digits), in the final summary once the whole file was read. */
  readonly sourceSha256: string | null
}

/**
 * Where the decoded-bytes budget (`DECODED_BYTES_BUDGET`, view/open-log.ts) stopped a load: the core's `BudgetCut`
 * (the budget and the decoded bytes of the whole lines kept, in plain-text bytes) with the source's size.
 */
export interface SizeBudgetCut extends Pick<BudgetCut, 'budgetBytes' | 'keptBytes'> {
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

/**
 * seq -> event index where the summary can tell: in a valid log (`seqIsIndex`) a seq inside it is its own index, any
 * other seq is no event (-1). `null`: the summary cannot tell, ask the worker (`index-of-seq`), which answers a valid
 * log with this same function. The one bounds rule for the page and the worker.
 */
export function indexOfSeqInSummary(summary: Pick<LogSummary, 'seqIsIndex' | 'length'>, seq: number): number | null {
  if (!summary.seqIsIndex) return null
  return Number.isInteger(seq) && seq >= 0 && seq < summary.length ? seq : -1
}
