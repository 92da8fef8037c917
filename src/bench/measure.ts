/** Timing and statistics helpers for a shared, noisy machine: interleaved rounds, medians, percentiles. */

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc
  if (collect !== undefined) {
    collect()
    collect()
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] as number
}

export const median = (values: readonly number[]): number => percentile(values, 50)

/** Run each named task once per round, rotating the order every round so no task always runs first (warm/cold caches, GC debt). */
export function interleave(rounds: number, tasks: Record<string, () => void>): Record<string, number[]> {
  const names = Object.keys(tasks)
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length] as string
      gc()
      const t0 = performance.now()
      ;(tasks[name] as () => void)()
      ;(times[name] as number[]).push(performance.now() - t0)
    }
  }
  return times
}

export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-')

/** A plain fixed-width table for the terminal and docs/benchmarks.md. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string => '| ' + cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ') + ' |'
  return [line(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n')
}

/** The median of the ratios a[r] / b[r] of the same round: runs adjacent in time, so a machine's load drift cancels. */
export const pairedRatio = (a: readonly number[], b: readonly number[]): number => median(a.map((x, r) => x / (b[r] as number)))

/** Interleaved rounds of tasks that time themselves (whole processes; the order rotates each round): per-task times. */
export function rounds(n: number, tasks: Record<string, () => number>): Record<string, number[]> {
  const names = Object.keys(tasks)
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let r = 0; r < n; r++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length] as string
      ;(times[name] as number[]).push((tasks[name] as () => number)())
    }
  return times
}
