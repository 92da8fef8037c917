/**
 * One session log, decoded, checked and folded as it streams in: the model that
 * the worker, the CLI, the companion server and the tests share. Records are
 * kept as text positions (RecordStore) and parsed again on demand. A packed chunk
 * row stands for its whole seq range; a member becomes an event object only when
 * asked for. Events are addressed by *index*, their position in the decoded list;
 * for a valid log index === seq.
 *
 * Reading a log always checks and folds it: the load rules, legacy upgrades, the fold, the provider invariants and
 * the repair closers, which every reader's answer starts from (`fold --json` prints them). Everything else is an
 * index a reader may never ask for (the transcript rows, compaction links, turns, step times, request shapes, state
 * events): a reader names the ones it needs at once (`LensLogOptions.keep`) and they are kept current as the log is
 * read; any other is built from the stored records the first time it is asked for, then kept current as the log
 * grows (`log-indexes.ts`). So nobody pays at load for an answer they do not ask for.
 */

import { SessionDecoder, type BudgetCut, type DecodedRecord, type DecoderProgress } from '../decode/session-decoder.ts'
import { expandPackedMember, packedRowSize } from '../decode/packed-rows.ts'
import type { ContentChecksum, FrameDecompressor } from '../decode/zstd-container.ts'
import { DeriveOutcome, deriveOutcome } from '../fold/derive-message.ts'
import { SurfaceFold } from '../fold/surface-fold.ts'
import type { Replacement } from '../fold/surface-timeline.ts'
import { InvariantChecker } from '../invariants/invariant-checker.ts'
import { textMayHoldSurrogate } from '../invariants/lone-surrogate.ts'
import { LegacyUpgrader, unsupportedLegacyEvent } from '../load/legacy-upgrade.ts'
import { loadDefect } from '../load/load-rules.ts'
import type { Diagnostic } from '../model/diagnostic.ts'
import { Int32Vector } from '../model/growable-array.ts'
import {
  eventTypeLabel,
  isRecord,
  type LogEncoding,
  type LogEvent,
  type PackedRow,
  type SessionHeader,
} from '../model/log-event.ts'
import type { CompactionIndex, ReplacementLink } from '../projection/compaction-links.ts'
import type { RowList } from '../projection/transcript-rows.ts'
import type { TurnStructure } from '../projection/turn-structure.ts'
import { RepairTracker, type WouldSynthesize } from '../projection/repair-closers.ts'
import type { NodeWireShapes } from '../request/node-wire-shapes.ts'
import type { StepTimesTracker } from '../timing/step-times.ts'
import { LogIndexes, type IndexSource, type LogIndex } from './log-indexes.ts'
import { RecordStore, type RecordTextView } from './record-store.ts'
import { NOT_AN_OBJECT, RecordTypes } from './record-types.ts'

export interface LensLogOptions {
  /** zstd content checksum (see `loadContentChecksum`); frames are not verified without it. */
  readonly checksum?: ContentChecksum
  /** Apply the harness's in-memory legacy upgrades (default true, as the harness's reader does). */
  readonly upgradeLegacy?: boolean
  /** Longest line read, in bytes (default: the decoder's MAX_LINE_BYTES); tests lower it. */
  readonly maxLineBytes?: number
  /** Decodes each complete zstd frame (default libzstd, fzstd where it cannot answer exactly); tests hand in fzstd. */
  readonly decompressFrame?: FrameDecompressor
  /** Most decoded (plain-text) bytes read; past it the log keeps the whole lines before and reads no more, with a
   * `size-budget` warning at the last event kept (`budgetCut`). Default: no limit (the CLI); the viewer sets one. */
  readonly plainBytesBudget?: number
  /** The indexes kept current while the log is read (default none); any other is built when first asked for. */
  readonly keep?: readonly LogIndex[]
}

/**
 * The only types the legacy pass can change or refuse (reference 1.7); every other
 * event skips it. (The pass keeps message ids only for message types, and those are here.)
 */
export const MAYBE_LEGACY = new Set<unknown>([
  'turn/start',
  'turn/end',
  'steering/message',
  'user/message',
  'assistant/message',
  'tool/result',
  'request/header-delta',
  'mode/set',
  'request/header',
])

/** A tool result with everything check 18 ignores removed (blocks after the first, the first's payload). */
export function rewriteBase(event: LogEvent): LogEvent | undefined {
  const data = event.data
  if (!isRecord(data) || !isRecord(data['message'])) return undefined
  const message = data['message']
  const content = message['content']
  if (!Array.isArray(content) || !isRecord(content[0])) return undefined
  return {
    type: event.type,
    seq: event.seq,
    time: event.time,
    data: { ...data, message: { ...message, content: [{ ...content[0], content: null }] } },
  }
}

function describeCloser(c: WouldSynthesize): string {
  if (c.type === 'tool/result') return `tool/result ${c.code ?? ''} for call ${c.callId ?? ''} (seq ${c.seq})`
  return c.type === 'turn/end' ? `turn/end {interrupted} (seq ${c.seq})` : `step/end (seq ${c.seq})`
}

export class LensLog {
  header: SessionHeader | null = null
  readonly diagnostics: Diagnostic[] = []
  readonly fold: SurfaceFold
  upgradedEvents = 0
  /** What the harness would append on its next open if the log ends inside a turn. */
  readonly repair = new RepairTracker()

  private readonly decoder: SessionDecoder
  private readonly records = new RecordStore()
  /** Records the reader upgrades from a legacy shape: record index -> the upgraded event. */
  private readonly upgraded = new Map<number, LogEvent>()
  private readonly nodeDerive = new Int32Vector(256)
  /** Each record's event type (as read, before any legacy upgrade). */
  private readonly types = new RecordTypes()
  private readonly chunkCode = this.types.codeOf('assistant/chunk')
  /** The indexes only some readers ask for: kept current, or built when first asked (log-indexes.ts). */
  private readonly indexes: LogIndexes
  private readonly deriveErrors = new Map<number, string>()
  private upgrader: LegacyUpgrader | undefined
  /**
   * For tool results on the surface: the event with its result payload nulled, all a
   * later rewrite check reads (check 18). Kept so a prune never re-parses a
   * multi-megabyte original. Absent when the data is malformed: then the check
   * re-parses the original and fails exactly as the harness does.
   */
  private readonly rewriteBases = new Map<number, LogEvent>()
  private eventCount = 0
  /** The first event whose seq is not its index, or -1: kept at ingest so asking never re-parses the log. */
  private seqNotIndexAt = -1
  private lastViolationCount = 0
  private readonly upgradeLegacy: boolean
  /** Provider invariants the fold does not enforce: warnings only, never fed back into the fold. */
  private readonly invariants = new InvariantChecker((f) =>
    this.diagnostics.push({
      severity: 'warning',
      code: f.code,
      line: this.lineOf(f.index),
      seq: f.seq,
      index: f.index,
      message: f.message,
      detail: f.detail,
    }),
  )

  constructor(options: LensLogOptions = {}) {
    this.upgradeLegacy = options.upgradeLegacy ?? true
    this.fold = new SurfaceFold((index) => this.rewriteBases.get(index) ?? this.event(index))
    this.indexes = new LogIndexes(this.indexSource(), options.keep ?? [])
    this.decoder = new SessionDecoder(
      {
        header: (header) => {
          this.header = header
        },
        record: (record) => this.ingest(record),
        diagnostic: (d) => this.diagnostics.push(d),
        budgetReached: (cut) => this.diagnoseBudget(cut),
      },
      {
        ...(options.checksum === undefined ? {} : { checksum: options.checksum }),
        ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
        ...(options.decompressFrame === undefined ? {} : { decompressFrame: options.decompressFrame }),
        ...(options.plainBytesBudget === undefined ? {} : { plainBytesBudget: options.plainBytesBudget }),
      },
    )
  }

  /** Whether index `which` is built (kept from the start, or asked for since): nothing asks for one by looking. */
  holds(which: LogIndex): boolean {
    return this.indexes.holds(which)
  }

  /** Every transcript row, log-only ones included (index `transcript`). */
  get allRows(): RowList {
    return this.indexes.transcript.all
  }

  /** Message rows only: what the transcript shows by default (index `transcript`). */
  get messageRows(): RowList {
    return this.indexes.transcript.messages
  }

  /** Compaction groups by id (index `compactions`). */
  get compactions(): CompactionIndex {
    return this.indexes.compactions
  }

  /** Aligned with `fold.timeline.replacements` (index `compactions`). */
  get replacementLinks(): ReplacementLink[] {
    return this.indexes.replacementLinks
  }

  /** Turns and their steps, with where each starts and ends (index `turns`). */
  get turns(): TurnStructure {
    return this.indexes.turns
  }

  /** Event indices of `request/header` events, in log order: the request view finds the header in force by binary
   * search (index `requests`). */
  get requestHeaders(): Int32Vector {
    return this.indexes.requestHeaders
  }

  /** Per surface node, what a provider sees of its message (tool calls, results, lone surrogates): request rules
   * (index `requests`). */
  get wireShapes(): NodeWireShapes {
    return this.indexes.wireShapes
  }

  /** Event indices of `todo/write` and `goal/change`: the todo list and goal in force, what a compaction may forget
   * (index `state`). */
  get stateEvents(): Int32Vector {
    return this.indexes.stateEvents
  }

  /** Each step's times as they were logged; src/core/timing reads them (index `timing`). */
  get timing(): StepTimesTracker {
    return this.indexes.timing
  }

  /** Events per type as read (before any legacy upgrade); a packed row counts its members as `assistant/chunk`. */
  get typeCounts(): Map<string, number> {
    const counts = new Map<string, number>()
    const records = this.records
    for (let r = 0; r < records.length; r++) {
      const label = this.types.label(this.types.at(r))
      const n = records.isRow(r) ? this.membersOf(r) : 1
      counts.set(label, (counts.get(label) ?? 0) + n)
    }
    return counts
  }

  /** Feed the next bytes of the file or stream. */
  push(bytes: Uint8Array): void {
    this.decoder.push(bytes)
  }

  /** End of input: flush a torn tail and close the verdicts. */
  finish(): void {
    this.decoder.finish()
    this.invariants.finish()
    const closers = this.wouldSynthesize()
    // A log cut by the budget does not end here: what the harness would append is unknown.
    if (closers.length > 0 && this.budgetCut === null) {
      const last = this.length - 1
      this.diagnostics.push({
        severity: 'warning',
        code: 'open-turn',
        line: this.length > 0 ? this.lineOf(last) : null,
        seq: typeof this.seqOf(last) === 'number' ? (this.seqOf(last) as number) : null,
        message: `the log ends inside a turn: on its next open the harness appends ${closers.map(describeCloser).join(', ')}`,
      })
    }
  }

  /** The synthetic closers the harness would append now (empty unless a turn is open). */
  wouldSynthesize(): WouldSynthesize[] {
    const last = this.seqOf(this.length - 1)
    return this.repair.closers(typeof last === 'number' ? last : this.length - 1)
  }

  get progress(): DecoderProgress & { readonly events: number } {
    return { ...this.decoder.progress, events: this.eventCount }
  }

  /** Where the decoded-bytes budget stopped the read (`LensLogOptions.plainBytesBudget`), or null. */
  get budgetCut(): BudgetCut | null {
    return this.decoder.budgetCut
  }

  get encoding(): LogEncoding | null {
    return this.decoder.progress.encoding
  }

  /** Whether every event so far has its index as its seq (then the UI maps seqs to events without asking). */
  get seqIsIndex(): boolean {
    return this.seqNotIndexAt === -1
  }

  /** Number of decoded events (packed rows counted per member). */
  get length(): number {
    return this.eventCount
  }

  /** The event at `index` as the harness reads it (legacy shapes upgraded). */
  event(index: number): LogEvent | undefined {
    const record = this.records.recordOf(index)
    if (record < 0 || index >= this.eventCount) return undefined
    if (this.records.isRow(record)) {
      return expandPackedMember(this.records.parsed(record) as PackedRow, index - this.records.firstIndexOf(record))
    }
    return this.upgraded.get(record) ?? (this.records.parsed(record) as LogEvent)
  }

  /** The event at `index` exactly as it is on disk (before any legacy upgrade). */
  rawEvent(index: number): LogEvent | undefined {
    const record = this.records.recordOf(index)
    if (record < 0 || index >= this.eventCount) return undefined
    return this.records.isRow(record) ? this.event(index) : (this.records.parsed(record) as LogEvent)
  }

  /** Whether the harness's reader upgrades the event at `index` from a legacy shape. */
  isUpgraded(index: number): boolean {
    return this.upgraded.has(this.records.recordOf(index))
  }

  /** Physical line (1-based, header is line 1) holding event `index`. */
  lineOf(index: number): number {
    return this.records.lineOf(this.records.recordOf(index))
  }

  /**
   * The type of event `index` as the harness reads it (legacy shapes upgraded; `eventTypeLabel` for a missing or odd
   * one), from the type kept per record: no parse. Undefined past the end.
   */
  typeOf(index: number): string | undefined {
    const record = this.records.recordOf(index)
    if (record < 0 || index >= this.eventCount) return undefined
    const upgraded = this.upgraded.size === 0 ? undefined : this.upgraded.get(record)
    return upgraded === undefined ? this.types.label(this.types.at(record)) : eventTypeLabel(upgraded.type)
  }

  /** The index after the last event of the record holding event `index` (past a packed row's members). */
  recordEnd(index: number): number {
    const record = this.records.recordOf(index)
    if (record < 0) return index + 1
    return record + 1 < this.records.length ? this.records.firstIndexOf(record + 1) : this.eventCount
  }

  /** Seq of event `index` as decoded (any JSON value for a malformed event). */
  seqOf(index: number): unknown {
    const record = this.records.recordOf(index)
    if (this.records.isRow(record))
      return (this.records.parsed(record) as PackedRow).seq0 + (index - this.records.firstIndexOf(record))
    return (this.event(index) as { seq?: unknown } | null | undefined)?.seq
  }

  /**
   * The body records holding events `0..index`, in file order, as decoded: a record's text, and for a packed row the
   * row with how many of its members lie at or before `index` (a row straddling the cut is cut by the caller).
   */
  *recordsThrough(index: number): Generator<{ readonly text: string; readonly row: PackedRow | null; readonly members: number }> {
    const last = Math.min(index, this.eventCount - 1)
    for (let r = 0; r < this.records.length && this.records.firstIndexOf(r) <= last; r++) {
      const row = this.records.isRow(r) ? (this.records.parsed(r) as PackedRow) : null
      yield {
        text: this.records.text(r),
        row,
        members: row === null ? 1 : Math.min(packedRowSize(row), last - this.records.firstIndexOf(r) + 1),
      }
    }
  }

  /**
   * The stored records as text positions, read-only: full-text search scans the decoded text directly and
   * parses only the records that contain a match (src/core/search).
   */
  get recordTexts(): RecordTextView {
    return this.records
  }

  /** The packed row holding event `index`, its first member's index and its member count; null for a plain event. */
  packedRowAt(index: number): { readonly row: PackedRow; readonly firstIndex: number; readonly members: number } | null {
    const record = this.records.recordOf(index)
    if (record < 0 || index >= this.eventCount || !this.records.isRow(record)) return null
    const row = this.records.parsed(record) as PackedRow
    return { row, firstIndex: this.records.firstIndexOf(record), members: packedRowSize(row) }
  }

  /** Whether the event at `index` is stored in a packed row (and so is a chunk delta). */
  isPacked(index: number): boolean {
    return this.records.isRow(this.records.recordOf(index))
  }

  /** Events the strict (harness) fold accepted: all before the first violation. */
  get strictLength(): number {
    return this.fold.strictCount
  }

  /** Whether folding surface node `node` derives a message for the model. */
  nodeDerives(node: number): DeriveOutcome {
    return this.nodeDerive.get(node) as DeriveOutcome
  }

  /** The harness's TypeError when deriving node `node` failed. */
  nodeDeriveError(node: number): string | undefined {
    return this.deriveErrors.get(node)
  }

  /** Surface node ids after folding events `0..index`, in model order. */
  nodesAfter(index: number): Int32Array {
    return this.fold.timeline.nodesAfter(index)
  }

  /** Surface seqs after folding events `0..index`. */
  surfaceSeqsAfter(index: number): number[] {
    return Array.from(this.nodesAfter(index), (node) => this.fold.timeline.seqOf(node))
  }

  /** Messages the model is sent for the surface after events `0..index`. */
  messageCountAfter(index: number): number {
    let count = 0
    for (const node of this.nodesAfter(index)) if (this.nodeDerive.get(node) === DeriveOutcome.Message) count++
    return count
  }

  /** Replacements folded at or before event `index`. */
  replacementsAfter(index: number): readonly Replacement[] {
    return this.fold.timeline.replacements.slice(0, this.fold.timeline.replacementsAfter(index))
  }

  /** Bytes held by index structures (not the text), for the memory benchmark. */
  get indexBytes(): number {
    return (
      this.fold.timeline.byteLength +
      this.records.byteLength +
      this.nodeDerive.byteLength +
      this.types.byteLength +
      this.indexes.byteLength
    )
  }

  /** Characters of decoded text held (two bytes each at worst). */
  get textChars(): number {
    return this.records.textChars
  }

  /** Members of the packed row stored as record `r`. */
  private membersOf(r: number): number {
    const next = r + 1 < this.records.length ? this.records.firstIndexOf(r + 1) : this.eventCount
    return next - this.records.firstIndexOf(r)
  }

  /** What an index built later reads: the stored records, as this log read them. */
  private indexSource(): IndexSource {
    const records = this.records
    const types = this.types
    const upgraded = this.upgraded
    return {
      get recordCount() {
        return records.length
      },
      isRow: (r) => records.isRow(r),
      firstIndexOf: (r) => records.firstIndexOf(r),
      row: (r) => records.parseFresh(r) as PackedRow,
      event: (r) => upgraded.get(r) ?? records.parseFresh(r),
      eventAt: (index) => this.event(index),
      textAt: (index) => records.range(records.recordOf(index)),
      typeCode: (r) => {
        const event = upgraded.size === 0 ? undefined : upgraded.get(r)
        return event === undefined ? types.at(r) : types.codeOf(eventTypeLabel(event.type))
      },
      typeLabel: (code) => types.label(code),
      timeline: this.fold.timeline,
      nodeDerives: (node) => this.nodeDerives(node),
    }
  }

  private ingest(record: DecodedRecord): void {
    const index = this.eventCount
    const recordIndex = this.records.add(record.text, index, record.line, record.kind === 'row')
    if (record.kind === 'row') {
      this.types.push(this.chunkCode)
      if (this.seqNotIndexAt === -1 && record.row.seq0 !== index) this.seqNotIndexAt = index
      this.eventCount += record.size
      this.fold.pushChunkRun(record.row.seq0, record.size, (k) => expandPackedMember(record.row, k))
      this.reportViolations(record.line)
      this.invariants.observeChunkRun(record.row, index, record.size)
      this.indexes.observeRow(record.row, index, record.size)
      return
    }
    this.eventCount++
    let event = record.event
    this.types.push(isRecord(event) ? this.types.codeOf(eventTypeLabel(event.type)) : NOT_AN_OBJECT)
    if (isRecord(event) && MAYBE_LEGACY.has(event.type)) event = this.upgrade(event, index, recordIndex, record.line)
    // As `seqOf` reads it: the upgraded event's seq, anything but the number `index` a mismatch.
    if (this.seqNotIndexAt === -1 && (event as { seq?: unknown } | null | undefined)?.seq !== index) this.seqNotIndexAt = index
    const defect = isRecord(event) ? loadDefect(event, index) : undefined
    if (defect !== undefined) this.diagnose('error', defect.code, record.line, event, index, defect.message)
    const plan = this.fold.push(event)
    this.reportViolations(record.line)
    // Decoded UTF-8 never yields a lone surrogate: only a `\uD8..` escape in the text can (checked once, here).
    const mayHoldSurrogate = plan !== undefined && textMayHoldSurrogate(record.text)
    const node = plan === undefined ? -1 : this.fold.timeline.nodeCount - 1
    if (isRecord(event)) {
      if (node >= 0) this.join(event, index, node)
      this.repair.observe(event)
    }
    this.indexes.observe(event, index, node, plan?.kind === 'replace', mayHoldSurrogate)
    this.invariants.observe(event, index, plan, mayHoldSurrogate)
  }

  private upgrade(event: LogEvent, index: number, recordIndex: number, line: number): LogEvent {
    const id = typeof this.header?.id === 'string' ? this.header.id : String(this.header?.id)
    const unsupported = unsupportedLegacyEvent(event, id)
    if (unsupported !== undefined) this.diagnose('error', 'legacy-rejected', line, event, index, unsupported)
    if (!this.upgradeLegacy) return event
    this.upgrader ??= new LegacyUpgrader(id)
    const result = this.upgrader.upgrade(event)
    if (!result.ok) {
      this.diagnose('error', 'legacy-rejected', line, event, index, result.message)
      return event
    }
    if (!result.upgraded) return event
    this.upgradedEvents++
    this.upgraded.set(recordIndex, result.event)
    return result.event
  }

  /** An event that entered the surface as node `node`: what every reader needs of it. */
  private join(event: LogEvent, index: number, node: number): void {
    const derived = deriveOutcome(event)
    this.nodeDerive.push(derived.outcome)
    if (derived.error !== undefined) {
      this.deriveErrors.set(node, derived.error)
      this.diagnose('error', 'derive-error', this.lineOf(index), event, index, derived.error)
    }
    if (event.type === 'tool/result') {
      const base = rewriteBase(event)
      if (base !== undefined) this.rewriteBases.set(index, base)
    }
  }

  private reportViolations(line: number): void {
    const violations = this.fold.violations
    for (; this.lastViolationCount < violations.length; this.lastViolationCount++) {
      const v = violations[this.lastViolationCount] as (typeof violations)[number]
      this.diagnostics.push({
        severity: 'error',
        code: 'fold-violation',
        line: this.records.recordOf(v.index) >= 0 ? this.lineOf(v.index) : line,
        seq: typeof v.seq === 'number' ? v.seq : null,
        index: v.index,
        message: v.message,
        ...(this.lastViolationCount === 0 ? { detail: 'the harness rejects this log here' } : {}),
      })
    }
  }

  private diagnoseBudget(cut: BudgetCut): void {
    const last = this.length - 1
    const seq = last < 0 ? undefined : this.seqOf(last)
    this.diagnostics.push({
      severity: 'warning',
      code: 'size-budget',
      line: last < 0 ? null : this.lineOf(last),
      seq: typeof seq === 'number' ? seq : null,
      index: last < 0 ? null : last,
      message: `dsh-lens stopped reading after ${cut.keptBytes} bytes of decoded log (its budget is ${cut.budgetBytes} bytes): the ${this.length} events before are shown, nothing after ${last < 0 ? 'the start' : `line ${this.lineOf(last)}`} was read`,
    })
  }

  private diagnose(
    severity: Diagnostic['severity'],
    code: Diagnostic['code'],
    line: number,
    event: LogEvent | null | undefined,
    index: number,
    message: string,
  ): void {
    const seq = (event as { seq?: unknown } | null | undefined)?.seq
    this.diagnostics.push({ severity, code, line, seq: typeof seq === 'number' ? seq : null, index, message })
  }
}
