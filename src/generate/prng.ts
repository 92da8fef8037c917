/** Seeded PRNG (mulberry32) so every generated log is reproducible from its seed. */

/** A small deterministic random source; the same seed always yields the same log. */
export class Rng {
  private state: number

  constructor(seed: number) {
    // Mix the seed once so nearby seeds (1, 2, 3) do not start on correlated streams.
    this.state = (seed ^ 0x9e3779b9) >>> 0
    this.next()
  }

  /** Uniform float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }

  /**
   * Log-normal sample around `median` (sigma in natural-log units), clamped to [min, max]:
   * tool output and message lengths are heavy-tailed, not uniform.
   */
  logNormal(median: number, sigma: number, min: number, max: number): number {
    // Box-Muller; 1 - next() keeps the log argument away from 0.
    const z = Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next())
    return Math.min(max, Math.max(min, Math.round(median * Math.exp(sigma * z))))
  }

  /** A UUID-shaped id (version 4 layout), as the harness uses for message and session ids. */
  uuid(): string {
    const hex = (n: number): string => {
      let s = ''
      for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)]
      return s
    }
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[this.int(0, 3)]}${hex(3)}-${hex(12)}`
  }
}
