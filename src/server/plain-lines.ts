/**
 * Container bytes in, complete plaintext lines out, from any resumable offset: a zstd frame start or a
 * JSONL line start. Built on the core's ZstdContainer and LineSplitter; a frame still being written and
 * a line without its newline are held, never emitted, because `finish()` is deliberately never called.
 */

import { LineSplitter, ZstdContainer, type ContentChecksum } from '../core/index.ts'

export interface PlainLine {
  readonly text: string
  /** File offset to restart reading at to see this line again: its frame's start (zstd) or its own start (JSONL). */
  readonly resumeAt: number
  /** True for the first line of a zstd frame or any JSONL line: a place the index may point at. */
  readonly resumable: boolean
}

export interface PlainLineSink {
  line(line: PlainLine): void
  /** A structural defect: nothing after it can be trusted, so the caller stops reading. */
  corrupt(message: string): void
}

export class PlainLineReader {
  private readonly splitter: LineSplitter
  private readonly zstd: ZstdContainer | undefined
  private frameStart = 0
  private firstInFrame = false
  private failed = false
  private fed = 0

  constructor(
    readonly encoding: 'zstd' | 'jsonl',
    /** Absolute file offset of the first byte pushed. */
    private readonly base: number,
    private readonly sink: PlainLineSink,
    checksum: ContentChecksum | undefined,
  ) {
    this.splitter = new LineSplitter((line) => {
      if (this.failed) return
      if (encoding === 'zstd') {
        const resumable = this.firstInFrame
        this.firstInFrame = false
        this.sink.line({ text: line.text, resumeAt: this.frameStart, resumable })
      } else {
        this.sink.line({ text: line.text, resumeAt: this.base + line.offset, resumable: true })
      }
    })
    if (encoding === 'zstd') {
      this.zstd = new ZstdContainer(
        {
          frame: (plaintext, _index, offset) => {
            if (this.failed) return
            this.frameStart = this.base + offset
            this.firstInFrame = true
            this.splitter.push(plaintext)
            // The harness writes whole records per frame; a record spilling over a frame boundary is corruption.
            if (this.splitter.pendingBytes > 0) this.fail(`zstd frame at byte ${this.frameStart} ends inside a JSONL record`)
          },
          tornFrame: () => undefined,
          diagnostic: (d) => {
            if (d.severity === 'error') this.fail(d.message)
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

  get broken(): boolean {
    return this.failed
  }

  push(bytes: Uint8Array): void {
    if (this.failed) return
    this.fed += bytes.length
    if (this.zstd !== undefined) this.zstd.push(bytes)
    else this.splitter.push(bytes)
  }

  private fail(message: string): void {
    if (this.failed) return
    this.failed = true
    this.sink.corrupt(message)
  }
}
