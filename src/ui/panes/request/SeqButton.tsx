/** A seq as a link-styled button: the Request view's way to reach an event (the handler decides what it does). */

export function SeqButton({ seq, onSeq, title }: { seq: number; onSeq: (seq: number) => void; title?: string }) {
  return (
    <button
      type="button"
      className="font-mono tabular-nums text-accent hover:underline"
      data-seq-link={seq}
      title={title}
      onClick={(event) => {
        event.stopPropagation()
        onSeq(seq)
      }}
    >
      #{seq}
    </button>
  )
}
