/**
 * Follows one session log on disk, shared by every subscription to it: a stat poll decides (fs.watch only
 * hurries it), only complete frames and lines are accepted, a shrink or a new inode/device is a reset,
 * and a sparse {byteStart, firstSeq} index plus a bounded ring of recent records let cursors seek anywhere.
 * A defect in the middle (a bad line, a corrupt frame, missing seqs) is recorded and stepped over: the records
 * after it keep flowing. Only a defect that loses the zstd framing stops reading (until a reset).
 *
 * This file decides when the file changed and tells the listeners; what one reading of the file knows is a
 * `FileReading` (file-reading.ts), which a reset drops for a fresh one.
 */

import { watch, type FSWatcher } from 'node:fs'
import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { ContentChecksum } from '../../core/index.ts'
import type { ResetReason } from '../../live/protocol.ts'
import { FileReading, type ReadingOptions } from './file-reading.ts'
import type { Defect, FollowListener, FollowedLog, LogCursor } from './followed-log.ts'
import type { RecordLine } from './record-line.ts'
import type { IndexEntry } from './record-ring.ts'
import { TailCursor, type CursorSource } from './tail-cursor.ts'

export interface TailOptions extends ReadingOptions {
  readonly pollMs: number
}

export class SessionTail implements FollowedLog, CursorSource {
  missing = false
  sizeBytes = 0
  mtimeMs = 0
  /** Completed polls, so tests can wait for "the server has looked N more times". */
  polls = 0
  /** Bumped on every reset, so in-flight reads of the old file know they are stale. */
  generation = 0

  private file: FileReading
  private readonly listeners = new Set<FollowListener>()
  private timer: NodeJS.Timeout | undefined
  private watcher: FSWatcher | undefined
  private polling: Promise<void> | undefined
  private again = false
  private stopped = false

  constructor(
    readonly path: string,
    private readonly options: TailOptions,
  ) {
    this.file = this.newReading()
  }

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
  get corrupt(): string | undefined {
    return this.file.corrupt
  }
  get defects(): readonly Defect[] {
    return this.file.defects
  }
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
    await this.file.close()
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
    return this.file.ringFirstSeq
  }

  ringFrom(seq: number): RecordLine[] {
    return this.file.ringFrom(seq)
  }

  seek(seq: number): IndexEntry & { skipHeader: boolean } {
    return this.file.seek(seq)
  }

  get committedBytes(): number {
    return this.file.readPos
  }

  /** Positional read of the current file identity (never re-opens by path, so a replaced file cannot leak in). */
  async readAt(position: number, length: number, generation: number): Promise<Uint8Array | null> {
    if (generation !== this.generation) return null
    const bytes = await this.file.readAt(position, length)
    return generation === this.generation ? bytes : null
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
    else if (known !== null && st.size < this.file.readPos && !(await this.file.withdrawTornTail(st.size)))
      await this.reset('truncated')
    if (this.file.identity === null && !(await this.file.open(this.path))) return
    const file = this.file
    if (file.readPos > 0 && st.size > file.readPos && !(await file.seamIntact())) {
      // Same inode, not shorter, yet the bytes we already judged changed: a truncate-and-rewrite between polls.
      await this.reset('truncated')
      return this.pollOnce()
    }
    this.sizeBytes = st.size
    this.mtimeMs = st.mtimeMs
    file.grew = false
    const turnBefore = file.turnOpen
    const generation = this.generation
    await file.readNew(st.size, () => generation === this.generation && !this.stopped)
    if (file.grew) for (const l of [...this.listeners]) l.grew()
    if (turnBefore !== this.file.turnOpen) this.emitStatus()
  }

  private newReading(): FileReading {
    return new FileReading(this.generation, this.options, () => this.emitStatus())
  }

  private emitStatus(): void {
    for (const l of [...this.listeners]) l.status()
  }

  private async reset(reason: ResetReason): Promise<void> {
    await this.file.close()
    this.generation++
    this.file = this.newReading()
    for (const l of [...this.listeners]) l.reset(reason)
  }
}
