/** Pure helpers for stepping the cursor over sorted mark arrays (surface changes, replaces, turns). */

import { countAtMost, countBelow } from '../core/model/sorted-search.ts'

/** First value in sorted `marks` strictly after `index`, or undefined. */
export function nextMark(marks: ArrayLike<number>, index: number): number | undefined {
  const lo = countAtMost(marks, index)
  return lo < marks.length ? marks[lo] : undefined
}

/** Last value in sorted `marks` strictly before `index`, or undefined. */
export function previousMark(marks: ArrayLike<number>, index: number): number | undefined {
  const lo = countBelow(marks, index)
  return lo > 0 ? marks[lo - 1] : undefined
}
