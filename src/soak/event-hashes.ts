/**
 * Per-seq content hashes of a log's events, the soak's oracle: every record line is expanded to its events
 * (packed rows by the core's own expansion) and each event's JSON is hashed (FNV-1a, 32 bits). Two parties
 * that hash the same event at the same seq agree; a lost, doubled or altered event shows up by seq.
 */

import { expandPackedRow, isPackedRowTag, validatePackedRow } from '../core/index.ts'

export function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** The (seq, hash) of each event a record line stands for; nothing for a line that is not a record. */
export function* lineEvents(line: string): Generator<{ seq: number; hash: number }> {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return
  }
  if (typeof value !== 'object' || value === null) return
  const record = value as Record<string, unknown>
  const type = record['type']
  if (isPackedRowTag(type)) {
    for (const event of expandPackedRow(validatePackedRow(record, type))) {
      yield { seq: (event as { seq: number }).seq, hash: fnv1a(JSON.stringify(event)) }
    }
    return
  }
  if (typeof record['seq'] === 'number') yield { seq: record['seq'], hash: fnv1a(line) }
}

/** Seq-indexed hashes and delivery counts, grown as needed (a 1.2M-event soak is ~6 MB per party). */
export class SeqLedger {
  hashes = new Uint32Array(1 << 16)
  counts = new Uint8Array(1 << 16)
  /** Highest seq seen, -1 before any. */
  top = -1
  duplicates = 0
  mismatches = 0

  record(seq: number, hash: number): void {
    if (seq >= this.hashes.length) this.grow(seq + 1)
    if (this.counts[seq] !== 0) {
      this.duplicates++
      if (this.hashes[seq] !== hash) this.mismatches++
    } else this.hashes[seq] = hash
    if ((this.counts[seq] as number) < 255) this.counts[seq] = (this.counts[seq] as number) + 1
    if (seq > this.top) this.top = seq
  }

  /** Seqs in 0..through that were never recorded. */
  gapsThrough(through: number): number {
    let gaps = 0
    for (let s = 0; s <= through; s++) if (s >= this.counts.length || this.counts[s] === 0) gaps++
    return gaps
  }

  /** Seqs in 0..through whose hash differs from `truth` (both having it). */
  differencesFrom(truth: SeqLedger, through: number): number {
    let n = 0
    for (let s = 0; s <= Math.min(through, this.top, truth.top); s++) {
      if (this.counts[s] !== 0 && truth.counts[s] !== 0 && this.hashes[s] !== truth.hashes[s]) n++
    }
    return n
  }

  /** A ledger from a follower process's dump (counts, then hashes, `top` entries each). */
  static fromDump(bytes: Uint8Array, top: number): SeqLedger {
    const ledger = new SeqLedger()
    ledger.grow(Math.max(1, top))
    ledger.counts.set(bytes.subarray(0, top))
    ledger.hashes.set(new Uint32Array(bytes.buffer.slice(bytes.byteOffset + top, bytes.byteOffset + top * 5)))
    ledger.top = top - 1
    return ledger
  }

  private grow(min: number): void {
    let size = this.hashes.length
    while (size < min) size *= 2
    const hashes = new Uint32Array(size)
    hashes.set(this.hashes)
    const counts = new Uint8Array(size)
    counts.set(this.counts)
    this.hashes = hashes
    this.counts = counts
  }
}
