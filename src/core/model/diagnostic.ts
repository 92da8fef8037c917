/** A defect found while decoding, loading or folding a log: where it is and what the harness says. */

import type { InvariantCode } from '../invariants/finding.ts'

export type Severity = 'error' | 'warning'

/**
 * Stable diagnostic codes. They are part of the CLI's JSON contract (docs/cli.md), so
 * codes are only ever added, never renamed.
 */
export type DiagnosticCode =
  | 'header-missing'
  | 'header-invalid-json'
  | 'header-not-session'
  | 'header-version'
  | 'header-retired-fields'
  | 'header-invalid'
  | 'bom'
  | 'crlf'
  | 'invalid-utf8'
  | 'blank-line'
  | 'line-invalid-json'
  | 'packed-row-invalid'
  | 'record-not-object'
  | 'seq-gap'
  | 'torn-tail'
  | 'scanner-rejects'
  | 'zstd-invalid-magic'
  | 'zstd-reserved-bit'
  | 'zstd-reserved-block'
  | 'zstd-frame-corrupt'
  | 'zstd-torn-frame'
  | 'zstd-header-frame'
  | 'zstd-torn-record'
  | 'legacy-upgraded'
  | 'legacy-rejected'
  | 'unknown-event-type'
  | 'load-rule'
  | 'fold-violation'
  | 'derive-error'
  | 'open-turn'
  | 'line-too-long'
  // The input is no session log at all (an image, an archive, binary data): the only diagnostic it gets.
  | 'not-a-log'
  // Not a defect of the log: the viewer's decoded-bytes budget stopped the read (LensLogOptions.plainBytesBudget).
  | 'size-budget'
  // Provider invariants (src/core/invariants): warnings, never part of the fold's verdict.
  | InvariantCode

export interface Diagnostic {
  readonly severity: Severity
  readonly code: DiagnosticCode
  /** 1-based physical line in the plaintext (the header is line 1), or null when no line applies. */
  readonly line: number | null
  /** The event's seq when one applies (a number as decoded), or null. */
  readonly seq: number | null
  /** Byte offset of the line (plaintext) or frame (zstd container), when known. */
  readonly offset?: number | null
  /** Position in the decoded event list, when the defect belongs to one event. */
  readonly index?: number | null
  /** The harness's own message text, verbatim where the harness has one. */
  readonly message: string
  /** dsh-lens's explanation (what was wrong, what the harness does about it), when the message alone is terse. */
  readonly detail?: string
}
