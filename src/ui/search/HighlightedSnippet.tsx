/** A result's snippet with the match in a <mark>: three text spans, never markup from the log. */

export function HighlightedSnippet({ text, highlight }: { text: string; highlight: readonly [number, number] }) {
  const [start, end] = highlight
  return (
    <span className="whitespace-pre font-mono">
      {text.slice(0, start)}
      <mark className="rounded-sm bg-search-soft px-0 text-ink">{text.slice(start, end)}</mark>
      {text.slice(end)}
    </span>
  )
}
