/**
 * What a content search asks for, checked before any index sees it. As in the harness's session search, the text is
 * data, never query syntax: trimmed, runs of whitespace made one space, and matched as one literal phrase of words
 * (the index's tokens: letters, digits, private-use characters), so `OR`, `NEAR`, quotes and `-` are only text. Two
 * differences, on purpose: a trailing `*` (or the prefix option) asks for the last word as a prefix, and a query that
 * cannot match anything (empty, a NUL, punctuation only) is refused with one sentence instead of an error code.
 */

/** The harness's highlight markers (noncharacters): document text is cleared of them before it is indexed. */
export const HIGHLIGHT_START = '\uFDD0'
export const HIGHLIGHT_END = '\uFDD1'

export interface ContentQuery {
  /** The query as normalized (whitespace collapsed, a trailing `*` removed when it asked for a prefix). */
  readonly text: string
  readonly prefix: boolean
  /** The FTS5 MATCH expression: one quoted phrase, `*` after it for a prefix query. */
  readonly match: string
}

export type ParsedQuery = { readonly ok: true; readonly query: ContentQuery } | { readonly ok: false; readonly message: string }

/** A character the index's `unicode61` tokenizer keeps in a word (its default token classes: L*, N*, Co). */
const WORD_CHARACTER = /[\p{L}\p{N}\p{Co}]/u

export function parseContentQuery(raw: string, options: { readonly prefix?: boolean } = {}): ParsedQuery {
  if (raw.includes('\0')) return { ok: false, message: 'the query holds a NUL character: search for text without it' }
  const given = raw.trim().replace(/\s+/gu, ' ')
  if (given === '') return { ok: false, message: 'the query is empty: give a word or a phrase to search for' }
  let prefix = options.prefix === true
  let text = given
  if (text.endsWith('*')) {
    prefix = true
    text = text.replace(/\*+$/u, '').trimEnd()
  }
  text = clearMarkers(text)
  if (!WORD_CHARACTER.test(text)) {
    return {
      ok: false,
      message: `the query "${given}" has no word in it (operators and punctuation are searched as text, not run): give a word or a phrase`,
    }
  }
  const phrase = `"${text.replaceAll('"', '""')}"`
  return { ok: true, query: { text, prefix, match: prefix ? `${phrase} *` : phrase } }
}

/** The harness's `sanitizeFtsText`: NUL and the highlight markers become U+FFFD, so markers never collide with text. */
export function clearMarkers(text: string): string {
  return text.replaceAll('\0', '\uFFFD').replaceAll(HIGHLIGHT_START, '\uFFFD').replaceAll(HIGHLIGHT_END, '\uFFFD')
}
