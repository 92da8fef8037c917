/** Pure: how far the drawn prefix of the replace graph may move toward the cursor's in one animation frame. */

/** Nodes mounted or unmounted per frame at most: each React Flow node costs its mount (measuring, handles, edges),
 * so a jump across the whole log is spread over frames instead of one long task. */
export const GRAPH_NODES_PER_FRAME = 20

/**
 * @param current replacements drawn now
 * @param target replacements up to the cursor
 * @param nodeEnd nodes owned by the first k replacements, for k = 0..count
 * @returns the next replacement count: `target` when within budget, else the furthest step that fits (at least one)
 */
export function stepToward(current: number, target: number, nodeEnd: ArrayLike<number>, budget = GRAPH_NODES_PER_FRAME): number {
  if (current === target) return target
  const direction = target > current ? 1 : -1
  const from = nodeEnd[current] ?? 0
  let next = current + direction
  while (next !== target && Math.abs((nodeEnd[next + direction] ?? 0) - from) <= budget) next += direction
  return next
}
