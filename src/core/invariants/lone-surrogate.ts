/**
 * Lone UTF-16 surrogates in a message the model is sent. JSON can carry one (`"\ud800"`) and
 * JSON.parse keeps it, but it has no UTF-8 encoding: a provider's API rejects the request (or the
 * client silently replaces it with U+FFFD, so the model sees something else than the log holds).
 */

import { seqOrNull, type FindingSink } from './finding.ts'

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export interface SurrogateHit {
  readonly path: string
  readonly offset: number
  readonly unit: number
}

/** A record's JSON text as a char range of a larger decoded string (no copy). */
export interface TextRange {
  readonly source: string
  readonly start: number
  readonly end: number
}

const ESCAPE = /\\u[dD][89abcdefABCDEF]/

/**
 * Whether a record's JSON text can hold a lone surrogate at all: decoded UTF-8 never yields one,
 * so it can only come from a `\uD800`-`\uDFFF` escape. Lets the walk skip almost every event.
 * (On a slice: a regex from `lastIndex` would scan on to the end of the whole decoded block.)
 */
export function textMayHoldSurrogate(text: TextRange): boolean {
  return ESCAPE.test(text.source.slice(text.start, text.end))
}

/** The first string (depth first, in key order) holding a lone surrogate, with where. */
export function findLoneSurrogate(value: unknown, path = ''): SurrogateHit | undefined {
  // An explicit stack: a message can nest deeper than the call stack (the fuzz corpus has 20,000 levels).
  const stack: { value: unknown; path: string }[] = [{ value, path }]
  while (stack.length > 0) {
    const top = stack.pop() as { value: unknown; path: string }
    const v = top.value
    if (typeof v === 'string') {
      const m = LONE.exec(v)
      if (m !== null) return { path: top.path, offset: m.index, unit: v.charCodeAt(m.index) }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${top.path}[${i}]` })
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v)
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string
        stack.push({ value: (v as Record<string, unknown>)[key], path: `${top.path}.${key}` })
      }
    }
  }
  return undefined
}

export const hex = (unit: number): string => `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`

/** Check one surface event's message (what deriveEventMessage sends: `data` for a user/message, else `data.message`). */
export function checkLoneSurrogates(
  event: { type: unknown; seq: unknown; data?: unknown },
  index: number,
  sink: FindingSink,
): void {
  const data = event.data
  const root =
    event.type === 'user/message'
      ? data
      : typeof data === 'object' && data !== null
        ? (data as { message?: unknown }).message
        : undefined
  const base = event.type === 'user/message' ? 'data' : 'data.message'
  const hit = findLoneSurrogate(root, base)
  if (hit === undefined) return
  sink({
    code: 'lone-surrogate',
    index,
    seq: seqOrNull(event),
    message: `${String(event.type)} holds a lone UTF-16 surrogate ${hex(hit.unit)} in ${hit.path} at character ${hit.offset}`,
    detail:
      'a lone surrogate has no UTF-8 encoding: the provider rejects the request, or its client replaces the character with U+FFFD and the model is sent something other than what the log holds',
  })
}
