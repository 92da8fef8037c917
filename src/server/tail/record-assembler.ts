/**
 * Plaintext lines in, seq-ordered records out, stepping over defects instead of stopping at them: a line that
 * is not a record, a record out of seq order, missing seqs or a corrupt zstd frame become a defect, and the next
 * good record carries a `lead` (the seqs lost before it and the defective lines' texts). The tail and every
 * disk-reading cursor run this same logic from the same index points, so they agree on every record.
 */

import type { DiagnosticCode } from '../../core/index.ts'
import type { Defect } from './followed-log.ts'
import type { PlainLine, ReaderDefect } from './plain-lines.ts'
import { parseRecordLine, type RecordLine } from './record-line.ts'

export interface AssemblerSink {
  /** A record in seq order; `indexAt` is a file offset from which re-reading reproduces it (its lead included), or null. */
  record(record: RecordLine, indexAt: number | null): void
  defect(defect: Defect): void
}

// A lead forwards defective lines verbatim; past these bounds they are only counted, so garbage cannot fill memory.
const MAX_LEAD_LINES = 1024
const MAX_LEAD_BYTES = 1024 * 1024

interface Lead {
  readonly fromSeq: number
  readonly lines: string[]
  bytes: number
  /** Where re-reading reproduces this lead from its start, or null when its first defect was mid-frame. */
  readonly at: number | null
}

export class RecordAssembler {
  private lead: Lead | null = null

  constructor(
    /** Next seq expected in order. */
    public nextSeq: number,
    private readonly sink: AssemblerSink,
  ) {}

  line(line: PlainLine): void {
    const parsed = parseRecordLine(line.text)
    if (!parsed.ok) {
      return this.damaged(line, parsed.code, `line ${line.line} is ${parsed.why}`, line.text)
    }
    const record = parsed.record
    if (record.firstSeq < this.nextSeq) {
      const message = `line ${line.line}: seq ${record.firstSeq} does not follow seq ${this.nextSeq - 1}; it is forwarded as text, outside the seq order`
      return this.damaged(line, 'seq-gap', message, line.text)
    }
    if (record.firstSeq > this.nextSeq) {
      this.open(line.resumable ? line.resumeAt : null)
      this.sink.defect({
        diagnostic: 'seq-gap',
        message: `line ${line.line}: seqs ${this.nextSeq}..${record.firstSeq - 1} are missing before seq ${record.firstSeq}`,
        offset: line.resumeAt,
        line: line.line,
        afterSeq: this.nextSeq - 1,
      })
    }
    const lead = this.lead
    this.lead = null
    this.nextSeq = record.lastSeq + 1
    if (lead === null) return this.sink.record(record, line.resumable ? line.resumeAt : null)
    this.sink.record({ ...record, lead: { fromSeq: lead.fromSeq, lines: lead.lines } }, lead.at)
  }

  /** A zstd frame that could not be read (its lines are lost), or a record cut at a frame's end (only reported). */
  frame(defect: ReaderDefect): void {
    if (defect.loses) this.open(defect.restartable ? defect.offset : null)
    this.sink.defect({
      diagnostic: defect.diagnostic,
      message: defect.message,
      offset: defect.offset,
      afterSeq: this.nextSeq - 1,
    })
  }

  private damaged(line: PlainLine, diagnostic: DiagnosticCode, message: string, text: string): void {
    const lead = this.open(line.resumable ? line.resumeAt : null)
    if (lead.lines.length < MAX_LEAD_LINES && lead.bytes + text.length <= MAX_LEAD_BYTES) {
      lead.lines.push(text)
      lead.bytes += text.length
    }
    this.sink.defect({ diagnostic, message, offset: line.resumeAt, line: line.line, afterSeq: this.nextSeq - 1 })
  }

  private open(at: number | null): Lead {
    this.lead ??= { fromSeq: this.nextSeq, lines: [], bytes: 0, at }
    return this.lead
  }
}
