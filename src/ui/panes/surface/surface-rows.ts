/** Pure helpers for the surface pane: positions and styling keyed by seq. */

/** Position of `seq` in the surface at the cursor, or null. The seqs come from the worker, in model order. */
export function surfacePositionOf(surfaceSeqs: Float64Array, seq: number | null): number | null {
  if (seq === null) return null
  const at = surfaceSeqs.indexOf(seq)
  return at === -1 ? null : at
}

export function surfaceRowClass(selected: boolean, counterpart: boolean, replacement: boolean): string {
  const base = replacement ? 'border-l-4 border-l-warn ' : 'border-l-4 border-l-transparent '
  if (selected) return `${base}bg-accent-soft`
  if (counterpart) return `${base}bg-counterpart`
  return `${base}hover:bg-raised`
}
