/** A seq number, optionally as a button that jumps to it. */

export interface SeqBadgeProps {
  readonly seq: number | null
  readonly onClick?: () => void
  readonly label?: string
}

export function SeqBadge({ seq, onClick, label }: SeqBadgeProps) {
  const text = seq === null ? '—' : `#${seq}`
  const className = 'font-mono text-xs tabular-nums text-muted'
  if (onClick === undefined) return <span className={className}>{text}</span>
  return (
    <button
      type="button"
      onClick={onClick}
      // The name starts with the text shown, so speech input ("click #79") finds it.
      aria-label={`${text}: ${label ?? `go to seq ${seq ?? ''}`}`}
      className={`${className} rounded px-1 text-accent underline decoration-dotted hover:bg-accent-soft`}
    >
      {text}
    </button>
  )
}
