/** Pure helpers for stepping the cursor over sorted mark arrays (surface changes, replaces, turns). */

/** First value in sorted `marks` strictly after `index`, or undefined. */
export function nextMark(marks: ArrayLike<number>, index: number): number | undefined {
  let lo = 0
  let hi = marks.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((marks[mid] as number) <= index) lo = mid + 1
    else hi = mid
  }
  return lo < marks.length ? marks[lo] : undefined
}

/** Last value in sorted `marks` strictly before `index`, or undefined. */
export function previousMark(marks: ArrayLike<number>, index: number): number | undefined {
  let lo = 0
  let hi = marks.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((marks[mid] as number) < index) lo = mid + 1
    else hi = mid
  }
  return lo > 0 ? marks[lo - 1] : undefined
}
