/** Pure: a seq list folded into runs of consecutive values, so 200 chunk sources read as one range. */

export interface SeqRun {
  readonly first: number
  readonly last: number
}

export function seqRuns(seqs: readonly number[]): SeqRun[] {
  const runs: SeqRun[] = []
  for (const seq of seqs) {
    const run = runs[runs.length - 1]
    if (run !== undefined && seq === run.last + 1) runs[runs.length - 1] = { first: run.first, last: seq }
    else runs.push({ first: seq, last: seq })
  }
  return runs
}
