/**
 * The secrets of one decoded string, each with its value in one canonical (decoded) form: the same key written with
 * real line breaks in a tool result and with `\n` escapes inside a tool call's JSON arguments is one value, so it
 * gets one hash and one placeholder.
 *
 * The string is read as it is and, when it holds a backslash, once more with one level of JSON escapes undone (a
 * string that is itself JSON, whole or streamed in part): a secret found only there is located in the string by its
 * escaped form.
 */

import { detectSecrets, type SecretKind } from './detectors.ts'
import { escapedForms, unescapeJsonText } from './escapes.ts'

export interface StringSecret {
  readonly kind: SecretKind
  /** [start, end) in the string as given. */
  readonly start: number
  readonly end: number
  /** The secret, decoded (never printed: masked previews and hashes are made from it). */
  readonly value: string
}

/** A secret found in escaped text, unescaped down to its own characters (at most three depths of JSON). */
function decodeValue(raw: string): string {
  let value = raw
  for (let depth = 0; depth < 3 && value.includes('\\'); depth++) value = unescapeJsonText(value)
  return value
}

export function secretsInString(text: string): StringSecret[] {
  const out: StringSecret[] = []
  for (const hit of detectSecrets(text)) {
    out.push({ kind: hit.kind, start: hit.start, end: hit.end, value: decodeValue(text.slice(hit.start, hit.end)) })
  }
  if (!text.includes('\\')) return out
  const seen = new Set(out.map((s) => s.value))
  const decoded = unescapeJsonText(text)
  for (const hit of detectSecrets(decoded)) {
    const value = decodeValue(decoded.slice(hit.start, hit.end))
    if (seen.has(value)) continue
    seen.add(value)
    for (const form of escapedForms(value)) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) {
        if (!out.some((s) => s.start < at + form.length && at < s.end))
          out.push({ kind: hit.kind, start: at, end: at + form.length, value })
      }
    }
  }
  return out.sort((a, b) => a.start - b.start)
}
