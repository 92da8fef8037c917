/**
 * Paces the questions a strip above the timeline asks the worker as the log changes (the context chart's series, the
 * time lanes): at most one in flight, at most one per interval (a slower one while a file still loads, so the load
 * keeps the worker), the latest wish always asked last. A large answer built in slices comes back incomplete: the
 * rest is asked for at once when the log is loaded, and an incomplete answer is shown at most once per second
 * (drawing each slice kept the page busy). While the user moves the cursor, nothing is asked or shown until it has
 * been still for a moment: a redraw is a long main-thread task on a large log and each query takes the worker's time
 * the cursor's own answers wait behind.
 *
 * No React, no DOM: time comes from an injected clock, so the rules are tested with a fake one.
 */

export interface PacerClock {
  now(): number
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const browserClock: PacerClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export interface PacerTiming {
  /** Between two questions once the log is loaded (or live). */
  readonly requeryMs: number
  /** Between two questions while a file or URL still loads. */
  readonly loadingRequeryMs: number
  /** An incomplete answer is shown at most this often (the first and the complete one always). */
  readonly partialShowMs: number
  /** The cursor must have been still this long. */
  readonly scrubQuietMs: number
}

export const PACER_TIMING: PacerTiming = {
  requeryMs: 250,
  loadingRequeryMs: 1000,
  partialShowMs: 1000,
  scrubQuietMs: 300,
}

export interface PacerHandlers<Q, A> {
  /** Ask the worker. */
  readonly ask: (question: Q) => Promise<A>
  /** An answer to draw. */
  readonly show: (answer: A) => void
  /** Whether the answer is whole (else the rest is asked for). */
  readonly complete: (answer: A) => boolean
  readonly onError?: (error: unknown) => void
}

export class QueryPacer<Q, A> {
  private question: Q | null = null
  /** The log is loaded (or live): the faster pace, and an incomplete answer's rest is asked for at once. */
  private settled = false
  private inFlight = false
  private pending = false
  private lastAt = -Infinity
  private timer: unknown = null
  private partialShownAt = -Infinity
  private cursorMovedAt = -Infinity
  private disposed = false

  constructor(
    private readonly handlers: PacerHandlers<Q, A>,
    private readonly clock: PacerClock = browserClock,
    private readonly timing: PacerTiming = PACER_TIMING,
  ) {}

  /** The inputs changed (a new summary, a new width): `question` is what to ask now. */
  wish(question: Q, settled: boolean): void {
    this.question = question
    this.settled = settled
    this.schedule()
  }

  /** The user moved the cursor (not the cursor following a growing log). */
  cursorMoved(): void {
    this.cursorMovedAt = this.clock.now()
  }

  dispose(): void {
    this.disposed = true
    if (this.timer !== null) this.clock.clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(): void {
    if (this.timer !== null || this.disposed || this.question === null) return
    const interval = this.settled ? this.timing.requeryMs : this.timing.loadingRequeryMs
    this.timer = this.clock.setTimeout(() => this.run(), Math.max(0, interval - (this.clock.now() - this.lastAt)))
  }

  private run(): void {
    this.timer = null
    if (this.disposed || this.question === null) return
    if (this.inFlight) {
      this.pending = true
      return
    }
    const scrubbing = this.cursorMovedAt + this.timing.scrubQuietMs - this.clock.now()
    if (scrubbing > 0) {
      this.timer = this.clock.setTimeout(() => this.run(), scrubbing)
      return
    }
    this.inFlight = true
    this.lastAt = this.clock.now()
    this.handlers
      .ask(this.question)
      .then((answer) => this.received(answer), this.handlers.onError ?? (() => undefined))
      .finally(() => {
        this.inFlight = false
        if (this.pending) {
          this.pending = false
          this.schedule()
        }
      })
  }

  private received(answer: A): void {
    if (this.disposed) return
    const now = this.clock.now()
    const complete = this.handlers.complete(answer)
    if (now - this.cursorMovedAt < this.timing.scrubQuietMs) {
      // Asked before the cursor started moving: dropped, asked again once it is still (the worker's answer only
      // grows, so the later one holds at least this one).
      this.pending = true
      this.lastAt = -Infinity
    } else if (complete || now - this.partialShownAt >= this.timing.partialShowMs) {
      if (!complete) this.partialShownAt = now
      this.handlers.show(answer)
    }
    if (!complete) {
      this.pending = true
      if (this.settled) this.lastAt = -Infinity
    }
  }
}
