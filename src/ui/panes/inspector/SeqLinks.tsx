/** A list of seqs as buttons (at most a few hundred shown; the count says how many there are). */

import { SeqBadge } from '../../shared/SeqBadge.tsx'

const LINKS_SHOWN = 200

export function SeqLinks({ seqs, onPick }: { seqs: readonly number[]; onPick: (seq: number) => void }) {
  if (seqs.length === 0) return <span className="text-muted">none</span>
  return (
    <span className="flex flex-wrap gap-0.5">
      {seqs.slice(0, LINKS_SHOWN).map((seq) => (
        <SeqBadge key={seq} seq={seq} onClick={() => onPick(seq)} />
      ))}
      {seqs.length > LINKS_SHOWN ? <span className="text-muted">… {seqs.length - LINKS_SHOWN} more</span> : null}
    </span>
  )
}
