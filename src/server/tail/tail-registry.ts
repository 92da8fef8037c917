/** One SessionTail per real path, shared by all subscriptions and reference-counted. */

import type { ContentChecksum } from '../../core/index.ts'
import { SessionTail, type TailOptions } from './session-tail.ts'

export class TailRegistry {
  private readonly tails = new Map<string, { tail: SessionTail; refs: number }>()

  constructor(private readonly options: TailOptions & { readonly checksum?: ContentChecksum }) {}

  acquire(path: string): SessionTail {
    let entry = this.tails.get(path)
    if (entry === undefined) {
      const tail = new SessionTail(path, this.options)
      tail.start()
      entry = { tail, refs: 0 }
      this.tails.set(path, entry)
    }
    entry.refs++
    return entry.tail
  }

  release(tail: SessionTail): void {
    const entry = this.tails.get(tail.path)
    if (entry === undefined || entry.tail !== tail) return
    if (--entry.refs > 0) return
    this.tails.delete(tail.path)
    void tail.stop()
  }

  /** The live tails, for diagnostics and tests. */
  list(): SessionTail[] {
    return [...this.tails.values()].map((e) => e.tail)
  }

  async closeAll(): Promise<void> {
    const all = [...this.tails.values()]
    this.tails.clear()
    await Promise.all(all.map((e) => e.tail.stop()))
  }
}
