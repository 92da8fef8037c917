/**
 * A session log read for its searchable documents, and nothing else: the decoder, the harness's legacy upgrades, the
 * surface fold and the turn brackets, with each event's document made as the event is decoded (it is parsed once,
 * never again). `LensLog` computes far more at load (transcript rows, wire shapes, invariants, timing) that an index
 * never reads; this is the load a cold index build pays for, and its documents are LensLog's (content-log tests).
 *
 * A document is one semantic event (`eventText`) with its seq, type, time, turn and step, tool, whether a result is
 * an error, and its standing on the model surface at the end of the log read so far as our fold has it: `current`,
 * `shadowed` (by the replacement that swapped it out, so a summary later swallowed by another summary still names the
 * first) or `log-only` (it never entered the surface): the harness's classification (`buildSessionEventSearchDocuments`:
 * the fold's nodes current, every replacement's `shadowedSeqs` shadowed, the rest log-only). Each document also says
 * where its record lies in the file (`RecordPlace`), so an index need not keep the text.
 *
 * Resumable, for a log that grows: `next()` gives the documents of the events read since the last call, and the
 * earlier events a new replacement took off the surface since.
 */

import { SessionDecoder, type DecodedRecord } from '../decode/session-decoder.ts'
import { expandPackedMember } from '../decode/packed-rows.ts'
import { hasZstdMagic, ZstdContainer, type ContentChecksum, type FrameDecompressor } from '../decode/zstd-container.ts'
import { SurfaceFold } from '../fold/surface-fold.ts'
import { LegacyUpgrader } from '../load/legacy-upgrade.ts'
import { MAYBE_LEGACY, rewriteBase } from '../log/lens-log.ts'
import type { Diagnostic } from '../model/diagnostic.ts'
import { isEventSeq, isRecord, type LogEncoding, type LogEvent, type SessionHeader } from '../model/log-event.ts'
import { TurnStructure } from '../projection/turn-structure.ts'
import type { ContentDocument, RecordPlace, Reclassified, SurfaceStanding } from './content-document.ts'
import { eventText } from './event-text.ts'
import { bracketsOf, EventFacts, isErrorResult } from './event-facts.ts'

export interface ContentLogOptions {
  /** zstd content checksum (see `loadContentChecksum`); frames are not verified without it. */
  readonly checksum?: ContentChecksum
  readonly decompressFrame?: FrameDecompressor
}

/** A document before the log's end is known: its standing is asked when `next()` hands it out. */
type Pending = Omit<ContentDocument, 'surface' | 'shadowedBy'>

const CURRENT: SurfaceStanding = { surface: 'current', shadowedBy: null }
const LOG_ONLY: SurfaceStanding = { surface: 'log-only', shadowedBy: null }
const UTF8_BOM_BYTES = 3

export class ContentLog {
  header: SessionHeader | null = null
  readonly diagnostics: Diagnostic[] = []
  readonly fold: SurfaceFold
  readonly turns = new TurnStructure()
  private readonly facts = new EventFacts()
  private readonly decoder: SessionDecoder
  private readonly checksum: ContentChecksum | undefined
  private readonly decompressFrame: FrameDecompressor | undefined
  private encodingValue: LogEncoding | null = null
  private zstd: ZstdContainer | undefined
  private head: Uint8Array[] = []
  private headBytes = 0
  /** The zstd frame whose plaintext the decoder is reading: its file bytes and its plaintext's first offset. */
  private frame: { at: number; end: number; plainStart: number } | null = null
  private plainFed = 0
  private eventCount = 0
  private lastSeqValue: unknown = undefined
  private upgrader: LegacyUpgrader | undefined
  /** What the fold's rewrite check reads of a surface node's event (see `surfaceEntry`), by event index. */
  private readonly surfaceEvents = new Map<number, unknown>()
  private pending: Pending[] = []
  private handedOut = 0
  private replacementsSeen = 0

  constructor(options: ContentLogOptions = {}) {
    this.checksum = options.checksum
    this.decompressFrame = options.decompressFrame
    this.fold = new SurfaceFold((index) => this.surfaceEvents.get(index))
    this.decoder = new SessionDecoder(
      {
        header: (header) => {
          this.header = header
        },
        record: (record) => this.ingest(record),
        diagnostic: (d) => this.diagnostics.push(d),
      },
      this.checksum === undefined ? {} : { checksum: this.checksum },
    )
  }

  /** Feed the next bytes of the file. */
  push(bytes: Uint8Array): void {
    if (this.encodingValue === null) {
      this.head.push(bytes)
      this.headBytes += bytes.length
      if (this.headBytes < 4) return
      this.begin()
      return
    }
    this.route(bytes)
  }

  /** End of input: a torn tail is closed (its complete records read). */
  finish(): void {
    if (this.encodingValue === null) this.begin()
    this.zstd?.finish()
    this.decoder.finish()
  }

  get encoding(): LogEncoding | null {
    return this.encodingValue
  }

  /** Decoded events (a packed row counts as its members). */
  get length(): number {
    return this.eventCount
  }

  /** The last event's seq, or -1 when there is none or it is not a seq. */
  get lastSeq(): number {
    return isEventSeq(this.lastSeqValue) ? this.lastSeqValue : -1
  }

  /** Whether the session is still running: its last turn has not ended. */
  get running(): boolean {
    return this.turns.openTurn !== undefined
  }

  /** The session's title as the sessions list has it. */
  get title(): string | null {
    return this.facts.title
  }

  /** Why the file is no session log an index can hold, in the core's words; null when it is one. */
  get refusal(): string | null {
    const notALog = this.diagnostics.find((d) => d.code === 'not-a-log')
    if (notALog !== undefined) return notALog.message
    if (this.header === null) return this.diagnostics.find((d) => d.severity === 'error')?.message ?? 'it has no session header'
    return null
  }

  /**
   * The documents of the events read since the last call, in log order, classified as of the log's end now; and the
   * documents of earlier calls that a replacement folded since took off the surface (each once, with the replacement
   * that shadowed it: shadowing is final), which an index made earlier must update.
   */
  next(): { documents: ContentDocument[]; reclassified: Reclassified[] } {
    const documents = this.pending.map((d) => ({ ...d, ...this.standingOf(d.index, d.seq) }))
    const reclassified = this.shadowedSince(this.handedOut)
    this.pending = []
    this.handedOut = this.eventCount
    return { documents, reclassified }
  }

  /** The surface standing of event `index` (whose seq is `seq`) at the end of the log read so far. */
  standingOf(index: number, seq: number): SurfaceStanding {
    const timeline = this.fold.timeline
    const node = timeline.findNode(seq)
    if (node === -1 || timeline.indexOf(node) !== index) return LOG_ONLY
    const by = timeline.shadowedBy(node)
    return by === -1 ? CURRENT : { surface: 'shadowed', shadowedBy: timeline.seqOf(by) }
  }

  /** Events before index `before` shadowed by the replacements folded since the last call. */
  private shadowedSince(before: number): Reclassified[] {
    const timeline = this.fold.timeline
    const replacements = timeline.replacements
    const out: Reclassified[] = []
    for (let r = this.replacementsSeen; r < replacements.length; r++) {
      const replacement = replacements[r] as (typeof replacements)[number]
      for (const seq of replacement.shadowedSeqs) {
        const node = timeline.findNode(seq)
        if (node !== -1 && timeline.indexOf(node) < before) out.push({ seq, surface: 'shadowed', shadowedBy: replacement.seq })
      }
    }
    this.replacementsSeen = replacements.length
    return out
  }

  private begin(): void {
    const head = this.head
    this.head = []
    const bytes = new Uint8Array(this.headBytes)
    let at = 0
    for (const part of head) {
      bytes.set(part, at)
      at += part.length
    }
    this.encodingValue = hasZstdMagic(bytes) ? 'zstd' : 'jsonl'
    if (this.encodingValue === 'zstd') {
      // Frames are taken apart here, so each record's frame is known; the decoder reads their plaintext.
      this.zstd = new ZstdContainer(
        {
          frame: (plaintext, _index, offset) => this.onFrame(plaintext, offset, this.zstd?.pendingStart ?? offset),
          tornFrame: (plaintext) => this.onFrame(plaintext, -1, -1),
          diagnostic: (d) => this.diagnostics.push(d),
        },
        this.checksum,
        ...(this.decompressFrame === undefined ? [] : [this.decompressFrame]),
      )
    }
    this.route(bytes)
  }

  private route(bytes: Uint8Array): void {
    if (this.zstd !== undefined) this.zstd.push(bytes)
    else this.decoder.push(bytes)
  }

  private onFrame(plaintext: Uint8Array, at: number, end: number): void {
    this.frame = at < 0 ? null : { at, end, plainStart: this.plainFed }
    this.plainFed += plaintext.length
    this.decoder.push(plaintext)
  }

  /** Where the record starting at plaintext offset `offset` is in the file, or null when it cannot be read alone. */
  private placeOf(offset: number): RecordPlace | null {
    // The decoder skips a byte order mark: its offsets count from after it.
    const plain = offset + (this.diagnostics.some((d) => d.code === 'bom') ? UTF8_BOM_BYTES : 0)
    if (this.encodingValue !== 'zstd') return { frameAt: -1, frameEnd: -1, lineAt: plain }
    const frame = this.frame
    // A record that began in an earlier frame (a defect) is not in this one.
    if (frame === null || plain < frame.plainStart) return null
    return { frameAt: frame.at, frameEnd: frame.end, lineAt: plain - frame.plainStart }
  }

  private ingest(record: DecodedRecord): void {
    const index = this.eventCount
    if (record.kind === 'row') {
      this.eventCount += record.size
      this.lastSeqValue = record.row.seq0 + record.size - 1
      this.fold.pushChunkRun(record.row.seq0, record.size, (k) => expandPackedMember(record.row, k))
      return
    }
    this.eventCount++
    const stored = record.event
    let event = stored
    if (isRecord(event) && MAYBE_LEGACY.has(event.type)) event = this.upgrade(event)
    this.lastSeqValue = (event as { seq?: unknown } | null | undefined)?.seq
    const plan = this.fold.push(event)
    if (!isRecord(event)) return
    if (plan !== undefined) this.surfaceEvents.set(index, surfaceEntry(event))
    this.turns.observe(event, index)
    this.facts.observe(event)
    if (typeof event.type !== 'string' || !READ_TYPES.has(event.type) || !isEventSeq(event.seq)) return
    const text = eventText(event)
    if (text === '') return
    this.pending.push({
      seq: event.seq,
      index,
      type: event.type,
      time: typeof event.time === 'number' && Number.isFinite(event.time) ? event.time : null,
      ...bracketsOf(this.turns, event, index),
      tool: this.facts.toolOf(event),
      isError: isErrorResult(event),
      text,
      // An upgraded legacy event is read back as stored: a place only where that gives the same document.
      place: event === stored || sameDocument(stored, event, text) ? this.placeOf(record.offset) : null,
    })
  }

  /** The harness reader's in-memory upgrade of a legacy shape (as LensLog applies it); a refused one stays as it is. */
  private upgrade(event: LogEvent): LogEvent {
    const id = typeof this.header?.id === 'string' ? this.header.id : String(this.header?.id)
    this.upgrader ??= new LegacyUpgrader(id)
    const result = this.upgrader.upgrade(event)
    return result.ok && result.upgraded ? result.event : event
  }
}

function sameDocument(stored: LogEvent, upgraded: LogEvent, text: string): boolean {
  return isRecord(stored) && stored.type === upgraded.type && stored.seq === upgraded.seq && eventText(stored) === text
}

/** The event types with searchable text (`eventText` gives nothing for any other). */
const READ_TYPES = new Set(['user/message', 'assistant/message', 'tool/call', 'tool/result', 'todo/write', 'turn/end'])

/**
 * What the fold's rewrite check (check 18) reads of a surface node it replaces: a tool result without the payload
 * it ignores (the whole event when that cannot be made, so the check fails as the harness's does); of any other
 * node only its type, which fails the check.
 */
function surfaceEntry(event: LogEvent): unknown {
  if (event.type !== 'tool/result') return { type: event.type }
  return rewriteBase(event) ?? event
}
