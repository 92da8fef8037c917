/**
 * `lens timing FILE --json` (contract in the README): where the time of each step went (request, first output,
 * message, tools, retries) and the session totals, as the core's `timingJson` gives them: the same figures the
 * viewer's Time mode and Request view show. `formatTotalsLine` is the one line `lens check` prints.
 */

import { timingJson, type TimingTotals, type TimingWarning } from '../core/index.ts'
import { writeJsonLine } from './json-stream.ts'
import { readLog } from './read-log.ts'

export class TimingUsageError extends Error {}

export async function runTiming(args: readonly string[]): Promise<number> {
  const files = args.filter((a) => !a.startsWith('--') || a === '-')
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--json')
  if (unknown.length > 0) throw new TimingUsageError(`timing does not take ${unknown.join(' ')}`)
  if (files.length !== 1) throw new TimingUsageError('timing takes exactly one FILE')
  if (!args.includes('--json')) throw new TimingUsageError('timing prints JSON only: pass --json')
  const log = await readLog(files[0] as string, { keep: ['turns', 'timing'] })
  await writeJsonLine(process.stdout, timingJson(log))
  return 0
}

/** A duration for people: ms under a second, then seconds, then minutes and seconds. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)} min ${s % 60} s`
}

const or = (value: number | null, format: (v: number) => string): string => (value === null ? '—' : format(value))

/** The totals in one line (`—` where the log does not say), with the clock warnings' counts. */
export function formatTotalsLine(totals: TimingTotals, warnings: readonly TimingWarning[]): string {
  const parts = [
    `${totals.steps} step${totals.steps === 1 ? '' : 's'}`,
    `model ${or(totals.modelMs, formatMs)}`,
    `tools ${or(totals.toolMs, formatMs)}`,
    `TTFT median ${or(totals.ttftMedianMs, formatMs)} p95 ${or(totals.ttftP95Ms, formatMs)}`,
    `${or(totals.tokensPerSecond, (v) => v.toFixed(1))} tok/s`,
    `cache hit ${or(totals.cacheHit, (v) => `${(v * 100).toFixed(1)}%`)}`,
    `tokens in ${or(totals.inputTokens, String)} out ${or(totals.outputTokens, String)}`,
  ]
  if (totals.retries > 0) parts.push(`${totals.retries} retries`)
  const clock = warnings.map((w) => (w.code === 'clock-backwards' ? `${w.count} backward` : `${w.count} zero`))
  return parts.join(', ') + (clock.length > 0 ? ` (clock: ${clock.join(', ')})` : '')
}
