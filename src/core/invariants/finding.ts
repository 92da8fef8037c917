/**
 * What an invariant check reports: a warning about one event, the invariant it breaks, a plain
 * explanation. The checks never touch the fold; LensLog turns findings into diagnostics.
 */

/** The provider-invariant codes (a subset of DiagnosticCode, listed in docs/cli.md). */
export type InvariantCode =
  | 'session-invariant'
  | 'compaction-invariant'
  | 'compaction-unclosed'
  | 'orphan-tool-result'
  | 'unanswered-tool-call'
  | 'tool-call-id-empty'
  | 'tool-call-id-duplicate'
  | 'lone-surrogate'

export const INVARIANT_CODES: readonly InvariantCode[] = [
  'session-invariant',
  'compaction-invariant',
  'compaction-unclosed',
  'orphan-tool-result',
  'unanswered-tool-call',
  'tool-call-id-empty',
  'tool-call-id-duplicate',
  'lone-surrogate',
]

export interface InvariantFinding {
  readonly code: InvariantCode
  /** Position of the event where the invariant breaks, in the decoded event list. */
  readonly index: number
  /** That event's seq, when it is a number. */
  readonly seq: number | null
  /** The harness's text for the companion checks (verbatim); dsh-lens's for the others. */
  readonly message: string
  /** A plain explanation: what a provider or the harness does with it. */
  readonly detail: string
}

export type FindingSink = (finding: InvariantFinding) => void

/** Reads a property of a JSON value the way `value?.key` does, without trusting its shape. */
export function prop(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}

/** An event's seq as a diagnostic carries it. */
export function seqOrNull(event: unknown): number | null {
  const seq = prop(event, 'seq')
  return typeof seq === 'number' ? seq : null
}

/** `${value}` as a JS template literal prints it (the harness builds its texts that way). */
export function show(value: unknown): string {
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}
