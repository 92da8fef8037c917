/**
 * Bytes in, records and diagnostics out, incrementally: the one entry point that
 * the worker, the CLI, the server and the tests use to read a session log.
 *
 * It detects the container by magic (zstd frames or plain JSONL), refuses input that is no log at all (a PNG, a
 * zip, binary data: one `not-a-log` diagnostic and nothing else, see not-a-log.ts), frames lines,
 * judges the header, parses every body line, validates packed rows, and replays
 * the harness's JSONL scanner verdict (reference 1.6) alongside, so a user sees
 * both every record that parses and what the harness itself would do with the
 * file. Nothing here throws on bad input: every defect becomes a diagnostic.
 */

import { SCANNER, ZSTD, HEADER } from '../model/harness-messages.ts'
import type { Diagnostic } from '../model/diagnostic.ts'
import type { LogEncoding, LogEvent, PackedRow, SessionHeader } from '../model/log-event.ts'
import { LineSplitter, MAX_LINE_BYTES, type SplitLine } from './line-splitter.ts'
import { ScannerVerdict } from './scanner-verdict.ts'
import { isPackedRowTag, packedRowSize, validatePackedRow } from './packed-rows.ts'
import { judgeHeaderLine } from './session-header.ts'
import { notALog, notALogDecided } from './not-a-log.ts'
import { notALogMessage } from '../model/not-a-log-message.ts'
import { ZstdContainer, hasZstdMagic, type ContentChecksum, type FrameDecompressor } from './zstd-container.ts'
import { concatBytes } from './concat-bytes.ts'

/** Where a record's text lives: a char range of a decoded string (see SplitLine). */
export interface RecordText {
  readonly source: string
  readonly start: number
  readonly end: number
}

/** One body record: an event, or a packed row standing for `size` chunk events. */
export type DecodedRecord =
  | {
      readonly kind: 'event'
      readonly event: LogEvent
      readonly line: number
      readonly offset: number
      readonly text: RecordText
    }
  | {
      readonly kind: 'row'
      readonly row: PackedRow
      readonly size: number
      readonly line: number
      readonly offset: number
      readonly text: RecordText
    }

export interface DecoderSink {
  header(header: SessionHeader | null, line: number): void
  record(record: DecodedRecord): void
  diagnostic(diagnostic: Diagnostic): void
  /** The decoded-bytes budget stopped the read (once; `DecoderOptions.plainBytesBudget`). */
  budgetReached?(cut: BudgetCut): void
}

/** Where a decoded-bytes budget stopped a read: every line before `keptBytes` was read, nothing after it. */
export interface BudgetCut {
  /** The budget (plaintext bytes). */
  readonly budgetBytes: number
  /** Plaintext bytes of the whole lines kept (<= budgetBytes), header included. */
  readonly keptBytes: number
  /** Lines kept. */
  readonly lines: number
  /** Where in the source the read stopped: the end of the last line kept (plain), the start of the frame the budget
   * fell in (zstd). */
  readonly inputBytes: number
}

export interface DecoderOptions {
  /** zstd content checksum; without it frames are decoded but not verified. */
  readonly checksum?: ContentChecksum
  /** Longest line read (bytes); longer lines are a `line-too-long` defect. Default MAX_LINE_BYTES; tests lower it. */
  readonly maxLineBytes?: number
  /** Decodes each complete zstd frame (default libzstd, fzstd where it cannot answer exactly); see FrameDecompressor. */
  readonly decompressFrame?: FrameDecompressor
  /**
   * Most plaintext bytes read (default: no limit). Past it the read stops at the last line boundary within it,
   * keeps everything before, and ignores the rest of the input (`budgetCut`); zstd frames are decoded only that far.
   */
  readonly plainBytesBudget?: number
}

export interface DecoderProgress {
  /** Container bytes consumed (compressed bytes for zstd). */
  readonly inputBytes: number
  /** Plaintext bytes framed into lines. */
  readonly plainBytes: number
  readonly lines: number
  readonly records: number
  readonly packedRows: number
  readonly encoding: LogEncoding | null
  readonly frames: number
}

const BOM = [0xef, 0xbb, 0xbf]

export class SessionDecoder {
  private encoding: LogEncoding | null = null
  private readonly splitter: LineSplitter
  private zstd: ZstdContainer | undefined
  private sniff: Uint8Array[] = []
  private sniffed = 0
  private inputBytes = 0
  private records = 0
  private packedRows = 0
  private headerSeen = false
  private bomChecked = false
  private finished = false
  private readonly scanner: ScannerVerdict
  private cut: BudgetCut | null = null
  private bomSkipped = false
  /** The input is no session log (`not-a-log`): its bytes are counted, never read. */
  private refused = false

  constructor(
    private readonly sink: DecoderSink,
    private readonly options: DecoderOptions = {},
  ) {
    this.splitter = new LineSplitter((line) => this.onLine(line), options.maxLineBytes ?? MAX_LINE_BYTES)
    this.scanner = new ScannerVerdict((d) => this.sink.diagnostic(d))
  }

  get progress(): DecoderProgress {
    return {
      inputBytes: this.inputBytes,
      plainBytes: this.splitter.bytes,
      lines: this.splitter.lines,
      records: this.records,
      packedRows: this.packedRows,
      encoding: this.encoding,
      frames: this.zstd?.frames ?? 0,
    }
  }

  /** Where the decoded-bytes budget stopped the read, or null. */
  get budgetCut(): BudgetCut | null {
    return this.cut
  }

  push(chunk: Uint8Array): void {
    if (this.finished || this.cut !== null || chunk.length === 0) return
    this.inputBytes += chunk.length
    if (this.refused) return
    if (this.encoding === null) {
      // Hold the first bytes until they decide: the 4-byte zstd magic, a log's `{`, or the first KiB for the rest.
      this.sniff.push(chunk.slice())
      this.sniffed += chunk.length
      const head = concatBytes(this.sniff, this.sniffed)
      this.sniff = [head]
      if (this.sniffed >= 4 && hasZstdMagic(head)) this.start(head)
      else if (notALogDecided(head)) this.start(head)
      return
    }
    this.route(chunk)
  }

  finish(): void {
    if (this.finished) return
    if (this.encoding === null && !this.refused) this.start(concatBytes(this.sniff, this.sniffed))
    this.finished = true
    if (this.refused) {
      // One sentence says what the input is; no header, line or scanner verdict about bytes that are no log.
      this.sink.header(null, 1)
      return
    }
    // Past a budget cut the rest was never read: no torn frame or tail, and no verdict about the log's end.
    if (this.cut === null) {
      this.zstd?.finish()
      this.splitter.finish()
    }
    if (!this.headerSeen) {
      this.emit('error', 'header-missing', 1, null, this.encoding === 'zstd' ? ZSTD.empty : HEADER.missing)
      this.sink.header(null, 1)
    }
    if (this.cut === null) this.scanner.finish()
  }

  /** Decide the container from the first bytes (`head`: all of them so far), then read them. */
  private start(head: Uint8Array): void {
    this.sniff = []
    const what = hasZstdMagic(head) ? null : notALog(head)
    if (what !== null) {
      this.refused = true
      this.sink.diagnostic({
        severity: 'error',
        code: 'not-a-log',
        line: null,
        seq: null,
        offset: 0,
        message: notALogMessage(what),
      })
      return
    }
    this.begin(hasZstdMagic(head) ? 'zstd' : 'jsonl')
    this.route(head)
  }

  private begin(encoding: LogEncoding): void {
    this.encoding = encoding
    this.scanner.zstd = encoding === 'zstd'
    if (encoding === 'zstd') {
      this.zstd = new ZstdContainer(
        {
          frame: (plaintext, index) => this.onFrame(plaintext, index, true),
          tornFrame: (plaintext, index) => this.onFrame(plaintext, index, false),
          diagnostic: (d) => this.sink.diagnostic(d),
          budgetFrame: (plaintext, index, offset) => {
            // A frame past the budget: what fits of it is read, then the read stops wherever that left it. Its first
            // part still shows a header frame holding more than the header line.
            const nl = index === 0 ? plaintext.indexOf(0x0a) : -1
            if (nl !== -1 && nl !== plaintext.length - 1) this.emit('error', 'zstd-header-frame', 1, null, ZSTD.headerFrame)
            this.onFrame(plaintext, index, false)
            this.stopAtBudget(offset)
          },
        },
        this.options.checksum,
        this.options.decompressFrame,
        this.options.plainBytesBudget === undefined ? undefined : () => this.room(),
      )
    }
  }

  private route(bytes: Uint8Array): void {
    if (this.zstd !== undefined) this.zstd.push(bytes)
    else this.pushPlain(bytes)
  }

  private onFrame(plaintext: Uint8Array, index: number, complete: boolean): void {
    this.scanner.frameIndex = index
    this.scanner.inCompleteFrame = complete
    if (complete && index === 0) {
      const nl = plaintext.indexOf(0x0a)
      if (nl !== plaintext.length - 1) this.emit('error', 'zstd-header-frame', 1, null, ZSTD.headerFrame)
    }
    if (complete && plaintext.length > 0 && plaintext[plaintext.length - 1] !== 0x0a) {
      this.emit('error', 'zstd-torn-record', this.splitter.lines + 1, null, ZSTD.tornRecord)
    }
    this.pushPlain(plaintext)
  }

  private pushPlain(bytes: Uint8Array): void {
    if (!this.bomChecked && bytes.length > 0) {
      this.bomChecked = true
      if (BOM.every((b, i) => bytes[i] === b)) {
        this.emit(
          'error',
          'bom',
          1,
          null,
          HEADER.invalidJson,
          0,
          'the log starts with a UTF-8 byte order mark: the harness does not strip it, so its JSON.parse of line 1 fails; dsh-lens skips the mark and reads on',
        )
        bytes = bytes.subarray(3)
        this.bomSkipped = true
      }
    }
    const room = this.room()
    if (bytes.length > room) {
      // Keep the whole lines that fit; the line the budget falls in, and all after it, are not read.
      const nl = room > 0 ? bytes.lastIndexOf(0x0a, room - 1) : -1
      if (nl >= 0) this.splitter.push(bytes.subarray(0, nl + 1))
      this.stopAtBudget()
      return
    }
    this.splitter.push(bytes)
  }

  /** Plaintext bytes the budget still takes (0 once it stopped the read). */
  private room(): number {
    if (this.cut !== null) return 0
    return (this.options.plainBytesBudget ?? Infinity) - this.splitter.bytes
  }

  /** @param frameOffset for zstd, the input offset of the frame the budget fell in */
  private stopAtBudget(frameOffset?: number): void {
    if (this.cut !== null) return
    const keptBytes = this.splitter.bytes - this.splitter.pendingBytes
    this.cut = {
      budgetBytes: this.options.plainBytesBudget ?? Infinity,
      keptBytes,
      lines: this.splitter.lines,
      inputBytes: frameOffset ?? this.zstd?.pendingStart ?? keptBytes + (this.bomSkipped ? 3 : 0),
    }
    this.sink.budgetReached?.(this.cut)
  }

  private onLine(line: SplitLine): void {
    if (line.tooLong) {
      this.emit(
        'error',
        'line-too-long',
        line.line,
        null,
        `line ${line.line} is ${line.droppedBytes} bytes, more than dsh-lens reads in one line (${this.options.maxLineBytes ?? MAX_LINE_BYTES} bytes): skipped unparsed`,
        line.offset,
      )
      if (!this.headerSeen) {
        this.headerSeen = true
        this.sink.header(null, line.line)
      } else this.scanner.unparsable(line.line)
      return
    }
    if (line.invalidUtf8) {
      this.emit(
        'warning',
        'invalid-utf8',
        line.line,
        null,
        `line ${line.line} is not valid UTF-8; invalid bytes read as U+FFFD, as the harness's decoder does`,
        line.offset,
      )
    }
    if (line.crlf) {
      this.emit(
        'warning',
        'crlf',
        line.line,
        null,
        `line ${line.line} ends with CRLF; the harness writes LF only (JSON.parse ignores the CR)`,
        line.offset,
      )
    }
    if (!this.headerSeen) {
      this.headerSeen = true
      const verdict = judgeHeaderLine(line.text)
      if (verdict.defect !== undefined)
        this.emit('error', verdict.defect.code, line.line, null, verdict.defect.message, line.offset)
      this.sink.header(verdict.header, line.line)
      // A log whose first line is an event, not a header: the harness refuses it, but a
      // debugger still shows that event (with seq checks as if a header had been there).
      if (verdict.header !== null || !looksLikeEvent(line.text)) return
    }
    const bodyLine = line.line - 1
    if (line.torn) {
      this.emit(
        'warning',
        'torn-tail',
        line.line,
        null,
        `line ${line.line} has no final newline: the harness treats it as a torn tail and drops it`,
        line.offset,
      )
    }
    let value: unknown
    try {
      value = JSON.parse(line.text)
    } catch (error) {
      if (line.torn) return
      if (line.text.trim() === '') {
        this.emit(
          'warning',
          'blank-line',
          line.line,
          null,
          SCANNER.unparsable(bodyLine),
          line.offset,
          `line ${line.line} is blank`,
        )
      } else {
        const detail = error instanceof Error ? error.message : String(error)
        this.emit(
          'error',
          'line-invalid-json',
          line.line,
          null,
          SCANNER.unparsable(bodyLine),
          line.offset,
          `JSON.parse: ${detail}`,
        )
      }
      this.scanner.unparsable(line.line)
      return
    }
    if (typeof value === 'object' && value !== null && isPackedRowTag((value as { type?: unknown }).type)) {
      const tag = (value as { type: 'text-chunks' }).type
      let row: PackedRow
      try {
        row = validatePackedRow(value as Record<string, unknown>, tag)
      } catch (error) {
        const seq0 = (value as { seq0?: unknown }).seq0
        this.emit(
          'error',
          'packed-row-invalid',
          line.line,
          typeof seq0 === 'number' ? seq0 : null,
          (error as Error).message,
          line.offset,
        )
        this.scanner.unparsable(line.line)
        return
      }
      const size = packedRowSize(row)
      this.records++
      this.packedRows++
      this.scanner.accept(row.seq0, size, false, line.line, line.offset)
      this.sink.record({ kind: 'row', row, size, line: line.line, offset: line.offset, text: line })
      return
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.emit(
        'error',
        'record-not-object',
        line.line,
        null,
        `line ${line.line} is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an event object`,
        line.offset,
      )
    }
    const event = (value ?? {}) as LogEvent
    this.records++
    this.scanner.accept(event.seq, 1, event.type === 'turn/end', line.line, line.offset)
    this.sink.record({ kind: 'event', event: value as LogEvent, line: line.line, offset: line.offset, text: line })
  }

  private emit(
    severity: Diagnostic['severity'],
    code: Diagnostic['code'],
    line: number | null,
    seq: number | null,
    message: string,
    offset?: number,
    detail?: string,
  ): void {
    this.sink.diagnostic({
      severity,
      code,
      line,
      seq,
      offset: offset ?? null,
      message,
      ...(detail === undefined ? {} : { detail }),
    })
  }
}

function looksLikeEvent(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) && ('seq' in value || 'seq0' in value)
  } catch {
    return false
  }
}
