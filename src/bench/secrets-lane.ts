/**
 * The secrets lane (issue 39): `dsh-lens secrets FILE --json` against `dsh-lens fold FILE --json` on the same log,
 * whole processes of the built CLI, rounds interleaved (order rotated each round), ratio = median of per-round ratios.
 * Target: secrets within 1.5x fold (a scan reads every record's text and parses only those with an anchor; it is
 * never run while a log loads). `npm run bench:secrets [-- --size 280k|10k|1.3M] [--rounds N]`.
 */

import { spawnSync } from 'node:child_process'
import { mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PresetName } from '../generate/index.ts'
import { benchLog } from './bench-logs.ts'
import { fmt, median, table } from './measure.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const OUT = join(ROOT, '.bench/cli-secrets')

export interface SecretsLaneResult {
  readonly size: string
  readonly encoding: 'jsonl' | 'zstd'
  readonly foldMs: number
  readonly secretsMs: number
  readonly ratio: number
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

export function secretsLane(size: PresetName, rounds: number): { results: SecretsLaneResult[]; report: string } {
  mkdirSync(OUT, { recursive: true })
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'src/build/build-cli.ts', '--outdir', OUT], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`build-cli failed: ${built.stderr}`)
  const cli = join(OUT, 'dsh-lens.cjs')
  const log = benchLog(size)
  const devNull = openSync('/dev/null', 'w')
  const run = (args: string[]): number => {
    const t0 = performance.now()
    const r = spawnSync(process.execPath, [cli, ...args], {
      cwd: ROOT,
      stdio: ['ignore', devNull, 'pipe'],
    })
    const ms = performance.now() - t0
    if (r.status !== 0) throw new Error(`dsh-lens ${args.join(' ')} exited ${r.status}: ${r.stderr}`)
    return ms
  }
  const results: SecretsLaneResult[] = []
  for (const [encoding, path] of [
    ['jsonl', log.jsonlPath],
    ['zstd', log.zstdPath],
  ] as const) {
    process.stderr.write(`[bench] secrets: ${size} ${encoding} x${rounds}\n`)
    const fold: number[] = []
    const secrets: number[] = []
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        fold.push(run(['fold', path, '--json']))
        secrets.push(run(['secrets', path, '--json']))
      } else {
        secrets.push(run(['secrets', path, '--json']))
        fold.push(run(['fold', path, '--json']))
      }
    }
    results.push({
      size,
      encoding,
      foldMs: median(fold),
      secretsMs: median(secrets),
      ratio: median(secrets.map((s, k) => s / (fold[k] as number))),
    })
  }
  const report = [
    'secrets --json against fold --json, built CLI, whole process (spawn to exit):',
    table(
      ['size', 'container', 'fold --json ms', 'secrets --json ms', 'secrets/fold (<= 1.5)'],
      results.map((r) => [
        r.size,
        r.encoding,
        fmt(r.foldMs, 0),
        fmt(r.secretsMs, 0),
        `${fmt(r.ratio, 2)}x ${r.ratio <= 1.5 ? 'PASS' : 'MISS'}`,
      ]),
    ),
  ].join('\n')
  return { results, report }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { report } = secretsLane((option('size') ?? '280k') as PresetName, Number(option('rounds') ?? 7))
  process.stdout.write(report + '\n')
}
