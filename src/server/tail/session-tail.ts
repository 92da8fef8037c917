/**
 * Follows one session log on disk, shared by every subscription to it: a stat poll decides (fs.watch only
 * hurries it), only complete frames and lines are accepted, a shrink or a new inode/device is a reset,
 * and a sparse {byteStart, firstSeq} index plus a bounded ring of recent records let cursors seek anywhere.
 * A defect in the middle (a bad line, a corrupt frame, missing seqs) is recorded and stepped over: the records
 * after it keep flowing. Only a defect that loses the zstd framing stops reading (until a reset).
 */

import { createHash } from 'node:crypto'
import { constants, watch, type FSWatcher } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { harnessMessages, hasZstdMagic, type ContentChecksum } from '../../core/index.ts'
import type { ResetReason } from '../../live/protocol.ts'
import { PlainLineReader, type PlainLine } from './plain-lines.ts'
import { RecordAssembler, type Defect } from './record-assembler.ts'
import { recordBytes, startSeqOf, type RecordLine } from './record-line.ts'
import type { FollowedLog, LogCursor } from '../stream/subscription.ts'
import { TailCursor } from './tail-cursor.ts'

export interface TailOptions {
  readonly pollMs: number
  readonly checksum?: ContentChecksum
  /** Recent records kept in memory for subscribers at the head; older ones are re-read from disk. */
  readonly ringBytes: number
  readonly readChunkBytes: number
}

export interface TailListener {
  /** New complete records (or the header) arrived. */
  grew(): void
  /** The file's identity changed or it shrank: everything known is void. */
  reset(reason: ResetReason): void
  /** Writer presence, open turn or corruption changed. */
  status(): void
}

export interface IndexEntry {
  readonly byteStart: number
  readonly firstSeq: number
}

// JSONL can restart at any line; one index entry per 64 KiB keeps the index small and seeks short.
const JSONL_INDEX_SPACING = 64 * 1024
// Bytes just before the read position, re-checked on growth to catch an in-place rewrite that did not shrink.
const SEAM_BYTES = 32
/** Defects kept (and told to subscribers) per file generation; later ones are only counted. */
const MAX_DEFECTS = 100

export class SessionTail implements FollowedLog {
  headerLine: string | null = null
  encoding: 'zstd' | 'jsonl' | null = null
  epoch: string | null = null
  headSeq = -1
  turnOpen = false
  missing = false
  /** Set when reading stopped at a defect that loses the framing (the zstd container cannot go on). */
  corrupt: string | undefined
  /** Defects stepped over, in file order (the first MAX_DEFECTS), and how many there were in all. */
  defects: Defect[] = []
  defectTotal = 0
  /** The structural defect that stopped reading, with its offset and code. */
  halt: Defect | undefined
  sizeBytes = 0
  mtimeMs = 0
  /** Completed polls, so tests can wait for "the server has looked N more times". */
  polls = 0
  /** Bumped on every reset, so in-flight reads of the old file know they are stale. */
  generation = 0

  private fh: FileHandle | null = null
  private identity: { dev: number; ino: number; birth: number } | null = null
  private reader: PlainLineReader | null = null
  private assembler: RecordAssembler | null = null
  private readPos = 0
  private index: IndexEntry[] = []
  private ring: RecordLine[] = []
  private ringHead = 0
  private ringBytesUsed = 0
  private readonly listeners = new Set<TailListener>()
  private timer: NodeJS.Timeout | undefined
  private watcher: FSWatcher | undefined
  private polling: Promise<void> | undefined
  private again = false
  private stopped = false
  private grewThisPoll = false
  private seam = new Uint8Array(0)

  constructor(
    readonly path: string,
    private readonly options: TailOptions,
  ) {}

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

  addListener(listener: TailListener): void {
    this.listeners.add(listener)
  }

  removeListener(listener: TailListener): void {
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

  /** First seq still held in memory (Infinity when the ring is empty). */
  get ringFirstSeq(): number {
    const first = this.ring[this.ringHead]
    return first === undefined ? Infinity : startSeqOf(first)
  }

  /** Records in the ring overlapping seqs >= `seq`, in order. */
  ringFrom(seq: number): RecordLine[] {
    let lo = this.ringHead
    let hi = this.ring.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.ring[mid] as RecordLine).lastSeq < seq) lo = mid + 1
      else hi = mid
    }
    return this.ring.slice(lo)
  }

  /** Where to start reading to reach `seq`: the latest index entry at or before it, or the file start. */
  seek(seq: number): IndexEntry & { skipHeader: boolean } {
    let lo = 0
    let hi = this.index.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.index[mid] as IndexEntry).firstSeq <= seq) lo = mid + 1
      else hi = mid
    }
    const entry = this.index[lo - 1]
    return entry === undefined ? { byteStart: 0, firstSeq: 0, skipHeader: true } : { ...entry, skipHeader: false }
  }

  /** Bytes accepted so far: cursors never read past what the tail itself has judged. */
  get committedBytes(): number {
    return this.readPos
  }

  /** Positional read of the current file identity (never re-opens by path, so a replaced file cannot leak in). */
  async readAt(position: number, length: number, generation: number): Promise<Uint8Array | null> {
    if (generation !== this.generation || this.fh === null) return null
    const buffer = new Uint8Array(Math.max(0, Math.min(length, this.readPos - position)))
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
    if (this.identity !== null && (st.dev !== this.identity.dev || st.ino !== this.identity.ino)) await this.reset('replaced')
    else if (this.identity !== null && st.size < this.readPos && !(await this.withdrawTornTail(st.size)))
      await this.reset('truncated')
    if (this.identity === null) {
      try {
        // O_NONBLOCK: a path swapped for a FIFO after the guard's check must not hang a thread-pool thread on open.
        this.fh = await open(this.path, constants.O_RDONLY | constants.O_NONBLOCK)
      } catch {
        return
      }
      const fst = await this.fh.stat()
      if (!fst.isFile()) {
        await this.closeFile()
        this.markCorrupt('the path is no longer a regular file; nothing is read from it', 'load-rule', 0)
        return
      }
      this.identity = { dev: fst.dev, ino: fst.ino, birth: fst.birthtimeMs }
    }
    if (this.identity !== null && this.readPos > 0 && st.size > this.readPos && !(await this.seamIntact())) {
      // Same inode, not shorter, yet the bytes we already judged changed: a truncate-and-rewrite between polls.
      await this.reset('truncated')
      return this.pollOnce()
    }
    this.sizeBytes = st.size
    this.mtimeMs = st.mtimeMs
    this.grewThisPoll = false
    const turnBefore = this.turnOpen
    await this.readNew(st.size)
    if (this.grewThisPoll) for (const l of [...this.listeners]) l.grew()
    if (turnBefore !== this.turnOpen) this.emitStatus()
  }

  /**
   * The file shrank, but only by bytes never emitted (a torn frame or line the writer left when it died, cut off by
   * the harness's repair on restart): read on from the last complete frame or line instead of resetting everyone.
   */
  private async withdrawTornTail(size: number): Promise<boolean> {
    const reader = this.reader
    const committed = reader?.committedEnd ?? null
    if (reader === null || this.encoding === null || committed === null || size < committed || this.fh === null) return false
    if (this.corrupt !== undefined) return false
    this.reader = new PlainLineReader(
      this.encoding,
      committed,
      {
        line: (l) => this.onLine(l),
        defect: (d) => this.assembler?.frame(d),
        corrupt: (message, diagnostic, offset) => this.markCorrupt(message, diagnostic, offset),
      },
      this.options.checksum,
      reader.lineCount,
    )
    this.readPos = committed
    const from = Math.max(0, committed - SEAM_BYTES)
    const seam = new Uint8Array(committed - from)
    const { bytesRead } = await this.fh.read(seam, 0, seam.length, from)
    this.seam = seam.subarray(0, bytesRead)
    return true
  }

  /** Whether the last bytes already read are still on disk unchanged. */
  private async seamIntact(): Promise<boolean> {
    const from = Math.max(0, this.readPos - SEAM_BYTES)
    const saved = this.seam
    if (this.fh === null || saved.length !== this.readPos - from) return true
    const now = new Uint8Array(saved.length)
    const { bytesRead } = await this.fh.read(now, 0, now.length, from)
    return bytesRead === now.length && now.every((b, i) => b === saved[i])
  }

  private async readNew(size: number): Promise<void> {
    const fh = this.fh
    if (fh === null || this.corrupt !== undefined) return
    const generation = this.generation
    while (this.readPos < size && generation === this.generation && !this.stopped) {
      const length = Math.min(this.options.readChunkBytes, size - this.readPos)
      if (this.encoding === null && size < 4) return // the magic decides the container: wait for it
      const buffer = new Uint8Array(length)
      const { bytesRead } = await fh.read(buffer, 0, length, this.readPos)
      if (bytesRead === 0 || generation !== this.generation) return
      const bytes = buffer.subarray(0, bytesRead)
      if (this.reader === null) {
        this.encoding = hasZstdMagic(bytes) ? 'zstd' : 'jsonl'
        const assembler = new RecordAssembler(0, {
          record: (record, indexAt) => this.onRecord(record, indexAt),
          defect: (defect) => this.onDefect(defect),
        })
        this.assembler = assembler
        this.reader = new PlainLineReader(
          this.encoding,
          0,
          {
            line: (l) => this.onLine(l),
            defect: (d) => assembler.frame(d),
            corrupt: (message, diagnostic, offset) => this.markCorrupt(message, diagnostic, offset),
          },
          this.options.checksum,
        )
      }
      this.readPos += bytesRead
      this.keepSeam(bytes)
      this.reader.push(bytes)
    }
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
      this.grewThisPoll = true
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
    const last = this.index[this.index.length - 1]
    if (
      indexAt !== null &&
      (last === undefined ||
        (this.encoding === 'zstd' ? indexAt !== last.byteStart : indexAt - last.byteStart >= JSONL_INDEX_SPACING))
    ) {
      this.index.push({ byteStart: indexAt, firstSeq: startSeqOf(record) })
    }
    this.headSeq = record.lastSeq
    if (record.turn !== undefined) this.turnOpen = record.turn === 'start'
    this.pushRing(record)
    this.grewThisPoll = true
  }

  private pushRing(record: RecordLine): void {
    this.ring.push(record)
    this.ringBytesUsed += recordBytes(record)
    while (this.ringBytesUsed > this.options.ringBytes && this.ring.length - this.ringHead > 1) {
      this.ringBytesUsed -= recordBytes(this.ring[this.ringHead] as RecordLine)
      this.ringHead++
    }
    // Compact lazily so eviction stays O(1) amortized.
    if (this.ringHead > 4096 && this.ringHead * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.ringHead)
      this.ringHead = 0
    }
  }

  private onDefect(defect: Defect): void {
    this.defectTotal++
    if (this.defects.length < MAX_DEFECTS) {
      this.defects.push(defect)
      this.emitStatus()
    }
  }

  private markCorrupt(message: string, diagnostic: Defect['diagnostic'], offset: number): void {
    if (this.corrupt !== undefined) return
    this.corrupt = message
    this.halt = { diagnostic, message, offset, afterSeq: this.headSeq }
    this.emitStatus()
  }

  private emitStatus(): void {
    for (const l of [...this.listeners]) l.status()
  }

  private async reset(reason: ResetReason): Promise<void> {
    await this.closeFile()
    this.generation++
    this.identity = null
    this.reader = null
    this.readPos = 0
    this.index = []
    this.ring = []
    this.ringHead = 0
    this.ringBytesUsed = 0
    this.headSeq = -1
    this.turnOpen = false
    this.headerLine = null
    this.encoding = null
    this.epoch = null
    this.corrupt = undefined
    this.halt = undefined
    this.defects = []
    this.defectTotal = 0
    this.assembler = null
    this.seam = new Uint8Array(0)
    for (const l of [...this.listeners]) l.reset(reason)
  }

  private async closeFile(): Promise<void> {
    const fh = this.fh
    this.fh = null
    await fh?.close().catch(() => undefined)
  }
}
