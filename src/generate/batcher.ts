/** Assigns seq and time to events and groups them into write batches the way the harness's write-behind does. */

import { packBatch } from './pack.ts'
import type { GeneratedBatch, GeneratedEvent, GeneratedSurfaceOp } from './types.ts'

/**
 * The harness's write-behind window starts at the first pending event and is not
 * reset by later ones; everything appended before it elapses is one durable
 * append (one zstd frame). So frames do not align with turns.
 */
export class Batcher {
  private seq = 0
  private clock: number
  private pending: GeneratedEvent[] = []
  private windowStart = 0
  private readonly closed: GeneratedBatch[] = []

  constructor(
    startTime: number,
    private readonly windowMs: number,
    private readonly pack: boolean,
  ) {
    this.clock = startTime
  }

  /** Seq the next appended event will get. */
  get nextSeq(): number {
    return this.seq
  }

  get now(): number {
    return this.clock
  }

  /** Let wall-clock time pass (model latency, tool runtime, user think time). */
  advance(ms: number): void {
    this.clock += ms
  }

  append(type: string, data: unknown, sourceEventSeqs?: readonly number[], surfaceOp?: GeneratedSurfaceOp): number {
    if (this.pending.length > 0 && this.clock >= this.windowStart + this.windowMs) this.flush()
    if (this.pending.length === 0) this.windowStart = this.clock
    const seq = this.seq++
    // Build with the harness's key order; optional keys are absent, never undefined.
    const event: GeneratedEvent =
      surfaceOp === undefined
        ? { type, seq, time: this.clock, data }
        : sourceEventSeqs === undefined
          ? { type, seq, time: this.clock, data, surfaceOp }
          : { type, seq, time: this.clock, data, sourceEventSeqs, surfaceOp }
    this.pending.push(event)
    return seq
  }

  /** Close the pending batch now (the harness's `session/flush`, or the window elapsing). */
  flush(): void {
    if (this.pending.length === 0) return
    this.closed.push(this.pack ? packBatch(this.pending) : this.pending)
    this.pending = []
  }

  /** Batches closed since the last drain. */
  drain(): GeneratedBatch[] {
    return this.closed.splice(0, this.closed.length)
  }
}
