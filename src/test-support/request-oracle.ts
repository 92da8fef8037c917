/**
 * The harness's answer to "what was the model sent after these events", from its own published code
 * (`@deepseek-ai/dsh-session/surface`, a devDependency used only as a test oracle): fold the prefix with
 * `foldSurface`, derive every node with `deriveEventMessage`; nodes deriving nothing are the skipped ones.
 * Shared by the request reconstruction tests on the real fixtures and on generated logs.
 */

import { deriveEventMessage, foldSurface } from '@deepseek-ai/dsh-session/surface'
import { isDeepStrictEqual } from 'node:util'

type OracleEvent = Parameters<typeof foldSurface>[0][number]

export interface HarnessRequest {
  readonly messages: { seq: number; message: unknown }[]
  readonly skipped: number[]
}

/** The request after `events[0..at]` (the events as the harness reads them, seq === index), as the harness builds it. */
export function harnessRequest(events: readonly unknown[], at: number): HarnessRequest {
  const prefix = events.slice(0, at + 1) as OracleEvent[]
  const { nodes } = foldSurface(prefix)
  const messages: { seq: number; message: unknown }[] = []
  const skipped: number[] = []
  for (const seq of nodes) {
    const message = deriveEventMessage(prefix[seq] as OracleEvent)
    if (message === null) skipped.push(seq)
    else messages.push({ seq, message })
  }
  return { messages, skipped }
}

/**
 * Where two requests' messages first differ by a plain element-wise deep comparison, or null when equal. Node's
 * `isDeepStrictEqual`, not the core's JSON equality, so the comparison does not share code with what it checks.
 */
export function directFirstDifference(a: readonly { message: unknown }[], b: readonly { message: unknown }[]): number | null {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (!isDeepStrictEqual(a[i]?.message, b[i]?.message)) return i
  return a.length === b.length ? null : n
}
