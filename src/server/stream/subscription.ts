/**
 * One `sub` on one connection: picks resume or full snapshot, then pumps appends from its cursor while it
 * has credit (acked seq + window) and the socket's buffered bytes stay under the high-water mark. Nothing
 * is queued per subscription: when it may not send, it simply stops reading, and its position is its seq.
 */

import type { ContentChecksum } from '../../core/index.ts'
import type { ResetReason, ServerMessage } from '../../live/protocol.ts'
import type { Defect, FollowListener, FollowedLog, LogCursor } from '../tail/followed-log.ts'

export interface SubscriptionHost {
  send(message: ServerMessage): void
  readonly bufferedAmount: number
  readonly open: boolean
  /** Ask to be pumped again soon: the socket buffer is above the high-water mark. */
  retryLater(): void
}

export interface StreamLimits {
  readonly highWaterBytes: number
  readonly maxBatchEvents: number
  readonly maxBatchBytes: number
  readonly checksum?: ContentChecksum
}

export type Paused = 'credit' | 'backpressure' | null

interface Want {
  readonly fromSeq: number
  readonly epoch?: string
}

export class Subscription implements FollowListener {
  paused: Paused = null
  sentBytes = 0
  private cursor: LogCursor | null = null
  private ackedSeq = -1
  private epoch: string | null = null
  private liveSent = false
  private waiting: Want | null
  private pumping = false
  private again = false
  private closed = false
  private lastCorrupt: string | undefined
  /** How many of the tail's defects this subscription has told its client about. */
  private defectsSent = 0
  private lastStatus = ''

  constructor(
    readonly sub: string,
    readonly tail: FollowedLog,
    private readonly host: SubscriptionHost,
    private readonly limits: StreamLimits,
    private readonly window: number,
    want: Want,
  ) {
    this.waiting = want
  }

  start(): void {
    this.tail.addListener(this)
    this.tryBegin()
    this.status()
  }

  close(): void {
    this.closed = true
    this.tail.removeListener(this)
  }

  /** Last seq handed to the socket (for pings and tests). */
  get sentSeq(): number {
    return this.cursor === null ? -1 : this.cursor.nextSeq - 1
  }

  get acked(): number {
    return this.ackedSeq
  }

  ack(seq: number): void {
    if (this.cursor === null || seq <= this.ackedSeq) return
    // Acking seqs never sent would grant credit for data the client cannot have.
    this.ackedSeq = Math.min(seq, this.cursor.nextSeq - 1)
    void this.pump()
  }

  grew(): void {
    if (this.waiting !== null) this.tryBegin()
    else void this.pump()
  }

  reset(reason: ResetReason): void {
    if (this.closed) return
    this.cursor = null
    this.epoch = null
    this.defectsSent = 0
    this.lastCorrupt = undefined
    this.waiting = { fromSeq: 0 }
    this.host.send({ type: 'reset', sub: this.sub, epoch: null, reason })
  }

  status(): void {
    if (this.closed) return
    const t = this.tail
    const host = t.host
    const key = `${t.missing}:${t.turnOpen}${host === undefined ? '' : `:${host.upstream}:${host.title}`}`
    if (key !== this.lastStatus) {
      this.lastStatus = key
      const writer = t.missing ? 'missing' : 'active'
      this.host.send({
        type: 'status',
        sub: this.sub,
        writer,
        turnOpen: t.turnOpen,
        headSeq: t.headSeq,
        sizeBytes: t.sizeBytes,
        mtimeMs: t.mtimeMs,
        ...(host === undefined ? {} : { source: 'dsh-web', running: host.running, title: host.title, upstream: host.upstream }),
      })
    }
    // Each defect once, with where it is: the stream goes on with the records after it.
    while (this.defectsSent < t.defects.length) {
      const d = t.defects[this.defectsSent++] as Defect
      const message = `the log has a defect after seq ${d.afterSeq}: ${d.message}; the events after it keep coming`
      this.host.send({
        type: 'error',
        sub: this.sub,
        code: 'corrupt',
        message,
        fatal: false,
        ...(d.line === undefined ? {} : { line: d.line }),
        offset: d.offset,
        diagnostic: d.diagnostic,
      })
    }
    const halt = t.halt
    if (t.corrupt !== undefined && t.corrupt !== this.lastCorrupt) {
      this.lastCorrupt = t.corrupt
      const message = `the log is corrupt after seq ${t.headSeq}: ${t.corrupt}; streaming stops here until the file is repaired (reset)`
      const where = halt === undefined ? {} : { offset: halt.offset, diagnostic: halt.diagnostic }
      this.host.send({ type: 'error', sub: this.sub, code: 'corrupt', message, fatal: false, ...where })
    }
  }

  private tryBegin(): void {
    const want = this.waiting
    const tail = this.tail
    if (want === null || this.closed || tail.epoch === null || tail.headerLine === null) return
    this.waiting = null
    let from = want.fromSeq
    let mode: 'full' | 'resume' = from === 0 ? 'full' : 'resume'
    const epochMismatch = want.epoch !== undefined && want.epoch !== tail.epoch
    if (epochMismatch || from > tail.headSeq + 1) {
      // The client's seqs belong to another file or run past this one: it must drop them and start over.
      this.host.send({
        type: 'reset',
        sub: this.sub,
        epoch: tail.epoch,
        reason: epochMismatch ? 'epoch-mismatch' : 'ahead-of-file',
      })
      from = 0
      mode = 'full'
    }
    this.epoch = tail.epoch
    this.cursor = tail.openCursor(from, this.limits.checksum)
    this.ackedSeq = from - 1
    this.liveSent = false
    let sessionId: string | null = null
    try {
      const header = JSON.parse(tail.headerLine) as { id?: unknown }
      sessionId = typeof header.id === 'string' ? header.id : null
    } catch {
      sessionId = null
    }
    this.host.send({
      type: 'snapshot',
      sub: this.sub,
      epoch: tail.epoch,
      sessionId,
      headerLine: tail.headerLine,
      encoding: tail.encoding ?? 'jsonl',
      fromSeq: from,
      headSeq: tail.headSeq,
      mode,
    })
    void this.pump()
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    try {
      do {
        this.again = false
        await this.pumpOnce()
      } while (this.again && !this.closed)
    } finally {
      this.pumping = false
    }
  }

  private async pumpOnce(): Promise<void> {
    for (;;) {
      const cursor = this.cursor
      const epoch = this.epoch
      if (this.closed || !this.host.open || cursor === null || epoch === null) return
      if (cursor.nextSeq > this.tail.headSeq) {
        this.paused = null
        if (!this.liveSent) {
          this.liveSent = true
          this.host.send({ type: 'live', sub: this.sub, lastSeq: cursor.nextSeq - 1 })
        }
        return
      }
      const credit = this.ackedSeq + this.window - cursor.nextSeq + 1
      if (credit <= 0) {
        this.paused = 'credit'
        return
      }
      if (this.host.bufferedAmount > this.limits.highWaterBytes) {
        this.paused = 'backpressure'
        this.host.retryLater()
        return
      }
      this.paused = null
      const batch = await cursor.next(Math.min(credit, this.limits.maxBatchEvents), this.limits.maxBatchBytes)
      // A reset or re-subscribe while reading makes this batch stale: drop it, the new state takes over.
      if (batch === null || this.cursor !== cursor || this.epoch !== epoch || this.closed) return
      this.sentBytes += batch.bytes
      this.host.send({ type: 'append', sub: this.sub, epoch, fromSeq: batch.fromSeq, toSeq: batch.toSeq, lines: batch.lines })
    }
  }

  /** Re-run the pump (after backpressure cleared). */
  kick(): void {
    void this.pump()
  }
}
