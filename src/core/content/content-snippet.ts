/**
 * A hit's snippet from the index's highlighted text (the match wrapped in the highlight markers): the first match
 * with some context around it, on one line, and where the match lies in it, cut as `dsh-lens search` cuts its
 * snippets (src/core/search/snippet.ts), so it stays bounded however long the document is.
 */

import { makeSnippet, type Snippet } from '../search/snippet.ts'
import { HIGHLIGHT_END, HIGHLIGHT_START } from './content-query.ts'

export function contentSnippet(marked: string): Snippet {
  const start = marked.indexOf(HIGHLIGHT_START)
  if (start === -1) return makeSnippet(marked, 0, 0)
  const close = marked.indexOf(HIGHLIGHT_END, start)
  const end = close === -1 ? marked.length : close
  // Markers are removed after the first match's bounds are known: a later match is plain text in the snippet.
  const before = marked.slice(0, start)
  const match = marked.slice(start + 1, end)
  const after = strip(marked.slice(close === -1 ? end : end + 1))
  const text = before + strip(match) + after
  return makeSnippet(text, before.length, before.length + strip(match).length)
}

function strip(text: string): string {
  return text.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '')
}
