/**
 * `npm run bench -- --against REF [--with REF2] [--rounds N] [--lanes all|cli|page] [--logs 280k,280k-short]
 * [--warmup N]`: one build against another in the same run. A is REF (any commit, built once in a scratch folder and
 * kept: ab-builds.ts), B is the working tree (or REF2). Every round measures every lane (ab-lanes.ts) once on each
 * build, back to back, the order flipped from one pair to the next, so the machine's load drifts over both alike: the
 * figure is each lane's ratio B/A, the median over its pairs, with its spread. A lane whose median pair is more than
 * 5% slower is printed as a regression. Not part of CI: on a shared machine only the pairs make a ratio honest.
 */

import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from '@playwright/test'
import { chromiumLaunchOptions } from '../../e2e/support/chromium.ts'
import type { PresetName } from '../generate/index.ts'
import { commitBuild, resolveCommit, workingTreeBuild, type AbBuild } from './ab-builds.ts'
import { AB_LOGS, abLanes, type AbEnv, type AbLane, type LaneSample } from './ab-lanes.ts'
import { serveBuild, type StaticServer } from './ab-server.ts'
import { benchLog, type BenchLog } from './bench-logs.ts'
import { fmt, median, percentile, table } from './measure.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** A lane whose median pair is this much slower on B is a regression. */
export const REGRESSION_RATIO = 1.05

export interface AbOptions {
  readonly against: string
  /** null: the working tree. */
  readonly with: string | null
  readonly rounds: number
  readonly warmup: number
  readonly kinds: readonly ('cli' | 'page')[]
  readonly logs: readonly PresetName[]
}

interface PairStats {
  readonly pairs: number
  readonly median: number
  readonly p25: number
  readonly p75: number
  readonly min: number
  readonly max: number
}

export interface LaneResult {
  readonly lane: string
  readonly kind: 'cli' | 'page'
  readonly a: LaneSample[]
  readonly b: LaneSample[]
  /** B/A per pair, and over them; null when a build could not run the lane. */
  readonly ratio: PairStats | null
  readonly cpuRatio: PairStats | null
  readonly regression: boolean
  readonly error: string | null
}

/** Median and spread of paired ratios b[i] / a[i]. */
export function pairStats(a: readonly number[], b: readonly number[]): PairStats | null {
  const ratios = a.map((x, i) => (b[i] as number) / x).filter((r) => Number.isFinite(r))
  if (ratios.length === 0) return null
  return {
    pairs: ratios.length,
    median: median(ratios),
    p25: percentile(ratios, 25),
    p75: percentile(ratios, 75),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
  }
}

function option(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}

export function abOptions(argv: readonly string[]): AbOptions {
  const against = option(argv, 'against')
  if (against === undefined) throw new Error('--against REF: the commit to compare with')
  const lanes = option(argv, 'lanes') ?? 'all'
  if (!['all', 'cli', 'page'].includes(lanes)) throw new Error(`--lanes ${lanes}: use all, cli or page`)
  return {
    against,
    with: option(argv, 'with') ?? null,
    rounds: Number(option(argv, 'rounds') ?? 7),
    warmup: Number(option(argv, 'warmup') ?? 1),
    kinds: lanes === 'all' ? ['cli', 'page'] : [lanes as 'cli' | 'page'],
    logs: (option(argv, 'logs')?.split(',') ?? AB_LOGS) as PresetName[],
  }
}

function verdict(r: LaneResult): string {
  if (r.error !== null) return `not compared: ${r.error}`
  if (r.ratio === null) return '-'
  if (r.regression) return `REGRESSION (> ${fmt((REGRESSION_RATIO - 1) * 100, 0)}% slower)`
  return r.ratio.median < 1 / REGRESSION_RATIO ? 'faster' : 'same'
}

const spread = (s: PairStats | null, digits = 2): string =>
  s === null ? '-' : `${fmt(s.p25, digits)}-${fmt(s.p75, digits)} (${fmt(s.min, digits)}-${fmt(s.max, digits)})`

export function abReport(a: AbBuild, b: AbBuild, results: readonly LaneResult[], loads: readonly number[]): string {
  const ms = (samples: readonly LaneSample[], pick: (s: LaneSample) => number | undefined): string => {
    const values = samples.map(pick).filter((v): v is number => v !== undefined)
    return values.length === 0 ? '-' : fmt(median(values), 0)
  }
  return [
    `A/B: A = ${a.label}${a.sha === null ? '' : ` (${a.sha})`}, B = ${b.label}${b.sha === null ? ' (working tree)' : ` (${b.sha})`}.`,
    `Each round runs every lane once per build, back to back, the order flipped each pair; ratio = B / A per pair, ` +
      `median over pairs; spread = p25-p75 (min-max). Load average (1 min) over the run: ${fmt(Math.min(...loads), 2)}-${fmt(Math.max(...loads), 2)}.`,
    table(
      ['lane', 'A ms (median)', 'B ms (median)', 'B/A', 'spread', 'CPU B/A', 'longest task A / B', 'verdict'],
      results.map((r) => [
        r.lane,
        ms(r.a, (s) => s.ms),
        ms(r.b, (s) => s.ms),
        r.ratio === null ? '-' : `${fmt(r.ratio.median, 3)}x`,
        spread(r.ratio),
        r.cpuRatio === null ? '-' : `${fmt(r.cpuRatio.median, 3)}x (${fmt(r.cpuRatio.p25, 2)}-${fmt(r.cpuRatio.p75, 2)})`,
        r.kind === 'page' ? `${ms(r.a, (s) => s.longestTaskMs)} / ${ms(r.b, (s) => s.longestTaskMs)} ms` : '-',
        verdict(r),
      ]),
    ),
    results.some((r) => r.regression)
      ? `Regressions: ${results
          .filter((r) => r.regression)
          .map((r) => r.lane)
          .join('; ')}`
      : 'No lane is more than 5% slower.',
  ].join('\n')
}

export async function runAb(options: AbOptions): Promise<LaneResult[]> {
  const a = commitBuild(resolveCommit(options.against))
  const b = options.with === null ? workingTreeBuild() : commitBuild(resolveCommit(options.with))
  const logs = new Map<PresetName, BenchLog>()
  const logOf = (preset: PresetName): BenchLog => {
    let log = logs.get(preset)
    if (log === undefined) logs.set(preset, (log = benchLog(preset)))
    return log
  }
  for (const preset of options.logs) logOf(preset)
  const lanes: AbLane[] = abLanes(options.logs).filter((lane) => options.kinds.includes(lane.kind))
  const servers = new Map<AbBuild, StaticServer>()
  let browser: Browser | null = null
  const loads: number[] = [loadavg()[0] as number]
  try {
    if (lanes.some((lane) => lane.kind === 'page')) {
      for (const build of [a, b]) servers.set(build, await serveBuild(build.dist, join(ROOT, '.bench/logs')))
      browser = await chromium.launch(chromiumLaunchOptions())
    }
    const env: AbEnv = {
      log: logOf,
      browser,
      base: (build) => {
        const server = servers.get(build)
        if (server === undefined) throw new Error(`no server for ${build.label}`)
        return server.base
      },
    }
    const samples = new Map(
      lanes.map((lane) => [lane, { a: [] as LaneSample[], b: [] as LaneSample[], error: null as string | null }]),
    )
    const total = options.warmup + options.rounds
    for (let round = 0; round < total; round++) {
      const warm = round < options.warmup
      process.stderr.write(`[ab] ${warm ? 'warm-up' : `round ${round - options.warmup + 1}/${options.rounds}`}\n`)
      for (const [k, lane] of lanes.entries()) {
        const s = samples.get(lane)
        if (s === undefined || s.error !== null) continue
        const order: [AbBuild, LaneSample[]][] = [
          [a, s.a],
          [b, s.b],
        ]
        if ((round + k) % 2 === 1) order.reverse()
        for (const [build, into] of order) {
          try {
            const sample = await lane.sample(build, env)
            if (!warm) into.push(sample)
          } catch (error) {
            s.error = `${build.label}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
            break
          }
        }
      }
      loads.push(loadavg()[0] as number)
    }
    const results = lanes.map((lane): LaneResult => {
      const s = samples.get(lane) ?? { a: [], b: [], error: 'not run' }
      const pairs = Math.min(s.a.length, s.b.length)
      const ratio =
        s.error === null
          ? pairStats(
              s.a.slice(0, pairs).map((x) => x.ms),
              s.b.slice(0, pairs).map((x) => x.ms),
            )
          : null
      const cpu = s.a.every((x) => x.cpuMs !== undefined) && s.b.every((x) => x.cpuMs !== undefined)
      return {
        lane: lane.name,
        kind: lane.kind,
        a: s.a,
        b: s.b,
        ratio,
        cpuRatio:
          cpu && s.error === null
            ? pairStats(
                s.a.slice(0, pairs).map((x) => x.cpuMs as number),
                s.b.slice(0, pairs).map((x) => x.cpuMs as number),
              )
            : null,
        regression: ratio !== null && ratio.median > REGRESSION_RATIO,
        error: s.error,
      }
    })
    const report = abReport(a, b, results, loads)
    process.stdout.write(`${report}\n`)
    mkdirSync(join(ROOT, '.bench'), { recursive: true })
    const json = JSON.stringify({ when: new Date().toISOString(), a, b, options, loads, results, report }, null, 2)
    writeFileSync(join(ROOT, `.bench/ab-${a.label}-${b.label}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), json)
    writeFileSync(join(ROOT, '.bench/ab-latest.json'), json)
    return results
  } finally {
    await browser?.close()
    for (const server of servers.values()) await server.close()
  }
}
