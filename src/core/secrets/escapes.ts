/**
 * A secret as it is written at each depth of JSON: a string leaf of an event holds the secret itself; the record's
 * text holds it JSON-escaped once; a tool call's `arguments` (a JSON text inside a string) holds it escaped once in
 * the leaf and twice in the record. Only secrets with a character JSON escapes (a PEM key's line breaks, a quote, a
 * backslash) differ between depths; every other secret is the same bytes at every depth.
 */

/** `value` as the inside of a JSON string literal (what `JSON.stringify` writes between the quotes). */
export function jsonEscape(value: string): string {
  return JSON.stringify(value).slice(1, -1)
}

/** The forms of `value` that may appear in text at up to three depths of JSON, longest first, without repeats. */
export function escapedForms(value: string): string[] {
  const once = jsonEscape(value)
  const twice = jsonEscape(once)
  const thrice = jsonEscape(twice)
  return [...new Set([thrice, twice, once, value])]
}

const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g
const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

/**
 * One level of JSON string escapes undone, wherever they stand (partial JSON included: a tool call's arguments
 * streamed in pieces). Text without a backslash is returned as is.
 */
export function unescapeJsonText(text: string): string {
  if (!text.includes('\\')) return text
  return text.replace(ESCAPE, (_, hex: string | undefined, simple: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (SIMPLE[simple as string] as string),
  )
}
