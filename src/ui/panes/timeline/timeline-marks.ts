/** Pure: event indices -> deduplicated mark positions on the scrubber (one mark per pixel bucket at most). */

/** Marks are binned into this many buckets across the track, so 100,000 turn starts draw as a few hundred marks. */
export const MARK_BUCKETS = 600

/**
 * @param indices sorted event indices
 * @param last the last event index (the track spans 0..last)
 * @returns distinct positions as fractions 0..1, each with the first index of its bucket
 */
export function markPositions(indices: ArrayLike<number>, last: number): { fraction: number; index: number }[] {
  const out: { fraction: number; index: number }[] = []
  if (last <= 0) return indices.length > 0 ? [{ fraction: 0, index: indices[0] as number }] : []
  let previousBucket = -1
  for (let k = 0; k < indices.length; k++) {
    const index = indices[k] as number
    const bucket = Math.floor((index / last) * MARK_BUCKETS)
    if (bucket === previousBucket) continue
    previousBucket = bucket
    out.push({ fraction: index / last, index })
  }
  return out
}

/** Index under a pointer at `x` on a track starting at `left` with `width` pixels. */
export function indexAtPointer(x: number, left: number, width: number, last: number): number {
  if (width <= 0 || last <= 0) return 0
  const f = Math.min(1, Math.max(0, (x - left) / width))
  return Math.round(f * last)
}
