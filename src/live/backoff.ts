/** Reconnect delays: exponential (500 ms x2, capped at 10 s) with full jitter, so many viewers never reconnect in step. */

export interface BackoffOptions {
  readonly initialMs?: number
  readonly factor?: number
  readonly maxMs?: number
  readonly random?: () => number
}

export class Backoff {
  private attempt = 0
  private readonly initialMs: number
  private readonly factor: number
  private readonly maxMs: number
  private readonly random: () => number

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 500
    this.factor = options.factor ?? 2
    this.maxMs = options.maxMs ?? 10_000
    this.random = options.random ?? Math.random
  }

  /** The next delay: uniform in [0, min(max, initial * factor^attempt)). */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.initialMs * this.factor ** this.attempt)
    this.attempt++
    return Math.floor(this.random() * ceiling)
  }

  /** After a connection that got as far as `welcome`. */
  reset(): void {
    this.attempt = 0
  }
}
