/**
 * Whole-process CLI figures, where the user stands: every program is started from scratch by the bench
 * (spawnSync, standard output to /dev/null) and timed from spawn to exit, rounds interleaved.
 *
 * - start-up: `node -e 0` (Node's own floor), the built `dsh-lens fold --json` on a 10-line log, and the
 *   TypeScript CLI through tsx (`npm run lens` minus npm) for comparison;
 * - fold --json of a big log: the built CLI against the whole-process floor (read + decode + JSON.parse of
 *   every line) and the harness's read + foldSurface run the same way.
 * The CLI and both baselines are bundled by esbuild into .bench/cli/ first, so all three start as plain JS.
 */

import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchLog } from './bench-logs.ts'
import { fmt, median, pairedRatio, rounds, table } from './measure.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const OUT = join(ROOT, '.bench/cli')
/** Issue 35's targets for `fold --json`, whole processes: at most these times the floor and the harness. */
export const FOLD_OVER_FLOOR_TARGET = 1.3
export const FOLD_OVER_HARNESS_TARGET = 0.95

export interface CliBenchResult {
  readonly startup: { readonly nodeMs: number; readonly builtMs: number; readonly tsxMs: number }
  readonly folds: readonly {
    readonly size: string
    readonly encoding: 'jsonl' | 'zstd'
    readonly floorMs: number
    readonly harnessMs: number
    readonly oursMs: number
    readonly oursOverFloor: number
    readonly oursOverHarness: number
  }[]
}

export async function bundle(): Promise<{ cli: string; floor: string; harness: string }> {
  mkdirSync(OUT, { recursive: true })
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/build/build-cli.ts', '--outdir', join(OUT, 'lens')], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`build-cli failed: ${run.stderr}`)
  await build({
    absWorkingDir: ROOT,
    entryPoints: { floor: 'src/bench/process-floor.ts', harness: 'src/bench/process-harness.ts' },
    outdir: OUT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  })
  return { cli: join(OUT, 'lens/dsh-lens.cjs'), floor: join(OUT, 'floor.mjs'), harness: join(OUT, 'harness.mjs') }
}

const devNull = openSync('/dev/null', 'w')

/** Wall time of one whole process, spawn to exit; a failure (an exit code not in `ok`) is an error, never a fast time. */
export function timeProcess(command: string, args: readonly string[], ok: readonly number[] = [0]): number {
  const t0 = performance.now()
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', devNull, 'pipe'] })
  const ms = performance.now() - t0
  if (!ok.includes(result.status ?? -1)) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return ms
}

const TINY_LOG = [
  '{"type":"session","version":0,"id":"tiny","createdAt":1,"cwd":"/w","delegationDepth":0}',
  '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}',
  '{"type":"user/message","seq":1,"time":1,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}',
  '{"type":"step/start","seq":2,"time":1,"data":{"turn":1,"step":1}}',
  '{"type":"assistant/chunk","seq":3,"time":1,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"hello"}}}',
  '{"type":"assistant/message","seq":4,"time":1,"data":{"turn":1,"step":1,"message":{"id":"a1","role":"assistant","content":[{"type":"text","text":"hello"}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}',
  '{"type":"step/end","seq":5,"time":1,"data":{"turn":1,"step":1}}',
  '{"type":"turn/end","seq":6,"time":1,"data":{"turn":1,"reason":{"kind":"completed"}}}',
  '{"type":"session/title","seq":7,"time":1,"data":{"title":"hi","messageSeqs":[1],"source":{"kind":"fallback"}}}',
  '{"type":"todo/write","seq":8,"time":1,"data":{"todos":[]}}',
].join('\n')

export async function cliBench(
  logs: readonly BenchLog[],
  roundCount: number,
): Promise<{ result: CliBenchResult; report: string }> {
  const bins = await bundle()
  const tiny = join(OUT, 'tiny.jsonl')
  writeFileSync(tiny, TINY_LOG + '\n')
  const tsx = join(ROOT, 'node_modules/.bin/tsx')
  process.stderr.write('[bench] cli: start-up\n')
  const start = rounds(Math.max(9, roundCount * 2), {
    node: () => timeProcess(process.execPath, ['-e', '0']),
    built: () => timeProcess(process.execPath, [bins.cli, 'fold', tiny, '--json']),
    tsx: () => timeProcess(tsx, ['src/cli/main.ts', 'fold', tiny, '--json']),
  })
  const startup = {
    nodeMs: median(start['node'] ?? []),
    builtMs: median(start['built'] ?? []),
    tsxMs: median(start['tsx'] ?? []),
  }
  const folds: CliBenchResult['folds'][number][] = []
  for (const log of logs)
    for (const [encoding, path] of [
      ['jsonl', log.jsonlPath],
      ['zstd', log.zstdPath],
    ] as const) {
      process.stderr.write(`[bench] cli: ${log.preset} ${encoding}\n`)
      const t = rounds(roundCount, {
        floor: () => timeProcess(process.execPath, [bins.floor, path, encoding]),
        harness: () => timeProcess(process.execPath, [bins.harness, path, encoding]),
        // As a user starts it: no V8 flag (one such as --max-old-space-size makes V8 reject the CLI's code cache).
        ours: () => timeProcess(process.execPath, [bins.cli, 'fold', path, '--json']),
      })
      const [floor, harness, ours] = [t['floor'] ?? [], t['harness'] ?? [], t['ours'] ?? []]
      folds.push({
        size: log.preset,
        encoding,
        floorMs: median(floor),
        harnessMs: median(harness),
        oursMs: median(ours),
        oursOverFloor: pairedRatio(ours, floor),
        oursOverHarness: pairedRatio(ours, harness),
      })
    }
  const pass = (ok: boolean): string => (ok ? 'PASS' : 'MISS')
  const report = [
    'CLI, whole process (spawn to exit):',
    table(
      ['start-up (10-line log)', 'node -e 0', 'dsh-lens (built)', 'tsx sources', 'target built ≤ 150 ms'],
      [
        [
          'fold --json',
          `${fmt(startup.nodeMs)} ms`,
          `${fmt(startup.builtMs)} ms`,
          `${fmt(startup.tsxMs)} ms`,
          `${pass(startup.builtMs <= 150)} (${fmt(startup.builtMs - startup.nodeMs)} ms over node)`,
        ],
      ],
    ),
    table(
      [
        'size',
        'container',
        'ms floor / harness / ours',
        `ours/floor (≤ ${FOLD_OVER_FLOOR_TARGET})`,
        `ours/harness (≤ ${FOLD_OVER_HARNESS_TARGET})`,
      ],
      folds.map((f) => [
        f.size,
        f.encoding,
        `${fmt(f.floorMs, 0)} / ${fmt(f.harnessMs, 0)} / ${fmt(f.oursMs, 0)}`,
        `${fmt(f.oursOverFloor, 2)}x ${pass(f.oursOverFloor <= FOLD_OVER_FLOOR_TARGET)}`,
        `${fmt(f.oursOverHarness, 2)}x ${pass(f.oursOverHarness <= FOLD_OVER_HARNESS_TARGET)}`,
      ]),
    ),
  ].join('\n\n')
  closeSync(devNull)
  return { result: { startup, folds }, report }
}
