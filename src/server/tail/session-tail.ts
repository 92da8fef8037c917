/**
 * Follows one session log on disk, shared by every subscription to it: a stat poll decides (fs.watch only
 * hurries it), only complete frames and lines are accepted, a shrink or a new inode/device is a reset,
 * and the accepted records go to a ring and a seek index (record-ring.ts) from which cursors read anywhere.
 * A defect in the middle (a bad line, a corrupt frame, missing seqs) is recorded and stepped over: the records
 * after it keep flowing. Only a defect that loses the zstd framing stops reading (until a reset).
 *
 * Everything known about one reading of the file lives in one `FileReading`; a reset drops it for a fresh one.
 */

import { createHash } from 'node:crypto'
import { constants, watch, type FSWatcher } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { harnessMessages, hasZstdMagic, type ContentChecksum } from '../../core/index.ts'
import type { ResetReason } from '../../live/protocol.ts'
import type { Defect, FollowListener, FollowedLog, LogCursor } from './followed-log.ts'
import { PlainLineReader, type PlainLine } from './plain-lines.ts'
import { RecordAssembler } from './record-assembler.ts'
import type { RecordLine } from './record-line.ts'
import { RecordRing, type IndexEntry } from './record-ring.ts'
import { TailCursor, type CursorSource } from './tail-cursor.ts'

export interface TailOptions {
  readonly pollMs: number
  readonly checksum?: ContentChecksum
  /** Recent records kept in memory for subscribers at the head; older ones are re-read from disk. */
  readonly ringBytes: number
  readonly readChunkBytes: number
}

// Bytes just before the read position, re-checked on growth to catch an in-place rewrite that did not shrink.
const SEAM_BYTES = 32
/** Defects kept (and told to subscribers) per file generation; later ones are only counted. */
const MAX_DEFECTS = 100

/** One reading of the file, from its first byte to a reset. */
interface FileReading {
  identity: { dev: number; ino: number; birth: number } | null
  reader: PlainLineReader | null
  assembler: RecordAssembler | null
  ring: RecordRing | null
  readPos: number
  headerLine: string | null
  encoding: 'zstd' | 'jsonl' | null
  epoch: string | null
  headSeq: number
  turnOpen: boolean
  corrupt: string | undefined
  halt: Defect | undefined
  defects: Defect[]
  defectTotal: number
  /** The last bytes read (at most SEAM_BYTES), to see a rewrite in place. */
  seam: Uint8Array
}

function freshReading(): FileReading {
  return {
    identity: null,
    reader: null,
    assembler: null,
    ring: null,
    readPos: 0,
    headerLine: null,
    encoding: null,
    epoch: null,
    headSeq: -1,
    turnOpen: false,
    corrupt: undefined,
    halt: undefined,
    defects: [],
    defectTotal: 0,
    seam: new Uint8Array(0),
  }
}

export class SessionTail implements FollowedLog, CursorSource {
  missing = false
  sizeBytes = 0
  mtimeMs = 0
  /** Completed polls, so tests can wait for "the server has looked N more times". */
  polls = 0
  /** Bumped on every reset, so in-flight reads of the old file know they are stale. */
  generation = 0

  private file = freshReading()
  private fh: FileHandle | null = null
  private readonly listeners = new Set<FollowListener>()
  private timer: NodeJS.Timeout | undefined
  private watcher: FSWatcher | undefined
  private polling: Promise<void> | undefined
  private again = false
  private stopped = false
  private grewThisPoll = false

  constructor(
    readonly path: string,
    private readonly options: TailOptions,
  ) {}

  get headerLine(): string | null {
    return this.file.headerLine
  }
  get encoding(): 'zstd' | 'jsonl' | null {
    return this.file.encoding
  }
  get epoch(): string | null {
    return this.file.epoch
  }
  get headSeq(): number {
    return this.file.headSeq
  }
  get turnOpen(): boolean {
    return this.file.turnOpen
  }
  /** Set when reading stopped at a defect that loses the framing (the zstd container cannot go on). */
  get corrupt(): string | undefined {
    return this.file.corrupt
  }
  /** Defects stepped over, in file order (the first MAX_DEFECTS). */
  get defects(): readonly Defect[] {
    return this.file.defects
  }
  /** How many defects there were in all. */
  get defectTotal(): number {
    return this.file.defectTotal
  }
  get halt(): Defect | undefined {
    return this.file.halt
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.options.pollMs)
    this.timer.unref()
    try {
      // A hint only: inotify misses network mounts and hard-link/rename arrivals; the poll is the truth.
      this.watcher = watch(dirname(this.path), { persistent: false }, () => void this.poll())
      this.watcher.on('error', () => this.watcher?.close())
    } catch {
      this.watcher = undefined
    }
    void this.poll()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    this.watcher?.close()
    await this.polling
    await this.closeFile()
  }

  openCursor(fromSeq: number, checksum: ContentChecksum | undefined): LogCursor {
    return new TailCursor(this, fromSeq, checksum)
  }

  addListener(listener: FollowListener): void {
    this.listeners.add(listener)
  }

  removeListener(listener: FollowListener): void {
    this.listeners.delete(listener)
  }

  get listenerCount(): number {
    return this.listeners.size
  }

  /** Resolves after at least one full poll that started after this call. */
  async settle(): Promise<void> {
    const target = this.polls + (this.polling === undefined ? 1 : 2)
    while (this.polls < target && !this.stopped) await this.poll()
  }

  get ringFirstSeq(): number {
    return this.file.ring?.firstSeq ?? Infinity
  }

  ringFrom(seq: number): RecordLine[] {
    return this.file.ring?.from(seq) ?? []
  }

  seek(seq: number): IndexEntry & { skipHeader: boolean } {
    return this.file.ring?.seek(seq) ?? { byteStart: 0, firstSeq: 0, skipHeader: true }
  }

  /** Bytes accepted so far: cursors never read past what the tail itself has judged. */
  get committedBytes(): number {
    return this.file.readPos
  }

  /** Positional read of the current file identity (never re-opens by path, so a replaced file cannot leak in). */
  async readAt(position: number, length: number, generation: number): Promise<Uint8Array | null> {
    if (generation !== this.generation || this.fh === null) return null
    const buffer = new Uint8Array(Math.max(0, Math.min(length, this.file.readPos - position)))
    if (buffer.length === 0) return buffer
    try {
      const { bytesRead } = await this.fh.read(buffer, 0, buffer.length, position)
      return generation === this.generation ? buffer.subarray(0, bytesRead) : null
    } catch {
      return null
    }
  }

  /** One poll, serialized: a poll requested while one runs makes it run once more. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    if (this.polling !== undefined) {
      this.again = true
      return this.polling
    }
    this.polling = (async () => {
      try {
        do {
          this.again = false
          await this.pollOnce()
          this.polls++
        } while (this.again && !this.stopped)
      } finally {
        this.polling = undefined
      }
    })()
    return this.polling
  }

  private async pollOnce(): Promise<void> {
    let st
    try {
      st = await stat(this.path, { bigint: false })
    } catch {
      if (!this.missing) {
        this.missing = true
        this.emitStatus()
      }
      return
    }
    if (this.missing) {
      this.missing = false
      this.emitStatus()
    }
    const known = this.file.identity
    if (known !== null && (st.dev !== known.dev || st.ino !== known.ino)) await this.reset('replaced')
    else if (known !== null && st.size < this.file.readPos && !(await this.withdrawTornTail(st.size)))
      await this.reset('truncated')
    if (this.file.identity === null && !(await this.openFile())) return
    const file = this.file
    if (file.readPos > 0 && st.size > file.readPos && !(await this.seamIntact())) {
      // Same inode, not shorter, yet the bytes we already judged changed: a truncate-and-rewrite between polls.
      await this.reset('truncated')
      return this.pollOnce()
    }
    this.sizeBytes = st.size
    this.mtimeMs = st.mtimeMs
    this.grewThisPoll = false
    const turnBefore = file.turnOpen
    await this.readNew(st.size)
    if (this.grewThisPoll) for (const l of [...this.listeners]) l.grew()
    if (turnBefore !== this.file.turnOpen) this.emitStatus()
  }

  /** Opens the path for this reading; false when it cannot be read (yet) or is no longer a regular file. */
  private async openFile(): Promise<boolean> {
    try {
      // O_NONBLOCK: a path swapped for a FIFO after the guard's check must not hang a thread-pool thread on open.
      this.fh = await open(this.path, constants.O_RDONLY | constants.O_NONBLOCK)
    } catch {
      return false
    }
    const fst = await this.fh.stat()
    if (!fst.isFile()) {
      await this.closeFile()
      this.markCorrupt('the path is no longer a regular file; nothing is read from it', 'load-rule', 0)
      return false
    }
    this.file.identity = { dev: fst.dev, ino: fst.ino, birth: fst.birthtimeMs }
    return true
  }

  /**
   * The file shrank, but only by bytes never emitted (a torn frame or line the writer left when it died, cut off by
   * the harness's repair on restart): read on from the last complete frame or line instead of resetting everyone.
   */
  private async withdrawTornTail(size: number): Promise<boolean> {
    const file = this.file
    const reader = file.reader
    const committed = reader?.committedEnd ?? null
    if (reader === null || file.encoding === null || committed === null || size < committed || this.fh === null) return false
    if (file.corrupt !== undefined) return false
    file.reader = this.newReader(file.encoding, committed, reader.lineCount)
    file.readPos = committed
    const from = Math.max(0, committed - SEAM_BYTES)
    const seam = new Uint8Array(committed - from)
    const { bytesRead } = await this.fh.read(seam, 0, seam.length, from)
    file.seam = seam.subarray(0, bytesRead)
    return true
  }

  /** Whether the last bytes already read are still on disk unchanged. */
  private async seamIntact(): Promise<boolean> {
    const from = Math.max(0, this.file.readPos - SEAM_BYTES)
    const saved = this.file.seam
    if (this.fh === null || saved.length !== this.file.readPos - from) return true
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
        defect: (d) => this.file.assembler?.frame(d),
        corrupt: (message, diagnostic, offset) => this.markCorrupt(message, diagnostic, offset),
      },
      this.options.checksum,
      lineCount,
    )
  }

  private async readNew(size: number): Promise<void> {
    const fh = this.fh
    const file = this.file
    if (fh === null || file.corrupt !== undefined) return
    const generation = this.generation
    while (file.readPos < size && generation === this.generation && !this.stopped) {
      const length = Math.min(this.options.readChunkBytes, size - file.readPos)
      if (file.encoding === null && size < 4) return // the magic decides the container: wait for it
      const buffer = new Uint8Array(length)
      const { bytesRead } = await fh.read(buffer, 0, length, file.readPos)
      if (bytesRead === 0 || generation !== this.generation) return
      const bytes = buffer.subarray(0, bytesRead)
      if (file.reader === null) {
        const encoding = hasZstdMagic(bytes) ? 'zstd' : 'jsonl'
        file.encoding = encoding
        file.ring = new RecordRing(this.options.ringBytes, encoding)
        file.assembler = new RecordAssembler(0, {
          record: (record, indexAt) => this.onRecord(record, indexAt),
          defect: (defect) => this.onDefect(defect),
        })
        file.reader = this.newReader(encoding, 0)
      }
      file.readPos += bytesRead
      this.keepSeam(bytes)
      file.reader.push(bytes)
    }
  }

  private keepSeam(bytes: Uint8Array): void {
    const file = this.file
    if (bytes.length >= SEAM_BYTES) {
      file.seam = bytes.slice(bytes.length - SEAM_BYTES)
      return
    }
    const joined = new Uint8Array(file.seam.length + bytes.length)
    joined.set(file.seam)
    joined.set(bytes, file.seam.length)
    file.seam = joined.slice(Math.max(0, joined.length - SEAM_BYTES))
  }

  private onLine(line: PlainLine): void {
    const file = this.file
    if (file.corrupt !== undefined) return
    if (file.headerLine === null) {
      file.headerLine = line.text
      const id = file.identity
      const digest = createHash('sha256')
        .update(`${id?.dev}:${id?.ino}:${id?.birth}:${line.text}`)
        .digest('base64url')
        .slice(0, 16)
      // The generation suffix makes an in-place truncate-and-regrow a new epoch even with an identical header.
      file.epoch = `e:${digest}${this.generation === 0 ? '' : `.${this.generation}`}`
      this.grewThisPoll = true
      return
    }
    // Line 2 out of the header's own frame: a log compressed in one piece (the `zstd` command), which the harness's
    // framing does not expect. Read on, and say so with the core's diagnostic.
    if (file.encoding === 'zstd' && line.line === 2 && !line.resumable) {
      this.onDefect({
        diagnostic: 'zstd-header-frame',
        message: harnessMessages.ZSTD.headerFrame,
        offset: 0,
        line: 1,
        afterSeq: -1,
      })
    }
    file.assembler?.line(line)
  }

  private onRecord(record: RecordLine, indexAt: number | null): void {
    const file = this.file
    file.ring?.push(record, indexAt)
    file.headSeq = record.lastSeq
    if (record.turn !== undefined) file.turnOpen = record.turn === 'start'
    this.grewThisPoll = true
  }

  private onDefect(defect: Defect): void {
    const file = this.file
    file.defectTotal++
    if (file.defects.length < MAX_DEFECTS) {
      file.defects.push(defect)
      this.emitStatus()
    }
  }

  private markCorrupt(message: string, diagnostic: Defect['diagnostic'], offset: number): void {
    const file = this.file
    if (file.corrupt !== undefined) return
    file.corrupt = message
    file.halt = { diagnostic, message, offset, afterSeq: file.headSeq }
    this.emitStatus()
  }

  private emitStatus(): void {
    for (const l of [...this.listeners]) l.status()
  }

  private async reset(reason: ResetReason): Promise<void> {
    await this.closeFile()
    this.generation++
    this.file = freshReading()
    for (const l of [...this.listeners]) l.reset(reason)
  }

  private async closeFile(): Promise<void> {
    const fh = this.fh
    this.fh = null
    await fh?.close().catch(() => undefined)
  }
}
