/**
 * Where a decoded log's records live: positions in the decoded text, never parsed
 * objects. Every line is parsed once on the way in (to check and fold it), then
 * only (text block, char range, first event index, line) is kept: a 1.3M-event
 * log is a few large strings plus typed arrays. A record is parsed again when
 * something asks for it, behind a small cache. Parsed objects kept for such a log
 * would cost several times the text in heap, and promoting them through the
 * young generation costs more than parsing did.
 */

import type { RecordText } from '../decode/session-decoder.ts'
import { Int32Vector } from '../model/growable-array.ts'

/** Parsed records recently asked for; rows are asked member by member, so this is what makes that cheap. */
const RECORD_CACHE_SIZE = 256

/** What readers outside the log may use: positions and text, never the mutators. */
export type RecordTextView = Pick<
  RecordStore,
  'length' | 'isRow' | 'firstIndexOf' | 'lineOf' | 'text' | 'blockOf' | 'startOf' | 'endOf' | 'blockText'
>

export class RecordStore {
  private readonly blocks: string[] = []
  private readonly block = new Int32Vector(1024)
  private readonly start = new Int32Vector(1024)
  private readonly end = new Int32Vector(1024)
  /** 1 when the record is a packed row. */
  private readonly row = new Int32Vector(1024)
  private readonly firstIndex = new Int32Vector(1024)
  private readonly line = new Int32Vector(1024)
  private readonly cache = new Map<number, unknown>()

  /** Number of records. */
  get length(): number {
    return this.firstIndex.length
  }

  /** Add a record whose first event has index `index`; returns the record's number. */
  add(text: RecordText, index: number, line: number, isRow: boolean): number {
    if (this.blocks.at(-1) !== text.source) this.blocks.push(text.source)
    this.block.push(this.blocks.length - 1)
    this.start.push(text.start)
    this.end.push(text.end)
    this.row.push(isRow ? 1 : 0)
    this.line.push(line)
    return this.firstIndex.push(index)
  }

  /** The record holding event `index` (binary search), or -1 before the first. */
  recordOf(index: number): number {
    return this.firstIndex.countAtMost(index) - 1
  }

  isRow(record: number): boolean {
    return this.row.get(record) === 1
  }

  firstIndexOf(record: number): number {
    return this.firstIndex.get(record)
  }

  lineOf(record: number): number {
    return this.line.get(record)
  }

  /** The record's text exactly as decoded. */
  text(record: number): string {
    return (this.blocks[this.block.get(record)] as string).slice(this.start.get(record), this.end.get(record))
  }

  /** Block (decoded text chunk) holding `record`, and the record's char range in it: for search's raw-text pass. */
  blockOf(record: number): number {
    return this.block.get(record)
  }

  startOf(record: number): number {
    return this.start.get(record)
  }

  endOf(record: number): number {
    return this.end.get(record)
  }

  /** A whole decoded block: records of one block are contiguous and in order, so a scan needs no per-record slice. */
  blockText(block: number): string {
    return this.blocks[block] as string
  }

  /** The record's text as a char range of its decoded block (no copy). */
  range(record: number): { readonly source: string; readonly start: number; readonly end: number } {
    return { source: this.blocks[this.block.get(record)] as string, start: this.start.get(record), end: this.end.get(record) }
  }

  /** The record parsed again, bypassing the cache: a pass over many records would only evict what readers keep. */
  parseFresh(record: number): unknown {
    return JSON.parse(this.text(record))
  }

  /** The parsed record, from the cache or parsed again from its text. */
  parsed(record: number): unknown {
    const hit = this.cache.get(record)
    if (hit !== undefined) {
      this.cache.delete(record)
      this.cache.set(record, hit)
      return hit
    }
    const value: unknown = JSON.parse(this.text(record))
    if (this.cache.size >= RECORD_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as number)
    this.cache.set(record, value)
    return value
  }

  /** Characters of decoded text held (two bytes each at worst). */
  get textChars(): number {
    return this.blocks.reduce((n, b) => n + b.length, 0)
  }

  /** Bytes held by the position arrays. */
  get byteLength(): number {
    return [this.block, this.start, this.end, this.row, this.firstIndex, this.line].reduce((n, v) => n + v.byteLength, 0)
  }
}
