/**
 * One SessionTail per real path, shared by all subscriptions and reference-counted, plus the cheap
 * "is a turn open" facts the session list needs for files nobody is following (one scan, cached by size+mtime).
 */

import type { ContentChecksum } from '../core/index.ts'
import { SessionTail, type TailOptions } from './session-tail.ts'

interface Summary {
  readonly size: number
  readonly mtimeMs: number
  readonly facts: { turnOpen: boolean; lastSeq: number }
}

/** Files larger than this are summarized only while tailed: the list must stay fast. */
const SUMMARY_SCAN_LIMIT = 32 * 1024 * 1024

export class TailRegistry {
  private readonly tails = new Map<string, { tail: SessionTail; refs: number }>()
  private readonly summaries = new Map<string, Summary>()

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

  /** For the session list: what a live tail knows, else a cached one-off scan of a small file. */
  async facts(path: string, size: number, mtimeMs: number): Promise<{ turnOpen: boolean; lastSeq: number } | undefined> {
    const live = this.tails.get(path)?.tail
    if (live !== undefined && live.epoch !== null) return { turnOpen: live.turnOpen, lastSeq: live.headSeq }
    const cached = this.summaries.get(path)
    if (cached !== undefined && cached.size === size && cached.mtimeMs === mtimeMs) return cached.facts
    if (size > SUMMARY_SCAN_LIMIT) return undefined
    const scan = new SessionTail(path, this.options)
    await scan.poll()
    const facts = { turnOpen: scan.turnOpen, lastSeq: scan.headSeq }
    await scan.stop()
    this.summaries.set(path, { size, mtimeMs, facts })
    return facts
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
