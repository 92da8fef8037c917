/**
 * What a file tail keeps of the records it accepted, so cursors can seek anywhere: a bounded ring of the most recent
 * records (subscribers at the head read from memory) and a sparse `{byteStart, firstSeq}` index (older seqs are
 * re-read from disk from the nearest entry). One per file generation: a reset starts a new one.
 */

import { startSeqOf, recordBytes, type RecordLine } from './record-line.ts'

export interface IndexEntry {
  readonly byteStart: number
  readonly firstSeq: number
}

// JSONL can restart at any line; one index entry per 64 KiB keeps the index small and seeks short.
const JSONL_INDEX_SPACING = 64 * 1024

export class RecordRing {
  private index: IndexEntry[] = []
  private ring: RecordLine[] = []
  private head = 0
  private bytesUsed = 0

  constructor(
    /** Recent records kept in memory, in forwarded text characters; the newest record is always kept. */
    private readonly ringBytes: number,
    /** zstd files are indexed at every frame start, JSONL ones every 64 KiB. */
    private readonly encoding: 'zstd' | 'jsonl',
  ) {}

  /** Keep an accepted record; `indexAt` is where re-reading reproduces it (assembler.ts), or null. */
  push(record: RecordLine, indexAt: number | null): void {
    const last = this.index[this.index.length - 1]
    if (
      indexAt !== null &&
      (last === undefined ||
        (this.encoding === 'zstd' ? indexAt !== last.byteStart : indexAt - last.byteStart >= JSONL_INDEX_SPACING))
    ) {
      this.index.push({ byteStart: indexAt, firstSeq: startSeqOf(record) })
    }
    this.ring.push(record)
    this.bytesUsed += recordBytes(record)
    while (this.bytesUsed > this.ringBytes && this.ring.length - this.head > 1) {
      this.bytesUsed -= recordBytes(this.ring[this.head] as RecordLine)
      this.head++
    }
    // Compact lazily so eviction stays O(1) amortized.
    if (this.head > 4096 && this.head * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.head)
      this.head = 0
    }
  }

  /** First seq still held in memory (Infinity when the ring is empty). */
  get firstSeq(): number {
    const first = this.ring[this.head]
    return first === undefined ? Infinity : startSeqOf(first)
  }

  /** Records in the ring overlapping seqs >= `seq`, in order. */
  from(seq: number): RecordLine[] {
    let lo = this.head
    let hi = this.ring.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.ring[mid] as RecordLine).lastSeq < seq) lo = mid + 1
      else hi = mid
    }
    return this.ring.slice(lo)
  }

  /** Where to start reading to reach `seq`: the latest index entry at or before it, or the file start. */
  seek(seq: number): IndexEntry & { skipHeader: boolean } {
    let lo = 0
    let hi = this.index.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.index[mid] as IndexEntry).firstSeq <= seq) lo = mid + 1
      else hi = mid
    }
    const entry = this.index[lo - 1]
    return entry === undefined ? { byteStart: 0, firstSeq: 0, skipHeader: true } : { ...entry, skipHeader: false }
  }
}
