/** Shapes of what a dsh session log holds once decoded: events, packed rows, the header. */

/**
 * One logical session event as it came off the log. Logs are untrusted input, so
 * every field is `unknown` until a check narrows it: the fold must reach the same
 * verdict as the harness on any JSON value, including a malformed one.
 */
export interface LogEvent {
  readonly type: unknown
  readonly seq: unknown
  readonly time: unknown
  readonly data: unknown
  readonly surfaceOp?: unknown
  readonly sourceEventSeqs?: unknown
  readonly ignorable?: unknown
}

/** The three storage-only row tags that pack runs of `assistant/chunk` deltas. */
export type PackedRowTag = 'text-chunks' | 'reasoning-chunks' | 'tool-call-chunks'

/** A packed chunk row after validation (section 1.4 of the format reference). */
export interface PackedRow {
  readonly type: PackedRowTag
  readonly seq0: number
  readonly time0: number
  readonly data: {
    readonly turn: number
    readonly step: number
    readonly index: number
    readonly dt: readonly number[]
    readonly texts?: readonly string[]
    readonly args?: readonly string[]
    readonly id?: string
    readonly name?: string
  }
}

/** The session header line, as the harness writes it (section 1.2). */
export interface SessionHeader {
  readonly type: 'session'
  readonly version: number
  readonly id: string
  readonly createdAt: number
  readonly cwd?: string
  readonly parentSession?: string
  readonly seedLength?: number
  readonly origin?: 'subagent'
  readonly delegationDepth?: number
  readonly agentPreset?: string
  readonly [key: string]: unknown
}

/** Physical container of a log: detected from the first bytes, never from the file name. */
export type LogEncoding = 'jsonl' | 'zstd'

/** Whether a value is a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An event's `type` as a label: the string itself, else what it is instead (`(no type)`, `(number)`), never "undefined". */
export function eventTypeLabel(type: unknown): string {
  if (typeof type === 'string') return type
  return type === undefined ? '(no type)' : type === null ? '(null type)' : `(${typeof type} type)`
}

/** Whether a value is a non-negative safe integer, the shape of a seq. */
export function isEventSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}
