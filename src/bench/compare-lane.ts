/**
 * Comparing two runs where the user stands (issue 38): the built `dsh-lens diff A B --json` as a whole process, against
 * folding both logs (`dsh-lens fold A --json` and `dsh-lens fold B --json`, two whole processes: the time of reading
 * and folding both). Target: diff within 2.2x the two folds. Rounds are interleaved (the order rotates), and the ratio
 * is the median of per-round ratios, so load drift on a shared machine cancels out.
 *
 * Three pairs of 280k-event logs (generated, cached under .bench/logs, never committed):
 * - `equal`: the 280k session and its second run (fresh ids, its own clock; twin-runs.ts): every pair compared in full
 *   and the same, the most the comparison can do;
 * - `middle`: the same, with the answer of the middle step changed: equal, then different to the end;
 * - `unrelated`: the 280k logs of seeds 1 and 2: they part at the first prompt and never meet.
 *
 * `npm run bench -- --compare` runs it after the other lanes; `tsx src/bench/compare-lane.ts [--rounds N]` alone.
 */

import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { presetOptions, toJsonl } from '../generate/index.ts'
import { twinRuns } from '../generate/twin-runs.ts'
import { benchLog, generatorHash } from './bench-logs.ts'
import { bundle, timeProcess } from './cli-bench.ts'
import { fmt, median, rounds, table } from './measure.ts'

const TARGET = 2.2
const HEAP = '--max-old-space-size=12288'

interface Pair {
  readonly name: string
  readonly a: string
  readonly b: string
}

/** The twin pairs, written once per generator version. */
export function twinPair(name: 'equal' | 'middle', dir: string): Pair {
  const base = join(dir, `compare-${name}-${generatorHash()}`)
  const a = `${base}-a.jsonl`
  const b = `${base}-b.jsonl`
  if (!existsSync(b)) {
    process.stderr.write(`[bench] compare: generating the ${name} twins of the 280k log\n`)
    const twins = twinRuns({
      session: presetOptions('280k', 1),
      twinSeed: 2,
      divergence: name === 'equal' ? null : { kind: 'model-output', site: 'middle' },
    })
    writeFileSync(`${a}.tmp`, toJsonl(twins.a))
    writeFileSync(`${b}.tmp`, toJsonl(twins.b))
    // B is renamed last: a run cut short leaves no half pair that looks whole.
    renameSync(`${a}.tmp`, a)
    renameSync(`${b}.tmp`, b)
  }
  return { name, a, b }
}

export interface CompareLaneResult {
  readonly pair: string
  readonly foldAMs: number
  readonly foldBMs: number
  readonly diffMs: number
  /** Median over rounds of diff / (fold A + fold B). */
  readonly ratio: number
}

export async function compareLane(
  roundCount: number,
  dir = '.bench/logs',
): Promise<{ results: CompareLaneResult[]; report: string }> {
  mkdirSync(dir, { recursive: true })
  const pairs: Pair[] = [
    twinPair('equal', dir),
    twinPair('middle', dir),
    { name: 'unrelated', a: benchLog('280k', 1, dir).jsonlPath, b: benchLog('280k', 2, dir).jsonlPath },
  ]
  const bins = await bundle()
  const results: CompareLaneResult[] = []
  for (const pair of pairs) {
    process.stderr.write(`[bench] compare: ${pair.name} x${roundCount}\n`)
    const t = rounds(roundCount, {
      foldA: () => timeProcess(process.execPath, [HEAP, bins.cli, 'fold', pair.a, '--json']),
      foldB: () => timeProcess(process.execPath, [HEAP, bins.cli, 'fold', pair.b, '--json']),
      // diff exits 1 when the runs differ: that is its answer, not a failure.
      diff: () => timeProcess(process.execPath, [HEAP, bins.cli, 'diff', pair.a, pair.b, '--json'], [0, 1]),
    })
    const [foldA, foldB, diff] = [t['foldA'] ?? [], t['foldB'] ?? [], t['diff'] ?? []]
    results.push({
      pair: pair.name,
      foldAMs: median(foldA),
      foldBMs: median(foldB),
      diffMs: median(diff),
      ratio: median(diff.map((d, r) => d / ((foldA[r] as number) + (foldB[r] as number)))),
    })
  }
  const report = [
    `Comparing two runs, whole process (diff A B --json vs fold A --json + fold B --json; target <= ${TARGET}x):`,
    table(
      ['280k pair', 'fold A ms', 'fold B ms', 'diff ms', 'diff / both folds'],
      results.map((r) => [
        r.pair,
        fmt(r.foldAMs, 0),
        fmt(r.foldBMs, 0),
        fmt(r.diffMs, 0),
        `${fmt(r.ratio, 2)}x ${r.ratio <= TARGET ? 'PASS' : 'MISS'}`,
      ]),
    ),
  ].join('\n')
  return { results, report }
}

if (process.argv[1]?.endsWith('compare-lane.ts')) {
  const i = process.argv.indexOf('--rounds')
  const { report } = await compareLane(i >= 0 ? Number(process.argv[i + 1]) : 5)
  process.stdout.write(report + '\n')
}
