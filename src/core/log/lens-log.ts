/**
 * One session log, decoded, checked and folded as it streams in: the model that
 * the worker, the CLI, the companion server and the tests share. Records are
 * kept as text positions (RecordStore) and parsed again on demand. A packed chunk
 * row stands for its whole seq range; a member becomes an event object only when
 * asked for. Events are addressed by *index*, their position in the decoded list;
 * for a valid log index === seq.
 */

import { SessionDecoder, type BudgetCut, type DecodedRecord, type DecoderProgress } from '../decode/session-decoder.ts'
import { expandPackedMember, packedRowSize } from '../decode/packed-rows.ts'
import type { ContentChecksum, FrameDecompressor } from '../decode/zstd-container.ts'
import { DeriveOutcome, deriveEventMessage, deriveOutcome } from '../fold/derive-message.ts'
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
import { CompactionIndex, type ReplacementLink } from '../projection/compaction-links.ts'
import { RowKind, RowList, rowKindOf } from '../projection/transcript-rows.ts'
import { TurnStructure } from '../projection/turn-structure.ts'
import { RepairTracker, type WouldSynthesize } from '../projection/repair-closers.ts'
import { NodeWireShapes } from '../request/node-wire-shapes.ts'
import { StepTimesTracker } from '../timing/step-times.ts'
import { RecordStore, type RecordTextView } from './record-store.ts'

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
  readonly typeCounts = new Map<string, number>()
  /** Every transcript row, log-only ones included. */
  readonly allRows = new RowList()
  /** Message rows only: what the transcript shows by default. */
  readonly messageRows = new RowList()
  readonly compactions = new CompactionIndex()
  /** Aligned with `fold.timeline.replacements`. */
  readonly replacementLinks: ReplacementLink[] = []
  /** Turns and their steps, with where each starts and ends. */
  readonly turns = new TurnStructure()
  /** What the harness would append on its next open if the log ends inside a turn. */
  readonly repair = new RepairTracker()
  /** Event indices of `request/header` events, in log order: the request view finds the header in force by binary search. */
  readonly requestHeaders = new Int32Vector(16)
  /** Event indices of `todo/write` and `goal/change` (the todo list and goal in force: what a compaction may forget). */
  readonly stateEvents = new Int32Vector(16)
  /** Each step's times as they were logged (src/core/timing reads them). */
  readonly timing = new StepTimesTracker(this.turns)

  private readonly decoder: SessionDecoder
  private readonly records = new RecordStore()
  /** Records the reader upgrades from a legacy shape: record index -> the upgraded event. */
  private readonly upgraded = new Map<number, LogEvent>()
  private readonly nodeDerive = new Int32Vector(256)
  /** Per surface node, what a provider sees of its message (tool calls, results, lone surrogates): request rules. */
  readonly wireShapes = new NodeWireShapes()
  private readonly deriveErrors = new Map<number, string>()
  private upgrader: LegacyUpgrader | undefined
  /**
   * For tool results on the surface: the event with its result payload nulled, all a
   * later rewrite check reads (check 18). Kept so a prune never re-parses a
   * multi-megabyte original. Absent when the data is malformed: then the check
   * re-parses the original and fails exactly as the harness does.
   */
  private readonly rewriteBases = new Map<number, LogEvent>()
  /** The last non-row event ingested, so linking a replacement needs no re-parse. */
  private previous: { index: number; event: LogEvent } | undefined
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
      3 * (this.allRows.index.byteLength + this.messageRows.index.byteLength)
    )
  }

  /** Characters of decoded text held (two bytes each at worst). */
  get textChars(): number {
    return this.records.textChars
  }

  private count(type: string, n: number): void {
    this.typeCounts.set(type, (this.typeCounts.get(type) ?? 0) + n)
  }

  private ingest(record: DecodedRecord): void {
    const index = this.eventCount
    const recordIndex = this.records.add(record.text, index, record.line, record.kind === 'row')
    if (record.kind === 'row') {
      if (this.seqNotIndexAt === -1 && record.row.seq0 !== index) this.seqNotIndexAt = index
      this.eventCount += record.size
      this.count('assistant/chunk', record.size)
      this.fold.pushChunkRun(record.row.seq0, record.size, (k) => expandPackedMember(record.row, k))
      this.reportViolations(record.line)
      this.invariants.observeChunkRun(record.row, index, record.size)
      this.timing.observeRow(record.row, index, record.size)
      if (!this.allRows.extendChunkRun(index, record.size)) {
        this.allRows.add(index, RowKind.ChunkRun)
        this.allRows.span.set(this.allRows.length - 1, record.size)
      }
      return
    }
    this.eventCount++
    let event = record.event
    this.count(eventTypeLabel(event?.type), 1)
    if (isRecord(event) && MAYBE_LEGACY.has(event.type)) event = this.upgrade(event, index, recordIndex, record.line)
    // As `seqOf` reads it: the upgraded event's seq, anything but the number `index` a mismatch.
    if (this.seqNotIndexAt === -1 && (event as { seq?: unknown } | null | undefined)?.seq !== index) this.seqNotIndexAt = index
    const defect = isRecord(event) ? loadDefect(event, index) : undefined
    if (defect !== undefined) this.diagnose('error', defect.code, record.line, event, index, defect.message)
    const plan = this.fold.push(event)
    this.reportViolations(record.line)
    // Decoded UTF-8 never yields a lone surrogate: only a `\uD8..` escape in the text can (checked once, here).
    const mayHoldSurrogate = plan !== undefined && textMayHoldSurrogate(record.text)
    if (isRecord(event)) this.project(event, index, plan?.kind, mayHoldSurrogate)
    this.timing.observe(event, index, plan !== undefined)
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

  private project(event: LogEvent, index: number, plan: 'append' | 'replace' | undefined, mayHoldSurrogate: boolean): void {
    if (plan !== undefined) {
      const node = this.fold.timeline.nodeCount - 1
      const derived = deriveOutcome(event)
      this.nodeDerive.push(derived.outcome)
      this.wireShapes.push(derived.outcome === DeriveOutcome.Message ? deriveEventMessage(event) : null, mayHoldSurrogate)
      if (derived.error !== undefined) {
        this.deriveErrors.set(node, derived.error)
        this.diagnose('error', 'derive-error', this.lineOf(index), event, index, derived.error)
      }
      if (plan === 'replace') {
        const previous = this.previous?.index === index - 1 ? this.previous.event : index > 0 ? this.event(index - 1) : undefined
        this.replacementLinks.push(this.compactions.link(event, index, previous, index - 1))
      }
      if (event.type === 'tool/result') {
        const base = rewriteBase(event)
        if (base !== undefined) this.rewriteBases.set(index, base)
      }
    }
    this.previous = { index, event }
    this.compactions.observe(event, index)
    this.turns.observe(event, index)
    if (event.type === 'request/header') this.requestHeaders.push(index)
    else if (event.type === 'todo/write' || event.type === 'goal/change') this.stateEvents.push(index)
    this.repair.observe(event)
    const kind = rowKindOf(event)
    if (kind === RowKind.ChunkRun) {
      if (!this.allRows.extendChunkRun(index, 1)) this.allRows.add(index, RowKind.ChunkRun)
      return
    }
    this.allRows.add(index, kind)
    if (kind === RowKind.Message) this.messageRows.add(index, kind)
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
