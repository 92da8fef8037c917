/**
 * A subscription's read position in a SessionTail: batches of records from any seq, taken from the
 * in-memory ring when it reaches back far enough, else re-read from disk starting at the nearest index
 * entry. It holds at most one read chunk of decoded records, so a slow client costs bounded memory.
 */

import { PlainLineReader } from './plain-lines.ts'
import { parseRecordLine, sliceRecordText, type RecordLine } from './record-line.ts'
import type { SessionTail } from './session-tail.ts'
import type { ContentChecksum } from '../core/index.ts'

export interface Batch {
  readonly fromSeq: number
  readonly toSeq: number
  readonly lines: string[]
  readonly bytes: number
}

interface DiskState {
  readonly generation: number
  position: number
  pending: RecordLine[]
  skipHeader: boolean
  failed: boolean
}

const DISK_READ_BYTES = 256 * 1024

export class TailCursor {
  private disk: DiskState | undefined
  private reader: PlainLineReader | undefined

  constructor(
    private readonly tail: SessionTail,
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
    const limit = Math.min(tail.headSeq, fromSeq + maxEvents - 1)
    for (const record of records) {
      if (record.lastSeq < seq) continue
      if (record.firstSeq > limit || (lines.length > 0 && bytes + record.text.length > maxBytes)) break
      const text = sliceRecordText(record, seq, limit)
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
      (first === undefined || first.firstSeq <= this.nextSeq)
    if (!continuous || disk === undefined) {
      const entry = tail.seek(this.nextSeq)
      const state: DiskState = {
        generation: tail.generation,
        position: entry.byteStart,
        pending: [],
        skipHeader: entry.skipHeader,
        failed: false,
      }
      this.reader = new PlainLineReader(
        tail.encoding ?? 'jsonl',
        entry.byteStart,
        {
          line: (line) => {
            if (state.skipHeader) {
              state.skipHeader = false
              return
            }
            const parsed = parseRecordLine(line.text)
            if (!parsed.ok) state.failed = true
            else if (parsed.record.lastSeq >= this.nextSeq && parsed.record.firstSeq <= tail.headSeq)
              state.pending.push(parsed.record)
          },
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
    let pendingBytes = disk.pending.reduce((n, r) => n + r.text.length, 0)
    while (!disk.failed && disk.position < tail.committedBytes) {
      const last = disk.pending[disk.pending.length - 1]
      if (last !== undefined && (last.lastSeq >= want || pendingBytes >= maxBytes)) break
      const bytes = await tail.readAt(disk.position, DISK_READ_BYTES, disk.generation)
      if (bytes === null || bytes.length === 0) return null
      disk.position += bytes.length
      const before = disk.pending.length
      reader.push(bytes)
      for (let i = before; i < disk.pending.length; i++) pendingBytes += (disk.pending[i] as RecordLine).text.length
    }
    // The tail already accepted these seqs, so a disagreement here means the file changed under us.
    if (disk.failed) return null
    return disk.pending
  }
}
