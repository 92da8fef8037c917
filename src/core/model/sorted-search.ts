/** Binary search over an ascending array: the one lookup behind every "how many marks/records/slots by index i". */

/** Number of leading values `<= bound` in ascending `sorted` (the insertion point after equals). */
export function countAtMost(sorted: ArrayLike<number>, bound: number, length = sorted.length): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) <= bound) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Number of leading values `< bound` in ascending `sorted`. */
export function countBelow(sorted: ArrayLike<number>, bound: number, length = sorted.length): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((sorted[mid] as number) < bound) lo = mid + 1
    else hi = mid
  }
  return lo
}
