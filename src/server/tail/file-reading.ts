/**
 * One reading of a followed file, from its first byte to a reset (session-tail.ts decides when that is): the open
 * handle and its identity, the plain-line reader and record assembler, the ring and seek index of what was accepted,
 * the header and epoch, the defects stepped over, and the last bytes read (the seam that shows a rewrite in place).
 * A reset drops the whole object for a fresh one, so nothing of the old file can leak into the new.
 */

import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { harnessMessages, hasZstdMagic, type ContentChecksum } from '../../core/index.ts'
import type { Defect } from './followed-log.ts'
import { PlainLineReader, type PlainLine } from './plain-lines.ts'
import { RecordAssembler } from './record-assembler.ts'
import type { RecordLine } from './record-line.ts'
import { RecordRing, type IndexEntry } from './record-ring.ts'

export interface ReadingOptions {
  readonly checksum?: ContentChecksum
  readonly ringBytes: number
  readonly readChunkBytes: number
}

// Bytes just before the read position, re-checked on growth to catch an in-place rewrite that did not shrink.
const SEAM_BYTES = 32
/** Defects kept (and told to subscribers) per reading; later ones are only counted. */
const MAX_DEFECTS = 100

export class FileReading {
  identity: { readonly dev: number; readonly ino: number; readonly birth: number } | null = null
  headerLine: string | null = null
  encoding: 'zstd' | 'jsonl' | null = null
  epoch: string | null = null
  headSeq = -1
  turnOpen = false
  /** Set when reading stopped at a defect that loses the framing (the zstd container cannot go on). */
  corrupt: string | undefined
  /** The structural defect that stopped reading, with its offset and code. */
  halt: Defect | undefined
  /** Defects stepped over, in file order (the first MAX_DEFECTS), and how many there were in all. */
  readonly defects: Defect[] = []
  defectTotal = 0
  /** Bytes accepted so far: cursors never read past what the reading itself has judged. */
  readPos = 0
  /** Records (or the header) were accepted since the flag was last cleared. */
  grew = false
  private fh: FileHandle | null = null
  private reader: PlainLineReader | null = null
  private assembler: RecordAssembler | null = null
  private ring: RecordRing | null = null
  private seam = new Uint8Array(0)

  constructor(
    /** The tail's generation this reading belongs to (it names the epoch). */
    private readonly generation: number,
    private readonly options: ReadingOptions,
    /** Writer-visible status changed (a defect, corruption). */
    private readonly statusChanged: () => void,
  ) {}

  /** Opens `path`; false when it cannot be read (yet) or is no longer a regular file (then it says so, once). */
  async open(path: string): Promise<boolean> {
    try {
      // O_NONBLOCK: a path swapped for a FIFO after the guard's check must not hang a thread-pool thread on open.
      this.fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
    } catch {
      return false
    }
    const fst = await this.fh.stat()
    if (!fst.isFile()) {
      await this.close()
      this.markCorrupt('the path is no longer a regular file; nothing is read from it', 'load-rule', 0)
      return false
    }
    this.identity = { dev: fst.dev, ino: fst.ino, birth: fst.birthtimeMs }
    return true
  }

  async close(): Promise<void> {
    const fh = this.fh
    this.fh = null
    await fh?.close().catch(() => undefined)
  }

  get ringFirstSeq(): number {
    return this.ring?.firstSeq ?? Infinity
  }

  ringFrom(seq: number): RecordLine[] {
    return this.ring?.from(seq) ?? []
  }

  seek(seq: number): IndexEntry & { skipHeader: boolean } {
    return this.ring?.seek(seq) ?? { byteStart: 0, firstSeq: 0, skipHeader: true }
  }

  /** Positional read of this reading's file (never re-opened by path, so a replaced file cannot leak in). */
  async readAt(position: number, length: number): Promise<Uint8Array | null> {
    if (this.fh === null) return null
    const buffer = new Uint8Array(Math.max(0, Math.min(length, this.readPos - position)))
    if (buffer.length === 0) return buffer
    try {
      const { bytesRead } = await this.fh.read(buffer, 0, buffer.length, position)
      return buffer.subarray(0, bytesRead)
    } catch {
      return null
    }
  }

  /** Reads what is new up to `size` while `current()` holds (the tail was neither reset nor stopped). */
  async readNew(size: number, current: () => boolean): Promise<void> {
    const fh = this.fh
    if (fh === null || this.corrupt !== undefined) return
    while (this.readPos < size && current()) {
      const length = Math.min(this.options.readChunkBytes, size - this.readPos)
      if (this.encoding === null && size < 4) return // the magic decides the container: wait for it
      const buffer = new Uint8Array(length)
      const { bytesRead } = await fh.read(buffer, 0, length, this.readPos)
      if (bytesRead === 0 || !current()) return
      const bytes = buffer.subarray(0, bytesRead)
      if (this.reader === null) {
        const encoding = hasZstdMagic(bytes) ? 'zstd' : 'jsonl'
        this.encoding = encoding
        this.ring = new RecordRing(this.options.ringBytes, encoding)
        this.assembler = new RecordAssembler(0, {
          record: (record, indexAt) => this.onRecord(record, indexAt),
          defect: (defect) => this.onDefect(defect),
        })
        this.reader = this.newReader(encoding, 0)
      }
      this.readPos += bytesRead
      this.keepSeam(bytes)
      this.reader.push(bytes)
    }
  }

  /**
   * The file shrank, but only by bytes never emitted (a torn frame or line the writer left when it died, cut off by
   * the harness's repair on restart): read on from the last complete frame or line. False: it is a real truncation.
   */
  async withdrawTornTail(size: number): Promise<boolean> {
    const reader = this.reader
    const committed = reader?.committedEnd ?? null
    if (reader === null || this.encoding === null || committed === null || size < committed || this.fh === null) return false
    if (this.corrupt !== undefined) return false
    this.reader = this.newReader(this.encoding, committed, reader.lineCount)
    this.readPos = committed
    const from = Math.max(0, committed - SEAM_BYTES)
    const seam = new Uint8Array(committed - from)
    const { bytesRead } = await this.fh.read(seam, 0, seam.length, from)
    this.seam = seam.subarray(0, bytesRead)
    return true
  }

  /** Whether the last bytes already read are still on disk unchanged. */
  async seamIntact(): Promise<boolean> {
    const from = Math.max(0, this.readPos - SEAM_BYTES)
    const saved = this.seam
    if (this.fh === null || saved.length !== this.readPos - from) return true
    const now = new Uint8Array(saved.length)
    const { bytesRead } = await this.fh.read(now, 0, now.length, from)
    return bytesRead === now.length && now.every((b, i) => b === saved[i])
  }

  private newReader(encoding: 'zstd' | 'jsonl', from: number, lineCount?: number): PlainLineReader {
    return new PlainLineReader(
      encoding,
      from,
      {
        line: (l) => this.onLine(l),
        defect: (d) => this.assembler?.frame(d),
        corrupt: (message, diagnostic, offset) => this.markCorrupt(message, diagnostic, offset),
      },
      this.options.checksum,
      lineCount,
    )
  }

  private keepSeam(bytes: Uint8Array): void {
    if (bytes.length >= SEAM_BYTES) {
      this.seam = bytes.slice(bytes.length - SEAM_BYTES)
      return
    }
    const joined = new Uint8Array(this.seam.length + bytes.length)
    joined.set(this.seam)
    joined.set(bytes, this.seam.length)
    this.seam = joined.slice(Math.max(0, joined.length - SEAM_BYTES))
  }

  private onLine(line: PlainLine): void {
    if (this.corrupt !== undefined) return
    if (this.headerLine === null) {
      this.headerLine = line.text
      const id = this.identity
      const digest = createHash('sha256')
        .update(`${id?.dev}:${id?.ino}:${id?.birth}:${line.text}`)
        .digest('base64url')
        .slice(0, 16)
      // The generation suffix makes an in-place truncate-and-regrow a new epoch even with an identical header.
      this.epoch = `e:${digest}${this.generation === 0 ? '' : `.${this.generation}`}`
      this.grew = true
      return
    }
    // Line 2 out of the header's own frame: a log compressed in one piece (the `zstd` command), which the harness's
    // framing does not expect. Read on, and say so with the core's diagnostic.
    if (this.encoding === 'zstd' && line.line === 2 && !line.resumable) {
      this.onDefect({
        diagnostic: 'zstd-header-frame',
        message: harnessMessages.ZSTD.headerFrame,
        offset: 0,
        line: 1,
        afterSeq: -1,
      })
    }
    this.assembler?.line(line)
  }

  private onRecord(record: RecordLine, indexAt: number | null): void {
    this.ring?.push(record, indexAt)
    this.headSeq = record.lastSeq
    if (record.turn !== undefined) this.turnOpen = record.turn === 'start'
    this.grew = true
  }

  private onDefect(defect: Defect): void {
    this.defectTotal++
    if (this.defects.length < MAX_DEFECTS) {
      this.defects.push(defect)
      this.statusChanged()
    }
  }

  private markCorrupt(message: string, diagnostic: Defect['diagnostic'], offset: number): void {
    if (this.corrupt !== undefined) return
    this.corrupt = message
    this.halt = { diagnostic, message, offset, afterSeq: this.headSeq }
    this.statusChanged()
  }
}
