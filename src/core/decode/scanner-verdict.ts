/**
 * A replay of the harness's JSONL scanner verdict (`SessionLogScanner`, reference
 * 1.6), kept beside the decoder's own reading: after the first bad line (or seq
 * gap) the scanner keeps no more events, and the issue is thrown only if a later
 * record is a `turn/end`; otherwise the rest is a torn tail. In a zstd log an issue
 * inside a complete frame is never a torn tail. The decoder shows every record that
 * parses; this says what the harness itself would keep or refuse.
 */

import { SCANNER, ZSTD } from '../model/harness-messages.ts'
import type { Diagnostic } from '../model/diagnostic.ts'

export class ScannerVerdict {
  /** Whether the log is a zstd container, and where the current line comes from. */
  zstd = false
  inCompleteFrame = true
  frameIndex = 0
  private events = 0
  private issue: { message: string; line: number } | undefined
  private rejected = false
  private zstdRejected = false
  private eventsAfterIssue = 0

  constructor(private readonly report: (diagnostic: Diagnostic) => void) {}

  /** A line that does not decode (bad JSON, blank, malformed row). */
  unparsable(line: number): void {
    this.raise(SCANNER.unparsable(line - 1), line, false)
  }

  /** A decoded line standing for `size` events whose first seq is `firstSeq`. */
  accept(firstSeq: unknown, size: number, isTurnEnd: boolean, line: number, offset: number): void {
    if (this.issue !== undefined) {
      this.eventsAfterIssue += size
      if (isTurnEnd) this.reject(line)
      return
    }
    if (firstSeq !== this.events) {
      const message = SCANNER.seqGap(line - 1, this.events, firstSeq)
      this.raise(message, line, isTurnEnd)
      this.report({
        severity: 'error',
        code: 'seq-gap',
        line,
        seq: typeof firstSeq === 'number' ? firstSeq : null,
        offset,
        message,
      })
      this.eventsAfterIssue += size
      return
    }
    this.events += size
  }

  /** End of input: an issue no turn/end followed is a torn tail. */
  finish(): void {
    if (this.issue === undefined || this.rejected) return
    this.report({
      severity: 'warning',
      code: 'torn-tail',
      line: this.issue.line,
      seq: null,
      offset: null,
      message: this.issue.message,
      detail: `no later record is a turn/end, so the harness keeps the ${this.events} events before line ${this.issue.line} and drops ${this.eventsAfterIssue} after it as a torn tail`,
    })
  }

  private raise(message: string, line: number, isTurnEnd: boolean): void {
    if (this.zstd && this.inCompleteFrame && !this.zstdRejected) {
      this.zstdRejected = true
      this.report({
        severity: 'error',
        code: 'scanner-rejects',
        line,
        seq: null,
        offset: null,
        message: ZSTD.tornRecord,
        detail: `frame ${this.frameIndex} is complete, so its defect cannot be a torn tail: ${message}`,
      })
    }
    if (this.issue !== undefined) return
    this.issue = { message, line }
    if (isTurnEnd) this.reject(line)
  }

  private reject(line: number): void {
    if (this.rejected || this.issue === undefined) return
    this.rejected = true
    this.report({
      severity: 'error',
      code: 'scanner-rejects',
      line: this.issue.line,
      seq: null,
      offset: null,
      message: this.issue.message,
      detail: `a turn/end follows at line ${line}, so the harness refuses the log instead of dropping the rest as a torn tail`,
    })
  }
}
