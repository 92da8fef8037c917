/**
 * The lanes of an A/B run (`npm run bench -- --against REF`, ab-bench.ts): each lane is one thing a user waits for,
 * measured once per build per round, where the user stands (a whole CLI process; a page from navigation).
 *
 * Adding a lane is one entry in `AB_LANES`:
 * - a CLI command: `cliLane('name', (env) => ['command', env.log('280k').jsonlPath, '--json'])`; the lane runs the
 *   built `dsh-lens` of each build with those arguments, from spawn to exit (wall and CPU time);
 * - a page: `pageLane('name', async (page lane env, build) => ...)` returning the sample, or `navigationLane` for a
 *   `?log=` of a generated log.
 * A lane the baseline cannot run (a command it does not have yet) fails for that build; the run reports the lane as
 * not comparable and goes on. Keep a lane's own work deterministic: the same arguments, the same log, every round.
 */

import { spawnSync } from 'node:child_process'
import { existsSync, openSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from '@playwright/test'
import type { PresetName } from '../generate/index.ts'
import type { AbBuild } from './ab-builds.ts'
import type { BenchLog } from './bench-logs.ts'
import { appRun } from './navigation-lane.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const TIME = '/usr/bin/time'

/** One measurement of a lane against one build; `ms` is the figure the pair's ratio compares (lower is better). */
export interface LaneSample {
  readonly ms: number
  /** CPU time of the whole process (user + system), when it could be read. */
  readonly cpuMs?: number
  /** Longest main-thread task (pages). */
  readonly longestTaskMs?: number
}

export interface AbEnv {
  /** A generated bench log, made once and cached under .bench/logs. */
  log(preset: PresetName): BenchLog
  /** Chromium, when the run has page lanes. */
  readonly browser: Browser | null
  /** The origin serving `build`'s viewer; every bench log is served beside it at `/ab-log/<file name>`. */
  base(build: AbBuild): string
}

export interface AbLane {
  readonly name: string
  readonly kind: 'cli' | 'page'
  sample(build: AbBuild, env: AbEnv): Promise<LaneSample>
}

const devNull = openSync('/dev/null', 'w')

/**
 * One whole process, spawn to exit (standard output to /dev/null); its CPU time through /usr/bin/time when the
 * machine has it. A failure is an error, never a fast time.
 */
export function timeProcess(args: readonly string[]): LaneSample {
  const timed = existsSync(TIME)
  const command = timed ? TIME : process.execPath
  const argv = timed ? ['-f', 'ab-time %U %S', process.execPath, ...args] : [...args]
  const t0 = performance.now()
  const result = spawnSync(command, argv, { cwd: ROOT, stdio: ['ignore', devNull, 'pipe'], encoding: 'utf8' })
  const ms = performance.now() - t0
  if (result.status !== 0) throw new Error(`exited ${result.status ?? result.signal}: ${result.stderr.slice(-500)}`)
  const cpu = /ab-time ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr)
  return cpu === null ? { ms } : { ms, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 }
}

/** A CLI lane: the build's `dsh-lens` with `args(env)`, as a whole process. */
export function cliLane(name: string, args: (env: AbEnv) => readonly string[]): AbLane {
  return {
    name,
    kind: 'cli',
    // No V8 flag, as a user starts it: one such as --max-old-space-size makes V8 reject the CLI's code cache.
    sample: async (build, env) => timeProcess([build.cli, ...args(env)]),
  }
}

/** A page lane: `measure` gets the browser and this build's origin, and returns the sample. */
export function pageLane(name: string, measure: (browser: Browser, base: string, env: AbEnv) => Promise<LaneSample>): AbLane {
  return {
    name,
    kind: 'page',
    sample: async (build, env) => {
      if (env.browser === null) throw new Error('page lanes need the browser')
      return measure(env.browser, env.base(build), env)
    },
  }
}

/** `?log=` of a generated log in a fresh context: navigation start to ready, and the longest task through ready + 2 s. */
export function navigationLane(preset: PresetName, container: 'jsonl' | 'zstd'): AbLane {
  return pageLane(`page ?log= ${preset} ${container}`, async (browser, base, env) => {
    const log = env.log(preset)
    const run = await appRun(browser, base, `ab-log/${basename(container === 'zstd' ? log.zstdPath : log.jsonlPath)}`)
    return { ms: run.readyMs, longestTaskMs: run.longestTaskMs }
  })
}

/** The 10-line log of the start-up lane (written once per run). */
export function tinyLogPath(): string {
  const path = join(ROOT, '.bench/ab/tiny.jsonl')
  writeFileSync(
    path,
    [
      '{"type":"session","version":0,"id":"tiny","createdAt":1,"cwd":"/w","delegationDepth":0}',
      '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}',
      '{"type":"user/message","seq":1,"time":1,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}',
      '{"type":"turn/end","seq":2,"time":1,"data":{"turn":1,"reason":{"kind":"completed"}}}',
    ].join('\n') + '\n',
  )
  return path
}

/** The logs the CLI fold lanes read by default (`--logs` picks others). */
export const AB_LOGS: readonly PresetName[] = ['280k', '280k-short']

/** Every lane of an A/B run, for the logs asked for; the runner filters by kind (`--lanes cli|page`). */
export function abLanes(logs: readonly PresetName[]): AbLane[] {
  const tiny = tinyLogPath()
  return [
    cliLane('cli start-up (fold --json, 4 lines)', () => ['fold', tiny, '--json']),
    ...logs.flatMap((preset) =>
      (['jsonl', 'zstd'] as const).map((container) =>
        cliLane(`cli fold --json ${preset} ${container}`, (env) => {
          const log = env.log(preset)
          return ['fold', container === 'zstd' ? log.zstdPath : log.jsonlPath, '--json']
        }),
      ),
    ),
    ...logs.flatMap((preset) => (['jsonl', 'zstd'] as const).map((container) => navigationLane(preset, container))),
  ]
}
