/**
 * A one-line excerpt around a match, with the match's offsets in the excerpt so the UI can highlight it (as text
 * spans). Line breaks and tabs become spaces one for one, so offsets survive; the cut never splits a surrogate pair.
 */

/** Characters of context kept before and after the match, and the most of the match itself shown. */
export const SNIPPET_BEFORE = 40
export const SNIPPET_AFTER = 80
export const SNIPPET_MATCH_MAX = 160

export interface Snippet {
  readonly text: string
  /** [start, end) of the match in `text`. */
  readonly highlight: readonly [number, number]
}

const ELLIPSIS = '…'

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** Move a cut position off the middle of a surrogate pair. */
function safeCut(text: string, at: number, direction: -1 | 1): number {
  if (at <= 0 || at >= text.length) return Math.max(0, Math.min(at, text.length))
  return isLowSurrogate(text.charCodeAt(at)) ? at + direction : at
}

export function makeSnippet(text: string, start: number, end: number): Snippet {
  const shownEnd = safeCut(text, Math.min(end, start + SNIPPET_MATCH_MAX), 1)
  const from = safeCut(text, Math.max(0, start - SNIPPET_BEFORE), 1)
  const to = safeCut(text, Math.min(text.length, shownEnd + SNIPPET_AFTER), -1)
  const prefix = from > 0 ? ELLIPSIS : ''
  const suffix = to < text.length ? ELLIPSIS : ''
  const body = text.slice(from, to).replace(/[\r\n\t]/g, ' ')
  const at = prefix.length + (start - from)
  return { text: prefix + body + suffix, highlight: [at, at + (shownEnd - start)] }
}
