/**
 * `deriveEventMessage`: the per-node projection from a surface event to the
 * message the model receives (reference 3.1 "Projection"), transliterated so a
 * legacy-shaped event fails with the harness's own TypeError text.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- mirrors the harness's property accesses on untyped JSON (see above) */

/**
 * @returns the message, or null for an event that derives none (a log-only event,
 *   or an `assistant/message` with empty content, which only hosts usage).
 * @throws TypeError exactly where the harness throws one (un-upgraded legacy data).
 */
export function deriveEventMessage(event: unknown): unknown {
  const e = event as any
  switch (e.type) {
    case 'user/message':
      return e.data
    case 'assistant/message':
      if (e.data.message.content.length === 0) return null
      return e.data.message
    case 'tool/result':
      return e.data.message
    default:
      return null
  }
}

/** Outcome of deriving one surface node's message: kept compact for 1.3M-event logs. */
export const enum DeriveOutcome {
  Message = 1,
  Nothing = 0,
  Failed = -1,
}

export function deriveOutcome(event: unknown): { outcome: DeriveOutcome; error?: string } {
  try {
    return { outcome: deriveEventMessage(event) === null ? DeriveOutcome.Nothing : DeriveOutcome.Message }
  } catch (error) {
    return { outcome: DeriveOutcome.Failed, error: error instanceof Error ? error.message : String(error) }
  }
}
