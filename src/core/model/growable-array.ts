/**
 * Append-only typed-array vectors. The fold keeps per-node and per-slot facts in
 * these rather than in object arrays: a 1.3M-event log then costs a few bytes per
 * surface node and nothing per chunk event (issue 5's memory target).
 */

import { countAtMost } from './sorted-search.ts'

abstract class GrowableArray<A extends Int32Array | Float64Array> {
  protected data: A
  length = 0

  constructor(initialCapacity: number) {
    this.data = this.allocate(Math.max(16, initialCapacity))
  }

  protected abstract allocate(capacity: number): A

  push(value: number): number {
    if (this.length === this.data.length) {
      const next = this.allocate(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    this.data[this.length] = value
    return this.length++
  }

  get(index: number): number {
    return this.data[index] as number
  }

  set(index: number, value: number): void {
    this.data[index] = value
  }

  /** Number of leading values `<= bound`; the vector must be sorted ascending. */
  countAtMost(bound: number): number {
    return countAtMost(this.data, bound, this.length)
  }

  /** Index of `value` in a vector sorted ascending, or -1. */
  indexOfSorted(value: number): number {
    const i = this.countAtMost(value) - 1
    return i >= 0 && this.data[i] === value ? i : -1
  }

  /** A copy of the used part, safe to hand to another thread. */
  toArray(): A {
    return this.data.slice(0, this.length) as A
  }

  /** Bytes held, for the memory benchmark. */
  get byteLength(): number {
    return this.data.byteLength
  }
}

export class Int32Vector extends GrowableArray<Int32Array> {
  protected allocate(capacity: number): Int32Array {
    return new Int32Array(capacity)
  }
}

/** Float64 storage for values that are safe integers but may exceed 2^31 (seqs of hostile logs). */
export class Float64Vector extends GrowableArray<Float64Array> {
  protected allocate(capacity: number): Float64Array {
    return new Float64Array(capacity)
  }
}
