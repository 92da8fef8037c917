/**
 * The log open in the worker (`OpenLog`; not a dsh session, which is what the log records): a `LensLog` plus the
 * answers the panes ask for. A plain class with no worker globals, so unit tests drive it in Node and a test
 * harness can run it in-thread.
 *
 * Every answer is computed from the core's structures (`nodesAfter`, `RowList`, `replacements`); nothing here
 * re-implements fold semantics. Events are addressed by index (= seq for a valid log).
 */

import {
  DeriveOutcome,
  LensLog,
  loadContentChecksum,
  stepsInRanges,
  TRANSCRIPT_INDEXES,
  type ContentChecksum,
  type RowList,
  type SpanSteps,
} from '../core/index.ts'
import { ContextSeries } from '../core/series/context-series.ts'
import { yieldToEventLoop } from '../platform/yield-to-event-loop.ts'
import {
  RAW_JSON_MAX_CHARS,
  type DetailTextChunk,
  type DetailTextField,
  type EventDetail,
  type EventSummary,
  type TranscriptList,
  type TranscriptRowRef,
} from '../protocol/event-views.ts'
import {
  DIAGNOSTICS_MAX,
  indexOfSeqInSummary,
  type CursorSnapshot,
  type FirstWindow,
  type LoadProgress,
  type LogSummary,
  type ReplacementInfo,
  type SizeBudgetCut,
} from '../protocol/log-summary.ts'
import { EMPTY_LAYOUT, type ReplaceLayout } from '../protocol/replace-layout.ts'
import { DetailTexts } from './detail-text.ts'
import { KIND_NAMES, summarizeEvent } from './event-summary.ts'
import { extendLayout, layoutReplacements } from './replace-layout.ts'
import { safeStringify } from './safe-json.ts'

/** Hidden-character counts of an empty text. */
const NO_HIDDEN = { total: 0, bidi: 0, invisible: 0, control: 0, surrogate: 0 } as const
/** Slice size for reading a File: big enough to amortise the await, small enough to report progress smoothly. */
export const READ_SLICE_BYTES = 2 * 1024 * 1024
/** The first slice is small, so the first rows are folded and on screen within a few tens of ms of the drop. */
export const FIRST_SLICE_BYTES = 256 * 1024
/** Counterpart lists for huge compactions are capped; the inspector says how many there are. */
const COUNTERPARTS_MAX = 2000
/** While a live log grows, the full graph layout is redone at most this often; in between, appended
 * replacements are placed cheaply (`extendLayout`). */
const FULL_LAYOUT_INTERVAL_MS = 1000

/**
 * Most decoded (plain-text) bytes of one log the worker holds: 1 GiB. The worker keeps a small multiple of the
 * plain text (docs/benchmarks.md), so this stays inside a worker heap Chromium caps at a few GB, below the plain log
 * size that may end the worker for lack of memory. Past it a load keeps
 * the whole lines before it (every pane works on that prefix, its fold exact) and says so (`LogSummary.sizeBudget`,
 * diagnostic `size-budget`). Tests lower it through `OpenLog.create` / `createLensHost`.
 */
export const DECODED_BYTES_BUDGET = 1024 * 1024 * 1024

export interface OpenLogOptions {
  /** Most decoded bytes per log (default `DECODED_BYTES_BUDGET`). */
  readonly decodedBytesBudget?: number
}

/** Slice of worker time one context-series extension may take before it yields (ms). */
export const SERIES_SLICE_MS = 30

function deadline(ms: number): (() => boolean) | undefined {
  if (ms === Infinity) return undefined
  // No time at all: one node per call (exactly, whatever the clock's resolution).
  if (ms <= 0) return () => true
  const end = performance.now() + ms
  return () => performance.now() > end
}

export class OpenLog {
  private log: LensLog
  private name = ''
  private totalBytes: number | null = null
  private startedAt = 0
  private cancelled = false
  private final = false
  private sourceSha256: string | null = null
  private readonly replacementInfos: ReplacementInfo[] = []
  private readonly replacementBySeq = new Map<number, number>()
  private readonly replacementByIndex = new Map<number, number>()
  private readonly texts = new DetailTexts()
  private layout: ReplaceLayout = EMPTY_LAYOUT
  private layoutIsFull = true
  private fullLayoutAt = 0
  /**
   * The context chart's series: made on the first `context-series` query, then extended by each later query with
   * only the surface nodes that arrived since (a live log is followed, never rebuilt). Not on push: the load path
   * stays as fast with the chart open as without it, and the chart asks again as the log grows anyway.
   */
  private series: ContextSeries | null = null

  private constructor(
    private readonly checksum: ContentChecksum,
    private readonly budget: number,
  ) {
    this.log = this.newLog()
  }

  /**
   * Loads the zstd checksum (WebAssembly) once, then gives an empty open log (libzstd compiles at a zstd log's
   * first frame: zstd-wasm.ts).
   */
  static async create(options: OpenLogOptions = {}): Promise<OpenLog> {
    const checksum = await loadContentChecksum()
    return new OpenLog(checksum, options.decodedBytesBudget ?? DECODED_BYTES_BUDGET)
  }

  private newLog(): LensLog {
    // The panes draw rows, replacements and turns from the first summary on; every other index is built when a pane
    // first asks for it (timing, requests, state), so a load pays only for what is on screen.
    return new LensLog({ checksum: this.checksum, plainBytesBudget: this.budget, keep: TRANSCRIPT_INDEXES })
  }

  /** Whether the decoded-bytes budget stopped this load: it takes no more input (a live feed stops appending). */
  get budgetReached(): boolean {
    return this.log.budgetCut !== null
  }

  /** The underlying log, for tests and for the live feed. */
  get lensLog(): LensLog {
    return this.log
  }

  /** Drop the current log and start a new one (a second file replaces the first cleanly). */
  begin(name: string, totalBytes: number | null): void {
    this.log = this.newLog()
    this.name = name
    this.totalBytes = totalBytes
    this.startedAt = Date.now()
    this.cancelled = false
    this.final = false
    this.sourceSha256 = null
    this.replacementInfos.length = 0
    this.replacementBySeq.clear()
    this.replacementByIndex.clear()
    this.layout = EMPTY_LAYOUT
    this.layoutIsFull = true
    this.fullLayoutAt = 0
    this.series = null
  }

  /** The SHA-256 (hex) of the whole source file, once it has been read through (dropped and picked files). */
  setSourceSha256(hex: string): void {
    this.sourceSha256 = hex
  }

  /** Feed bytes; ignored once the budget stopped the load. */
  push(bytes: Uint8Array): void {
    this.log.push(bytes)
  }

  /** End of input; `cancelled` marks a load stopped early (what parsed so far stays inspectable). */
  finish(cancelled = false): void {
    this.log.finish()
    this.cancelled = cancelled
    this.final = true
  }

  /**
   * Read a Blob (a dropped File) in slices, pushing each into the log.
   * @param onSlice called after every slice; return false to stop (cancel).
   * @param onBytes sees every slice read, before it is folded (the file's digest).
   * @returns false when cancelled (the budget stopping the read is not a cancel: see `budgetReached`).
   */
  async loadBlob(blob: Blob, onSlice: () => boolean, onBytes?: (bytes: Uint8Array) => void): Promise<boolean> {
    // Past the budget nothing more is read from the file.
    for (let offset = 0; offset < blob.size && !this.budgetReached;) {
      const end = offset + (offset === 0 ? FIRST_SLICE_BYTES : READ_SLICE_BYTES)
      const bytes = new Uint8Array(await blob.slice(offset, end).arrayBuffer())
      offset = end
      await yieldToEventLoop()
      if (!onSlice()) return false
      onBytes?.(bytes)
      this.push(bytes)
    }
    return onSlice()
  }

  /**
   * The context series, extended with the events stored since (built once, then only extended). With a budget the
   * extension stops after about `budgetMs` (`caughtUp` says whether it got to the end; ask again for the rest).
   */
  contextSeries(budgetMs = Infinity): ContextSeries {
    this.series ??= new ContextSeries()
    this.series.update(this.log, deadline(budgetMs))
    return this.series
  }

  progress(): LoadProgress {
    const p = this.log.progress
    const seconds = Math.max(0.001, (Date.now() - this.startedAt) / 1000)
    return {
      inputBytes: p.inputBytes,
      totalBytes: this.totalBytes,
      events: p.events,
      lines: p.lines,
      bytesPerSecond: p.inputBytes / seconds,
    }
  }

  summary(): LogSummary {
    const log = this.log
    const timeline = log.fold.timeline
    this.syncReplacements()
    const surfaceChangeIndices = new Int32Array(timeline.nodeCount)
    for (let node = 0; node < timeline.nodeCount; node++) surfaceChangeIndices[node] = timeline.indexOf(node)
    const diagnosticIndices = [...new Set(log.diagnostics.map((d) => d.index).filter((i): i is number => typeof i === 'number'))]
    diagnosticIndices.sort((a, b) => a - b)
    const first = log.fold.firstViolation
    const last = log.length - 1
    const lastSeq = last < 0 ? -1 : log.seqOf(last)
    return {
      name: this.name,
      length: log.length,
      lastSeq: typeof lastSeq === 'number' ? lastSeq : last,
      header: log.header,
      encoding: log.encoding,
      strictLength: log.strictLength,
      upgradedEvents: log.upgradedEvents,
      diagnostics: log.diagnostics.slice(0, DIAGNOSTICS_MAX),
      diagnosticCount: log.diagnostics.length,
      firstViolation: first === undefined ? null : { index: first.index, seq: first.seq, message: first.message },
      replacements: this.replacementInfos.slice(),
      replaceLayout: this.replaceLayout(),
      turnIndices: log.turns.starts.toArray(),
      surfaceChangeIndices,
      diagnosticIndices: Int32Array.from(diagnosticIndices),
      seqIsIndex: this.seqIsIndex(),
      final: this.final,
      cancelled: this.cancelled,
      sizeBudget: this.sizeBudget(),
      sourceSha256: this.sourceSha256,
    }
  }

  private sizeBudget(): SizeBudgetCut | null {
    const cut = this.log.budgetCut
    if (cut === null) return null
    return {
      budgetBytes: cut.budgetBytes,
      keptBytes: cut.keptBytes,
      inputBytes: cut.inputBytes,
      totalBytes: this.totalBytes,
      events: this.log.length,
    }
  }

  /** The cursor state after folding events `0..index` (clamped to the log). */
  stateAt(index: number): CursorSnapshot {
    const log = this.log
    const last = log.length - 1
    const at = Math.max(-1, Math.min(Math.trunc(index), last))
    if (at < 0) {
      return {
        index: -1,
        seq: -1,
        messageRowCount: 0,
        allRowCount: 0,
        messageCount: 0,
        surfaceSeqs: new Float64Array(0),
        surfaceIndices: new Int32Array(0),
        replacementCount: 0,
      }
    }
    const timeline = log.fold.timeline
    const nodes = log.nodesAfter(at)
    const surfaceSeqs = new Float64Array(nodes.length)
    const surfaceIndices = new Int32Array(nodes.length)
    let messageCount = 0
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k] as number
      surfaceSeqs[k] = timeline.seqOf(node)
      surfaceIndices[k] = timeline.indexOf(node)
      if (log.nodeDerives(node) === DeriveOutcome.Message) messageCount++
    }
    const seq = log.seqOf(at)
    return {
      index: at,
      seq: typeof seq === 'number' ? seq : at,
      messageRowCount: log.messageRows.countAt(at),
      allRowCount: log.allRows.countAt(at),
      messageCount,
      surfaceSeqs,
      surfaceIndices,
      replacementCount: timeline.replacementsAfter(at),
    }
  }

  transcriptRows(list: TranscriptList, from: number, to: number): { rows: TranscriptRowRef[]; summaries: EventSummary[] } {
    const rows: RowList = list === 'all' ? this.log.allRows : this.log.messageRows
    const refs: TranscriptRowRef[] = []
    const summaries: EventSummary[] = []
    for (let row = Math.max(0, from); row < Math.min(to, rows.length); row++) {
      const ref: TranscriptRowRef = {
        row,
        index: rows.index.get(row),
        kind: KIND_NAMES[rows.kind.get(row)] ?? 'log-only',
        span: rows.span.get(row),
      }
      refs.push(ref)
      const summary = this.summarize(ref.index, ref.span)
      if (summary !== null) summaries.push(summary)
    }
    return { rows: refs, summaries }
  }

  /** The panes' first view of the log as folded so far (FirstWindow): no row or summary beyond `rows` of each. */
  firstWindow(rows: number): FirstWindow {
    const snapshot = this.stateAt(this.log.length - 1)
    const messages = this.transcriptRows('messages', 0, rows)
    const all = this.transcriptRows('all', 0, rows)
    const byIndex = new Map<number, EventSummary>()
    for (const s of [...messages.summaries, ...all.summaries]) byIndex.set(s.index, s)
    const surface = Array.from(snapshot.surfaceIndices.subarray(0, rows)).filter((i) => !byIndex.has(i))
    for (const s of this.summaries(surface)) byIndex.set(s.index, s)
    return { snapshot, rows: { messages: messages.rows, all: all.rows }, summaries: [...byIndex.values()] }
  }

  summaries(indices: readonly number[]): EventSummary[] {
    return indices.map((i) => this.summarize(i, 1)).filter((s): s is EventSummary => s !== null)
  }

  /** Event index holding `seq`, or -1. */
  indexOfSeq(seq: number): number {
    const log = this.log
    const known = indexOfSeqInSummary({ seqIsIndex: this.seqIsIndex(), length: log.length }, seq)
    if (known !== null) return known
    const node = log.fold.timeline.findNode(seq)
    if (node !== -1) return log.fold.timeline.indexOf(node)
    for (let i = 0; i < log.length; i++) if (log.seqOf(i) === seq) return i
    return -1
  }

  detail(index: number, cursor: number): EventDetail | null {
    const log = this.log
    const summary = this.summarize(index, 1)
    const event = log.event(index)
    if (summary === null || event === undefined) return null
    this.syncReplacements()
    const timeline = log.fold.timeline
    const node = this.nodeOf(index)
    let surfaceCounterpart: number | null = null
    for (let n = node; n !== -1;) {
      if (timeline.indexOf(n) > cursor) break
      const by = timeline.shadowedBy(n)
      if (by === -1 || timeline.indexOf(by) > cursor) {
        surfaceCounterpart = timeline.seqOf(n)
        break
      }
      n = by
    }
    const replacementNo = this.replacementByIndex.get(index)
    const replacement = replacementNo === undefined ? null : (this.replacementInfos[replacementNo] ?? null)
    const transcriptCounterparts: number[] = []
    if (replacement !== null) this.collectCovered(replacement, transcriptCounterparts)
    else if (summary.kind === 'message' && summary.seq !== null) transcriptCounterparts.push(summary.seq)
    const firstCounterpart = transcriptCounterparts[0]
    const counterpartIndex = firstCounterpart === undefined ? -1 : this.indexOfSeq(firstCounterpart)
    const counterpartRows =
      counterpartIndex < 0
        ? null
        : { messages: log.messageRows.countAt(counterpartIndex) - 1, all: log.allRows.countAt(counterpartIndex) - 1 }
    const sources = Array.isArray(event.sourceEventSeqs)
      ? event.sourceEventSeqs.filter((s): s is number => typeof s === 'number')
      : []
    // Only the first part of a long JSON goes out with the detail; the inspector asks for more (`detailText`).
    const raw = this.texts.chunk(log, index, 'raw', 0, RAW_JSON_MAX_CHARS)
    const disk = this.texts.chunk(log, index, 'disk', 0, RAW_JSON_MAX_CHARS)
    return {
      summary,
      rawJson: raw?.text ?? '',
      onDiskJson: disk?.text ?? null,
      rawJsonInfo: { total: raw?.total ?? 0, hidden: raw?.hidden ?? NO_HIDDEN },
      onDiskJsonInfo: disk === null ? null : { total: disk.total, hidden: disk.hidden },
      surfaceOp: event.surfaceOp === undefined ? null : (safeStringify(event.surfaceOp) ?? null),
      sourceEventSeqs: sources,
      enteredSeq: node === -1 ? null : timeline.seqOf(node),
      shadowedAtSeq: summary.surface?.shadowedBySeq ?? null,
      surfaceCounterpart,
      transcriptCounterparts,
      counterpartRows,
      replacement,
      diagnostics: log.diagnostics.filter((d) => d.index === index).slice(0, 100),
      lifespanSteps: this.lifespanSteps(node),
    }
  }

  /** When node `node` was on the surface, with the steps whose request carried it (null: not a surface node). */
  private lifespanSteps(node: number): SpanSteps | null {
    if (node === -1) return null
    const timeline = this.log.fold.timeline
    const by = timeline.shadowedBy(node)
    const from = timeline.indexOf(node)
    const to = by === -1 ? this.log.length - 1 : timeline.indexOf(by) - 1
    return to < from ? null : (stepsInRanges(this.log, [{ from, to }])[0] ?? null)
  }

  /** A piece of the selected event's JSON (`field` raw or on disk) for the inspector's "Show more" and copy. */
  detailText(index: number, field: DetailTextField, offset: number, length: number): DetailTextChunk | null {
    return this.texts.chunk(this.log, index, field, offset, length)
  }

  /** The whole of that JSON as a Blob, for "Copy full value" and "Save full value". */
  detailBlob(index: number, field: DetailTextField): Blob | null {
    const text = this.texts.text(this.log, index, field)
    return text === null ? null : new Blob([text], { type: 'application/json' })
  }

  /** Leaf transcript seqs a replacement stands for, through nested replacements. */
  private collectCovered(replacement: ReplacementInfo, out: number[]): void {
    for (const seq of replacement.shadowedSeqs) {
      if (out.length >= COUNTERPARTS_MAX) return
      const nested = this.replacementBySeq.get(seq)
      const info = nested === undefined ? undefined : this.replacementInfos[nested]
      if (info !== undefined) this.collectCovered(info, out)
      else out.push(seq)
    }
  }

  /** The surface node entered by event `index`, or -1 (log-only events, skipped events). */
  private nodeOf(index: number): number {
    const seq = this.log.seqOf(index)
    if (typeof seq !== 'number') return -1
    const timeline = this.log.fold.timeline
    const node = timeline.findNode(seq)
    return node !== -1 && timeline.indexOf(node) === index ? node : -1
  }

  private seqIsIndex(): boolean {
    return this.log.seqIsIndex
  }

  /** The graph layout for every replacement so far: redone only when replacements were added (or at the end). */
  private replaceLayout(): ReplaceLayout {
    const infos = this.replacementInfos
    const stale = infos.length !== this.layout.count || (this.final && !this.layoutIsFull)
    if (!stale) return this.layout
    const now = Date.now()
    if (this.final || now - this.fullLayoutAt >= FULL_LAYOUT_INTERVAL_MS) {
      this.layout = layoutReplacements(infos)
      this.layoutIsFull = true
      this.fullLayoutAt = now
    } else {
      this.layout = extendLayout(this.layout, infos)
      this.layoutIsFull = false
    }
    return this.layout
  }

  /** Mirror new core replacements (with their links) into protocol objects, once each. */
  private syncReplacements(): void {
    const log = this.log
    const all = log.fold.timeline.replacements
    for (let k = this.replacementInfos.length; k < all.length; k++) {
      const r = all[k]
      if (r === undefined) break
      const link = log.replacementLinks[k]
      this.replacementInfos.push({
        seq: r.seq,
        index: r.index,
        start: r.start,
        end: r.end,
        shadowedSeqs: r.shadowedSeqs,
        sourceEventSeqs: r.sourceEventSeqs,
        kind: link?.kind ?? 'other',
        compactionId: link?.compactionId ?? null,
        shadowedIsReplacement: r.shadowedSeqs.map((s) => this.replacementBySeq.has(s)),
      })
      this.replacementBySeq.set(r.seq, k)
      this.replacementByIndex.set(r.index, k)
    }
  }

  private summarize(index: number, span: number): EventSummary | null {
    if (index < 0 || index >= this.log.length) return null
    this.syncReplacements()
    const replacementNo = this.replacementByIndex.get(index)
    const replacement = replacementNo === undefined ? undefined : this.replacementInfos[replacementNo]
    return summarizeEvent(this.log, index, span, this.nodeOf(index), replacement)
  }
}
