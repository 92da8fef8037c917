/**
 * A subscription's read position in a SessionTail (seen as a `CursorSource`, so the two never import each other):
 * batches of records from any seq, taken from the in-memory ring when it reaches back far enough, else re-read from
 * disk starting at the nearest index entry. It holds at most one read chunk of decoded records, so a slow client
 * costs bounded memory. Seqs lost to a defect carry no data, so they do not count against the batch's event limit: a
 * batch that reaches a record with a lead covers the lost seqs, the defective lines and then the record.
 */

import { PlainLineReader } from './plain-lines.ts'
import { RecordAssembler } from './record-assembler.ts'
import { recordBytes, sliceRecordText, startSeqOf, type RecordLine } from './record-line.ts'
import type { IndexEntry } from './record-ring.ts'
import type { ContentChecksum } from '../../core/index.ts'
import type { Batch, LogCursor } from './followed-log.ts'

/** What a cursor reads from: the file tail's accepted records, its ring and index, and positional reads. */
export interface CursorSource {
  readonly headSeq: number
  /** Bumped on every reset: a cursor of an older generation stops. */
  readonly generation: number
  readonly encoding: 'zstd' | 'jsonl' | null
  /** Bytes the tail has judged: a cursor never reads past them. */
  readonly committedBytes: number
  /** First seq held in memory (Infinity when none). */
  readonly ringFirstSeq: number
  ringFrom(seq: number): RecordLine[]
  seek(seq: number): IndexEntry & { skipHeader: boolean }
  readAt(position: number, length: number, generation: number): Promise<Uint8Array | null>
}

interface DiskState {
  readonly generation: number
  position: number
  pending: RecordLine[]
  skipHeader: boolean
  failed: boolean
}

const DISK_READ_BYTES = 256 * 1024

export class TailCursor implements LogCursor {
  private disk: DiskState | undefined
  private reader: PlainLineReader | undefined

  constructor(
    private readonly tail: CursorSource,
    /** Next seq to hand out. */
    public nextSeq: number,
    private readonly checksum: ContentChecksum | undefined,
  ) {}

  /** Up to `maxEvents` events (rows cut to fit) and about `maxBytes` of text; null when at the head. */
  async next(maxEvents: number, maxBytes: number): Promise<Batch | null> {
    const tail = this.tail
    if (this.nextSeq > tail.headSeq || maxEvents <= 0) return null
    const generation = tail.generation
    const records = this.nextSeq >= tail.ringFirstSeq ? tail.ringFrom(this.nextSeq) : await this.fromDisk(maxEvents, maxBytes)
    if (records === null || generation !== tail.generation) return null
    const lines: string[] = []
    const fromSeq = this.nextSeq
    let seq = fromSeq
    let bytes = 0
    let limit = Math.min(tail.headSeq, fromSeq + maxEvents - 1)
    for (const record of records) {
      if (record.lastSeq < seq) continue
      if (startSeqOf(record) > limit || (lines.length > 0 && bytes + recordBytes(record) > maxBytes)) break
      const lead = record.lead
      if (lead !== undefined && seq <= record.firstSeq) {
        // The lost seqs are free; the defective lines go out once, with the first batch that covers them.
        limit = Math.min(tail.headSeq, limit + record.firstSeq - seq)
        if (seq <= lead.fromSeq) {
          lines.push(...lead.lines)
          for (const line of lead.lines) bytes += line.length
        }
      }
      const text = sliceRecordText(record, Math.max(seq, record.firstSeq), limit)
      lines.push(text)
      bytes += text.length
      seq = Math.min(record.lastSeq, limit) + 1
    }
    if (lines.length === 0) return null
    this.nextSeq = seq
    if (this.disk !== undefined) this.disk.pending = this.disk.pending.filter((r) => r.lastSeq >= seq)
    return { fromSeq, toSeq: seq - 1, lines, bytes }
  }

  private async fromDisk(maxEvents: number, maxBytes: number): Promise<RecordLine[] | null> {
    const tail = this.tail
    let disk = this.disk
    const first = disk?.pending[0]
    const continuous =
      disk !== undefined &&
      disk.generation === tail.generation &&
      !disk.failed &&
      (first === undefined || startSeqOf(first) <= this.nextSeq)
    if (!continuous || disk === undefined) {
      const entry = tail.seek(this.nextSeq)
      const state: DiskState = {
        generation: tail.generation,
        position: entry.byteStart,
        pending: [],
        skipHeader: entry.skipHeader,
        failed: false,
      }
      // The same assembly as the tail's, started at an index point, so it yields the same records and leads.
      const assembler = new RecordAssembler(entry.firstSeq, {
        record: (record) => {
          if (record.lastSeq >= this.nextSeq && record.firstSeq <= tail.headSeq) state.pending.push(record)
        },
        defect: () => undefined,
      })
      this.reader = new PlainLineReader(
        tail.encoding ?? 'jsonl',
        entry.byteStart,
        {
          line: (line) => {
            if (state.skipHeader) {
              state.skipHeader = false
              return
            }
            assembler.line(line)
          },
          defect: (defect) => assembler.frame(defect),
          corrupt: () => {
            state.failed = true
          },
        },
        this.checksum,
      )
      disk = state
      this.disk = state
    }
    const reader = this.reader as PlainLineReader
    const want = this.nextSeq + maxEvents - 1
    let pendingBytes = disk.pending.reduce((n, r) => n + recordBytes(r), 0)
    while (!disk.failed && disk.position < tail.committedBytes) {
      const last = disk.pending[disk.pending.length - 1]
      if (last !== undefined && (last.lastSeq >= want || pendingBytes >= maxBytes)) break
      const bytes = await tail.readAt(disk.position, DISK_READ_BYTES, disk.generation)
      if (bytes === null || bytes.length === 0) return null
      disk.position += bytes.length
      const before = disk.pending.length
      reader.push(bytes)
      for (let i = before; i < disk.pending.length; i++) pendingBytes += recordBytes(disk.pending[i] as RecordLine)
    }
    // The tail already accepted these seqs, so a disagreement here means the file changed under us.
    if (disk.failed) return null
    return disk.pending
  }
}
