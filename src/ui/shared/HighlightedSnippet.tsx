/**
 * A result's snippet with the match in a <mark>: three text spans, never markup from the log. Hidden characters
 * show as markers (`VisibleText`), so an override in a snippet cannot reverse the rest of the result row.
 */

import { VisibleText } from './VisibleText.tsx'

export function HighlightedSnippet({ text, highlight }: { text: string; highlight: readonly [number, number] }) {
  const [start, end] = highlight
  return (
    <span className="whitespace-pre font-mono">
      <VisibleText text={text.slice(0, start)} />
      <mark className="rounded-sm bg-search-soft px-0 text-ink">
        <VisibleText text={text.slice(start, end)} />
      </mark>
      <VisibleText text={text.slice(end)} />
    </span>
  )
}
