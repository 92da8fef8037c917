/**
 * Container bytes in, complete plaintext lines out, from any resumable offset: a zstd frame start or a
 * JSONL line start. Built on the core's ZstdContainer and LineSplitter; a frame still being written and
 * a line without its newline are held, never emitted, because `finish()` is deliberately never called.
 * A damaged frame whose extent is still known (bad content, a record cut at its end) is reported and stepped
 * over; only a defect that loses the framing itself (bad magic, reserved bits) stops the reader.
 */

import { LineSplitter, ZstdContainer, type ContentChecksum, type DiagnosticCode } from '../../core/index.ts'

export interface PlainLine {
  readonly text: string
  /** File offset to restart reading at to see this line again: its frame's start (zstd) or its own start (JSONL). */
  readonly resumeAt: number
  /** True for the first line of a zstd frame or any JSONL line: a place the index may point at. */
  readonly resumable: boolean
  /** 1-based plaintext line number counted from the reader's start (the file's line number when it starts at 0). */
  readonly line: number
}

export interface ReaderDefect {
  readonly diagnostic: DiagnosticCode
  readonly message: string
  /** File offset of the damaged frame (zstd) or line. */
  readonly offset: number
  /** Whether lines were lost (a corrupt frame, whose offset is then a place reading can restart at). */
  readonly loses: boolean
  /** Whether reading can restart at `offset` and see the same lines (not when a record from before runs into it). */
  readonly restartable: boolean
}

export interface PlainLineSink {
  line(line: PlainLine): void
  /** A damaged stretch that was stepped over (its lines are lost); reading goes on after it. */
  defect(defect: ReaderDefect): void
  /** A structural defect: nothing after it can be framed, so the caller stops reading. */
  corrupt(message: string, diagnostic: DiagnosticCode, offset: number): void
}

export class PlainLineReader {
  private readonly splitter: LineSplitter
  private readonly zstd: ZstdContainer | undefined
  private frameStart = 0
  private firstInFrame = false
  private failed = false
  private fed = 0
  private lines = 0
  private continues = false

  constructor(
    readonly encoding: 'zstd' | 'jsonl',
    /** Absolute file offset of the first byte pushed. */
    private readonly base: number,
    private readonly sink: PlainLineSink,
    checksum: ContentChecksum | undefined,
    /** Lines already read before `base` (so line numbers stay the file's when a reader restarts mid-file). */
    linesBefore = 0,
  ) {
    this.lines = linesBefore
    this.splitter = this.newSplitter()
    if (encoding === 'zstd') {
      this.zstd = new ZstdContainer(
        {
          frame: (plaintext, _index, offset) => {
            if (this.failed) return
            this.frameStart = this.base + offset
            // A frame that continues the previous frame's last record is no place to restart reading.
            this.firstInFrame = !this.continues
            this.splitter.push(plaintext)
            // The harness writes whole records per frame; a record spilling over a frame boundary is a defect.
            // As in the core's decoder, the record is still joined with the next frame's start; nothing is lost.
            this.continues = this.splitter.pendingBytes > 0
            if (this.continues) {
              this.sink.defect({
                diagnostic: 'zstd-torn-record',
                message: `zstd frame at byte ${this.frameStart} ends inside a JSONL record (line ${this.lines + 1}); it is joined with the next frame`,
                offset: this.frameStart,
                loses: false,
                restartable: false,
              })
            }
          },
          tornFrame: () => undefined,
          diagnostic: (d) => {
            if (d.severity !== 'error' || this.failed) return
            const offset = this.base + (d.offset ?? 0)
            // A corrupt frame's extent is known from its block headers: skip it and go on with the next frame.
            if (d.code === 'zstd-frame-corrupt')
              this.sink.defect({ diagnostic: d.code, message: d.message, offset, loses: true, restartable: !this.continues })
            else this.fail(d.message, d.code, offset)
          },
        },
        checksum,
      )
    }
  }

  /** Bytes pushed so far (absolute end offset). */
  get end(): number {
    return this.base + this.fed
  }

  /** Plaintext bytes of an unterminated last JSONL line (zstd frames in progress are not counted). */
  get heldBytes(): number {
    return this.encoding === 'jsonl' ? this.splitter.pendingBytes : 0
  }

  /** Lines emitted so far, `linesBefore` included. */
  get lineCount(): number {
    return this.lines
  }

  /**
   * Absolute offset up to which every byte belongs to a complete frame or line (what follows is held back), or
   * null when no clean restart point exists there (a record running from one frame into the next).
   */
  get committedEnd(): number | null {
    if (this.zstd === undefined) return this.end - this.splitter.pendingBytes
    return this.continues ? null : this.base + this.zstd.pendingStart
  }

  get broken(): boolean {
    return this.failed
  }

  push(bytes: Uint8Array): void {
    if (this.failed) return
    this.fed += bytes.length
    if (this.zstd !== undefined) this.zstd.push(bytes)
    else this.splitter.push(bytes)
  }

  private newSplitter(): LineSplitter {
    return new LineSplitter((line) => {
      if (this.failed) return
      const n = ++this.lines
      if (this.encoding === 'zstd') {
        const resumable = this.firstInFrame
        this.firstInFrame = false
        this.sink.line({ text: line.text, resumeAt: this.frameStart, resumable, line: n })
      } else {
        this.sink.line({ text: line.text, resumeAt: this.base + line.offset, resumable: true, line: n })
      }
    })
  }

  private fail(message: string, diagnostic: DiagnosticCode, offset: number): void {
    if (this.failed) return
    this.failed = true
    this.sink.corrupt(message, diagnostic, offset)
  }
}
