/** A list of seqs as buttons, consecutive runs folded to "#a–#b" (both ends clickable); long lists are cut. */

import { SeqBadge } from '../../shared/SeqBadge.tsx'
import { seqRuns } from './seq-runs.ts'
import { formatCount } from '../../shared/format-count.ts'

const RUNS_SHOWN = 100

export function SeqLinks({ seqs, onPick }: { seqs: readonly number[]; onPick: (seq: number) => void }) {
  if (seqs.length === 0) return <span className="text-muted">none</span>
  const runs = seqRuns(seqs)
  return (
    <span className="flex flex-wrap items-center gap-0.5">
      {runs.slice(0, RUNS_SHOWN).map((run) =>
        run.first === run.last ? (
          <SeqBadge key={run.first} seq={run.first} onClick={() => onPick(run.first)} />
        ) : (
          <span key={run.first} className="flex items-center">
            <SeqBadge seq={run.first} onClick={() => onPick(run.first)} />
            <span className="text-muted">–</span>
            <SeqBadge seq={run.last} onClick={() => onPick(run.last)} />
          </span>
        ),
      )}
      {runs.length > RUNS_SHOWN ? <span className="text-muted">… {runs.length - RUNS_SHOWN} more runs</span> : null}
      {seqs.length > 1 ? <span className="text-muted">({formatCount(seqs.length)})</span> : null}
    </span>
  )
}
