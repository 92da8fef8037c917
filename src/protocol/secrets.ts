/**
 * The Secrets answer on the wire (the core's `scanSecrets`, asked for, never at load): where each secret stands, what
 * kind it is, a masked preview and its short hash, and when the model was sent it. Never a secret's value: only what
 * the core lets leave it (`masked`, `hash`, a masked `context`).
 */

import type { SpanSteps } from '../core/index.ts'

/** One place a secret stands. */
export interface SecretFindingView {
  /** Event index; -1 for the session header (no event to land on). */
  readonly index: number
  readonly seq: number | null
  /** Physical line of the log (the header is line 1). */
  readonly line: number
  /** The JSON path of the string holding it, as search names paths. */
  readonly field: string
  readonly kind: string
  /** The format's public marker, two characters at most and the length: never the secret. */
  readonly masked: string
  /** 8 hex digits of its SHA-256: equal secrets, equal hashes (the allow list's key). */
  readonly hash: string
  /** The text around it, every secret in it masked. */
  readonly context: string
  /** When the event holding it was on the model surface, with the steps whose requests carried it; empty: never. */
  readonly seen: readonly SpanSteps[]
}

/** One distinct secret: what a redaction replaces, and where. */
export interface SecretGroup {
  readonly hash: string
  readonly kind: string
  readonly masked: string
  /** Places it stands (findings with this hash). */
  readonly places: number
  /** Of those, places whose event the model was sent. */
  readonly seenPlaces: number
  /** Its first place, and its first place the model was sent (null: never sent). */
  readonly first: SecretFindingView
  readonly firstSeen: SecretFindingView | null
}

export interface SecretsAnswer {
  /** Events the scan read (the log's length when it was asked). */
  readonly length: number
  /** Places found in all. */
  readonly total: number
  /** The first `SECRETS_LISTED` places, in log order. */
  readonly findings: readonly SecretFindingView[]
  /** Every distinct secret, in order of first place. */
  readonly distinct: readonly SecretGroup[]
}

/** Places an answer lists at most (the groups and the count stay whole). */
export const SECRETS_LISTED = 2000

/** The places at one event, from the scan the worker holds; `scanned: false` when this log was not scanned yet. */
export interface SecretsAtAnswer {
  readonly scanned: boolean
  readonly findings: readonly SecretFindingView[]
}
