/** The Request view's questions and answers: a step's request as rows, the step list, the exact CLI JSON. */

import type { MessageTextDiff, StepListEntry, StepRequestJson, StepTimingJson, TextDiffPart } from '../core/index.ts'
import type { ToolCallPreview } from './event-views.ts'

/** Which step: by number, or the one in force at a cursor (an event index). */
export type StepTarget = { readonly turn: number; readonly step: number } | { readonly index: number }

/** One message of a request as the view lists it: where it came from and a text-only preview. */
export interface RequestMessageRow {
  readonly seq: number
  readonly role: string
  readonly text: string
  readonly reasoning: string
  readonly toolCalls: readonly ToolCallPreview[]
  readonly truncated: boolean
  /** Estimated tokens of the derived message (the same estimate as `estimatedTokens`). */
  readonly tokens: number
}

/** `StepRequestJson` without `messages` (sent as rows instead), plus their count. */
export type StepRequestView = Omit<StepRequestJson, 'messages'> & { readonly messageCount: number }

/** What the view shows beside `diff.headerChanged`: the previous header's config and the tools by name (core `toolNameDiff`). */
export interface HeaderChangeDetail {
  readonly previousConfig: unknown
  readonly toolsAdded: readonly string[]
  readonly toolsRemoved: readonly string[]
}

export interface StepRequestAnswer {
  /** Identifies the answer's inputs (log, step, log length): equal keys mean equal answers. */
  readonly key: string
  /** The caller already holds the answer for `key` (`have`): `request` and `rows` are left empty. */
  readonly unchanged: boolean
  /** Step position in log order, or -1 when no step matches (none started yet, or no such `T.S`). */
  readonly position: number
  readonly stepCount: number
  readonly request: StepRequestView | null
  readonly rows: readonly RequestMessageRow[]
  /** Set when the header changed since the previous step (and there was one). */
  readonly headerChange: HeaderChangeDetail | null
  /** Where the step's time went: the step's entry of `lens timing --json` (null with no step). */
  readonly timing: StepTimingJson | null
}

export interface StepListAnswer {
  /** Exactly `lens request FILE --list --json`'s `steps`. */
  readonly steps: readonly StepListEntry[]
}

export interface StepRequestJsonText {
  /** `JSON.stringify` of the core's answer plus a newline: byte for byte what `lens request --step T.S --json` prints. */
  readonly text: string
  readonly fileName: string
}

/** One run of a message diff: lines kept, added or removed, or a run of unchanged lines left out (`skipped`). */
export type MessageDiffPart = TextDiffPart

/** The text diff of the first message of a request that differs from the one at its position in the previous request. */
export interface MessageDiffAnswer extends MessageTextDiff {
  /** Its position in both requests, its seq now and the seq there before. */
  readonly index: number
  readonly seq: number
  readonly previousSeq: number
  readonly previousStep: string
}

/** A step, as `T.S`. */
export interface StepRef {
  readonly turn: number
  readonly step: number
}
