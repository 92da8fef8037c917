/**
 * The pure core of dsh-lens: decoding and folding of DeepSeek Harness session
 * logs. No DOM, no `node:` imports: the worker, the CLI, the server and the tests
 * all import it from here.
 */

export * from './model/log-event.ts'
export * from './model/diagnostic.ts'
export { countAtMost, countBelow } from './model/sorted-search.ts'
export * as harnessMessages from './model/harness-messages.ts'
export {
  SessionDecoder,
  type BudgetCut,
  type DecodedRecord,
  type DecoderSink,
  type DecoderProgress,
} from './decode/session-decoder.ts'
export { concatBytes } from './decode/concat-bytes.ts'
export { LineSplitter, type SplitLine } from './decode/line-splitter.ts'
export { ZstdContainer, hasZstdMagic, type ContentChecksum, type FrameDecompressor } from './decode/zstd-container.ts'
export { notALog, notALogDecided, notALogMessage, NOT_A_LOG_SNIFF_BYTES, ZIP_ARCHIVE } from './decode/not-a-log.ts'
export { loadContentChecksum } from './decode/xxh64.ts'
export { libzstdFrameDecompressor } from './decode/zstd-wasm.ts'
export { zstdFirstLine, type FirstLine } from './decode/zstd-first-line.ts'
export { validatePackedRow, expandPackedRow, expandPackedMember, packedRowSize, isPackedRowTag } from './decode/packed-rows.ts'
export { judgeHeaderLine } from './decode/session-header.ts'
export { cutPackedRow } from './decode/packed-row-cut.ts'
export { planSurfaceEvent, isSurfaceEligibleType, isDeepEqualJson } from './fold/surface-checks.ts'
export { SurfaceFold, type FoldViolation } from './fold/surface-fold.ts'
export { SurfaceTimeline, type Replacement } from './fold/surface-timeline.ts'
export { deriveEventMessage, DeriveOutcome } from './fold/derive-message.ts'
export { LegacyUpgrader, unsupportedLegacyEvent } from './load/legacy-upgrade.ts'
export { loadDefect, envelopeDefect, messageShapeDefect } from './load/load-rules.ts'
export { KNOWN_SESSION_EVENT_TYPES } from './load/known-event-types.ts'
export { RowKind, RowList, rowKindOf } from './projection/transcript-rows.ts'
export {
  CompactionIndex,
  type CompactionGroup,
  type ReplacementLink,
  type ReplacementKind,
} from './projection/compaction-links.ts'
export { TurnStructure, type TurnSpan, type StepSpan } from './projection/turn-structure.ts'
export { RepairTracker, type WouldSynthesize } from './projection/repair-closers.ts'
export { LensLog, type LensLogOptions } from './log/lens-log.ts'
export { LOG_INDEXES, TRANSCRIPT_INDEXES, type LogIndex } from './log/log-indexes.ts'
export { InvariantChecker, INVARIANT_CODES, type InvariantCode, type InvariantFinding } from './invariants/index.ts'
export { logPrefix, type LogPrefix } from './export/log-prefix.ts'
export * from './lineage/index.ts'
export {
  LogSearch,
  compileMatcher,
  MAX_MATCHES_PER_EVENT,
  type SearchFilters,
  type SearchMatch,
  type IndexRange,
} from './search/index.ts'
export * from './request/index.ts'
export * from './forgot/index.ts'
export * from './timing/index.ts'
export * from './secrets/index.ts'
export * from './redact/index.ts'
export * from './export/offline-bundle.ts'
export { sessionTitle } from './export/session-title.ts'
export * from './compare/index.ts'
export * from './cost/index.ts'
export * from './content/index.ts'
