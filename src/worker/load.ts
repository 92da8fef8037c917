/**
 * One load (a dropped file, a `?log=` download, a byte stream or a live feed) from its first message to its end.
 * The host holds the current load; a newer one supersedes it (its download aborted, its queue dropped), and every
 * step of a load's async work asks `isCurrent()` before it touches the open log again, so a replaced load's late
 * slices, chunks and timers fall away on their own.
 */

export type LoadKind = 'file' | 'url' | 'stream' | 'live'
/** `opening`: a download whose response has not arrived (nothing folded, the open log still holds the last log). */
export type LoadState = 'opening' | 'open' | 'closed'

/**
 * A stream's chunks wait here and are folded one slice per task. A fetch hands the worker a whole file in a burst of
 * messages; folding each as it arrives would queue the first rows' and the cursor's queries behind all of it. A
 * `?log=` reader waits here while `readAhead` bytes are queued (see `waitForRoom`).
 */
export class ChunkQueue {
  private chunks: Uint8Array[] = []
  private bytes = 0
  private wake: (() => void) | null = null
  /** The source said it ended: the load closes once the chunks before that are folded. */
  ended = false

  constructor(private readonly readAhead: number) {}

  get empty(): boolean {
    return this.chunks.length === 0
  }

  push(bytes: Uint8Array): void {
    this.chunks.push(bytes)
    this.bytes += bytes.length
  }

  /** The next slice of at most `limit` bytes (a longer chunk is split), or undefined when none waits. */
  take(limit: number): Uint8Array | undefined {
    const head = this.chunks[0]
    if (head === undefined) return undefined
    const bytes = head.length > limit ? head.subarray(0, limit) : head
    if (bytes === head) this.chunks.shift()
    else this.chunks[0] = head.subarray(limit)
    this.bytes -= bytes.length
    if (this.bytes < this.readAhead) this.resume()
    return bytes
  }

  /** Forget what waits (the load ended or was replaced) and let a waiting reader see it. */
  drop(): void {
    this.chunks = []
    this.bytes = 0
    this.resume()
  }

  /**
   * Read ahead of the fold by a bounded amount only. While a fast download streams in, Chrome runs the worker's
   * network tasks before its posted messages: reading all of it first starved the fold's own continuation and every
   * query until the last byte had arrived. Not reading lets the stream's buffer fill and the network tasks stop.
   */
  async waitForRoom(stillWanted: () => boolean): Promise<void> {
    while (this.bytes >= this.readAhead && stillWanted()) await new Promise<void>((resolve) => (this.wake = resolve))
  }

  private resume(): void {
    const wake = this.wake
    this.wake = null
    wake?.()
  }
}

export class Load {
  state: LoadState
  /** A `cancel` of a file load: its reader stops after the current slice. */
  cancelled = false
  /** This load's drain loop is running: a chunk arriving meanwhile only joins the queue. */
  draining = false
  /** What went out for this load: its first interim summary, its first window (FirstWindow), and when. */
  interimSent = false
  windowSent = false
  progressAt = 0
  summaryAt = 0
  /** A live feed's pending trailing summary. */
  liveTimer: ReturnType<typeof setTimeout> | undefined
  private replaced = false

  constructor(
    readonly id: number,
    readonly kind: LoadKind,
    readonly queue: ChunkQueue,
    /** A download's controller: aborted when the load ends early (cancel, the budget, a newer load). */
    readonly abort: AbortController | null = null,
  ) {
    this.state = kind === 'url' ? 'opening' : 'open'
  }

  /** A newer load took over the open log. */
  get superseded(): boolean {
    return this.replaced
  }

  /** Still the host's load and still taking input. */
  isCurrent(): boolean {
    return !this.replaced && this.state === 'open'
  }

  supersede(): void {
    this.replaced = true
    this.abort?.abort()
    this.queue.drop()
  }

  /** No more input (finished, failed or cancelled). */
  end(): void {
    this.state = 'closed'
    this.queue.drop()
  }
}
