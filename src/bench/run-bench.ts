/** `npm run bench`: LensLog vs the JSON.parse floor and the harness's own read + fold, side by side in one run. */

import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Rng, type PresetName } from '../generate/index.ts'
import { loadContentChecksum } from '../core/index.ts'
import { expandRecords, floorParse, harnessFold, harnessLoad, type Encoding } from './baselines.ts'
import { benchLog, type BenchLog } from './bench-logs.ts'
import { fmt, interleave, median, pairedRatio, percentile, table } from './measure.ts'
import { lensLoad, ourFold, preDecode } from './ours.ts'
import { cliBench, FOLD_OVER_FLOOR_TARGET, FOLD_OVER_HARNESS_TARGET } from './cli-bench.ts'
import { initialJs } from './initial-js.ts'
import { answerCosts } from './answer-lanes.ts'

const SELF = fileURLToPath(import.meta.url)
const PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url))
const NODE_FLAGS = ['--expose-gc', '--max-old-space-size=12288']

// GC between runs needs --expose-gc; tsx does not forward node flags, so re-run this file under node with them.
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  const result = spawnSync(process.execPath, [...NODE_FLAGS, '--import', 'tsx', SELF, ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  process.exit(result.status ?? 1)
}

// --against REF: the A/B run (ab-bench.ts) instead of the tables below.
if (process.argv.includes('--against')) {
  const { abOptions, runAb } = await import('./ab-bench.ts')
  const results = await runAb(abOptions(process.argv))
  process.exit(results.some((r) => r.error !== null) ? 1 : 0)
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

// 280k-short: the 280k log's size in another shape (many short steps and compactions: issue 35).
const ALL_SIZES: PresetName[] = ['10k', '280k', '280k-short', '1.3M']
const sizes = (option('sizes')?.split(',') ?? ALL_SIZES) as PresetName[]
for (const s of sizes) if (!ALL_SIZES.includes(s)) throw new Error(`unknown size ${s}; use ${ALL_SIZES.join(',')}`)
const DEFAULT_ROUNDS: Record<string, number> = { '10k': 9, '280k': 7, '280k-short': 7, '1.3M': 5 }
const roundsFor = (size: PresetName): number => Number(option('rounds') ?? DEFAULT_ROUNDS[size])
const skipMemory = process.argv.includes('--skip-memory')
// Whole-process CLI figures (start-up, and fold --json of the 280k log when it is among the sizes).
const skipCli = process.argv.includes('--skip-cli')
// --cli-only: just the whole-process CLI figures (quick to re-run after a CLI change).
const cliOnly = process.argv.includes('--cli-only')

const checksum = await loadContentChecksum()
const MB = 1e6

interface Throughput {
  ms: number
  mbPerS: number
  eventsPerS: number
  runs: number[]
}

/** Median over rounds of a[r] / b[r]. */

const through = (times: number[], log: BenchLog): Throughput => {
  const ms = median(times)
  return { ms, mbPerS: log.plainBytes / MB / (ms / 1000), eventsPerS: log.events / (ms / 1000), runs: times }
}

function sanity(log: BenchLog, jsonl: Uint8Array, zstd: Uint8Array): string[] {
  const problems: string[] = []
  const harness = harnessLoad(jsonl, 'jsonl')
  for (const [enc, bytes] of [
    ['jsonl', jsonl],
    ['zstd', zstd],
  ] as const) {
    const ours = lensLoad(bytes, checksum)
    if (ours.diagnostics.length > 0)
      problems.push(`${enc}: ${ours.diagnostics.length} diagnostics, first: ${ours.diagnostics[0]?.message}`)
    if (ours.length !== log.events) problems.push(`${enc}: ${ours.length} events, expected ${log.events}`)
    if (JSON.stringify(ours.surfaceSeqsAfter(ours.length - 1)) !== JSON.stringify(harness.nodes))
      problems.push(`${enc}: surface differs from foldSurface`)
  }
  return problems
}

function memory(path: string, encoding: Encoding, mode: 'ours' | 'harness'): { retained: number; indexBytes: number } {
  const result = spawnSync(process.execPath, [...NODE_FLAGS, '--import', 'tsx', PROBE, path, encoding, mode], {
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`memory probe failed: ${result.stderr}`)
  return JSON.parse(result.stdout.trim().split('\n').pop() as string) as { retained: number; indexBytes: number }
}

const results: Record<string, unknown> = {}
const throughputRows: string[][] = []
const foldRows: string[][] = []
const seekRows: string[][] = []
const appendRows: string[][] = []
const memoryRows: string[][] = []
const answerRows: string[][] = []
const skipAnswers = process.argv.includes('--skip-answers')
const misses: string[] = []
const started = performance.now()
const loadBefore = loadavg()

for (const size of cliOnly ? [] : sizes) {
  process.stderr.write(`[bench] ${size}: preparing logs (cached under .bench/logs)\n`)
  const log = benchLog(size)
  const jsonl = readFileSync(log.jsonlPath)
  const zstd = readFileSync(log.zstdPath)
  const problems = sanity(log, jsonl, zstd)
  if (problems.length > 0) process.stderr.write(`[bench] ${size}: CORRECTNESS PROBLEMS: ${problems.join('; ')}\n`)
  const rounds = roundsFor(size)
  const entry: Record<string, unknown> = { log, problems, rounds }
  results[size] = entry

  // 1. Decode + fold, end to end, per container.
  for (const [encoding, bytes] of [
    ['jsonl', jsonl],
    ['zstd', zstd],
  ] as const) {
    process.stderr.write(`[bench] ${size} ${encoding}: decode + fold x${rounds}\n`)
    const times = interleave(rounds, {
      floor: () => void floorParse(bytes, encoding),
      harness: () => void harnessLoad(bytes, encoding),
      ours: () => void lensLoad(bytes, checksum),
    })
    const floor = through(times['floor'] as number[], log)
    const harness = through(times['harness'] as number[], log)
    const ours = through(times['ours'] as number[], log)
    // Ratios pair the runs of one round (adjacent in time), so machine-wide load drift cancels out.
    const vsFloor = pairedRatio(ours.runs, floor.runs)
    const vsHarness = pairedRatio(ours.runs, harness.runs)
    entry[`load-${encoding}`] = { floor, harness, ours, vsFloor, vsHarness }
    throughputRows.push([
      size,
      encoding,
      `${fmt(log.plainBytes / MB)} MB`,
      `${fmt(floor.ms, 0)} / ${fmt(harness.ms, 0)} / ${fmt(ours.ms, 0)}`,
      fmt(ours.mbPerS),
      `${fmt(ours.eventsPerS / 1e6, 2)} M`,
      `${fmt(vsFloor, 2)}x`,
      `${fmt(vsHarness, 2)}x`,
    ])
    if (vsFloor > 1.5)
      misses.push(`${size} ${encoding}: ours/floor ${fmt(vsFloor, 2)}x misses <= 1.5x by ${fmt((vsFloor / 1.5 - 1) * 100, 0)}%`)
    if (vsHarness > 1.0)
      misses.push(`${size} ${encoding}: ours/harness ${fmt(vsHarness, 2)}x misses <= 1.0x by ${fmt((vsHarness - 1) * 100, 0)}%`)
  }

  // 2. The folds alone, on pre-decoded input (harness: expanded events; ours: the records LensLog keeps).
  {
    process.stderr.write(`[bench] ${size}: fold alone x${rounds}\n`)
    const parsed = floorParse(jsonl, 'jsonl')
    const events = expandRecords(parsed)
    const pre = preDecode(parsed)
    const times = interleave(rounds, { harness: () => void harnessFold(events), ours: () => void ourFold(pre) })
    const h = median(times['harness'] as number[])
    const o = median(times['ours'] as number[])
    const ratio = pairedRatio(times['ours'] as number[], times['harness'] as number[])
    entry['fold'] = { harnessMs: h, oursMs: o, ratio, runs: times }
    foldRows.push([size, fmt(h, 1), fmt(o, 1), `${fmt(ratio, 2)}x`, `${fmt(log.events / (o / 1000) / 1e6, 1)} M`])
    if (ratio > 1.0)
      misses.push(`${size} fold alone: ours/foldSurface ${fmt(ratio, 2)}x misses <= 1.0x by ${fmt((ratio - 1) * 100, 0)}%`)
  }

  // 3. Seek: the surface after event i, for 1,000 random i.
  {
    process.stderr.write(`[bench] ${size}: seek\n`)
    const lens = lensLoad(zstd, checksum)
    const rng = new Rng(99)
    const seqTimes: number[] = []
    const nodeTimes: number[] = []
    for (let k = 0; k < 1000; k++) {
      const i = rng.int(0, lens.length - 1)
      let t0 = performance.now()
      lens.nodesAfter(i)
      nodeTimes.push(performance.now() - t0)
      t0 = performance.now()
      lens.surfaceSeqsAfter(i)
      seqTimes.push(performance.now() - t0)
    }
    const seek = {
      surfaceSeqsAfter: { p50: percentile(seqTimes, 50), p95: percentile(seqTimes, 95), max: Math.max(...seqTimes) },
      nodesAfter: { p50: percentile(nodeTimes, 50), p95: percentile(nodeTimes, 95), max: Math.max(...nodeTimes) },
    }
    entry['seek'] = seek
    seekRows.push([
      size,
      `${fmt(seek.surfaceSeqsAfter.p50, 3)} / ${fmt(seek.surfaceSeqsAfter.p95, 3)} / ${fmt(seek.surfaceSeqsAfter.max, 2)}`,
      `${fmt(seek.nodesAfter.p50, 3)} / ${fmt(seek.nodesAfter.p95, 3)} / ${fmt(seek.nodesAfter.max, 2)}`,
    ])
    if (size === '1.3M' && seek.surfaceSeqsAfter.p95 >= 8)
      misses.push(`1.3M seek p95 ${fmt(seek.surfaceSeqsAfter.p95, 2)} ms misses < 8 ms`)
  }

  // 4. Append: one more JSONL line onto the loaded log (a live tail), chunk deltas and surface appends alternating.
  {
    process.stderr.write(`[bench] ${size}: append\n`)
    const lens = lensLoad(jsonl, checksum, false)
    const encoder = new TextEncoder()
    const chunkTimes: number[] = []
    const messageTimes: number[] = []
    // The generated log ends with every turn closed: open the next one, so the appended chunks name the open step.
    let turn = 1
    for (let i = lens.length - 1; i >= 0; i--) {
      const event = lens.rawEvent(i)
      if (event?.type !== 'turn/start') continue
      turn = (event.data as { turn: number }).turn + 1
      break
    }
    for (const [type, data] of [
      ['turn/start', { turn }],
      ['step/start', { turn, step: 1 }],
    ] as const) {
      lens.push(encoder.encode(JSON.stringify({ type, seq: lens.length, time: 1_790_000_000_000, data }) + '\n'))
    }
    for (let k = 0; k < 200; k++) {
      const seq = lens.length
      const event =
        k % 2 === 0
          ? {
              type: 'assistant/chunk',
              seq,
              time: 1_790_000_000_000 + k,
              data: { turn, step: 1, chunk: { type: 'text-delta', index: 0, text: ' more' } },
            }
          : {
              type: 'user/message',
              seq,
              time: 1_790_000_000_000 + k,
              data: {
                id: `appended-${k}`,
                role: 'user',
                content: [{ type: 'text', text: 'one more thing' }],
                source: { kind: 'user' },
              },
              surfaceOp: 'append',
            }
      const line = encoder.encode(JSON.stringify(event) + '\n')
      const t0 = performance.now()
      lens.push(line)
      ;(k % 2 === 0 ? chunkTimes : messageTimes).push(performance.now() - t0)
    }
    if (lens.diagnostics.length > 0)
      process.stderr.write(`[bench] append produced diagnostics: ${lens.diagnostics[0]?.message}\n`)
    const append = {
      chunk: { p50: median(chunkTimes), max: Math.max(...chunkTimes) },
      message: { p50: median(messageTimes), max: Math.max(...messageTimes) },
    }
    entry['append'] = append
    appendRows.push([
      size,
      `${fmt(append.chunk.p50, 3)} / ${fmt(append.chunk.max, 2)}`,
      `${fmt(append.message.p50, 3)} / ${fmt(append.message.max, 2)}`,
    ])
  }

  // 5. Answers when asked: each answer's first ask on a viewer's load, and the loads with no index / the viewer's / all.
  if (!skipAnswers && size !== '10k') {
    process.stderr.write(`[bench] ${size}: answers when asked x${rounds}\n`)
    const costs = answerCosts(jsonl, checksum, rounds)
    entry['answers'] = costs
    const share = (ms: number): string => `${fmt((ms / costs.loadMs.viewer) * 100, 1)}%`
    answerRows.push([
      size,
      "load: no index kept (fold --json) / the viewer's three / all six",
      `${fmt(costs.loadMs.none, 0)} / ${fmt(costs.loadMs.viewer, 0)} / ${fmt(costs.loadMs.all, 0)}`,
      `${share(costs.loadMs.none - costs.loadMs.viewer)} / - / +${share(costs.loadMs.all - costs.loadMs.viewer)}`,
    ])
    for (const a of costs.answers) answerRows.push([size, a.name, fmt(a.ms, 1), share(a.ms)])
  }

  // 6. Memory, each in a fresh process so one measurement's garbage cannot count against another.
  if (!skipMemory) {
    process.stderr.write(`[bench] ${size}: memory\n`)
    const ours = memory(log.jsonlPath, 'jsonl', 'ours')
    const harness = memory(log.jsonlPath, 'jsonl', 'harness')
    const ratio = ours.retained / log.plainBytes
    entry['memory'] = {
      ours,
      harness,
      oursPerEvent: ours.retained / log.events,
      harnessPerEvent: harness.retained / log.events,
      ratio,
    }
    memoryRows.push([
      size,
      `${fmt(ours.retained / MB)} MB`,
      fmt(ours.retained / log.events, 0),
      `${fmt(ratio, 2)}x`,
      `${fmt(ours.indexBytes / MB, 1)} MB`,
      `${fmt(harness.retained / MB)} MB`,
      fmt(harness.retained / log.events, 0),
    ])
    if (size === '1.3M' && ratio > 3)
      misses.push(`1.3M heap ${fmt(ratio, 2)}x plain text misses <= 3x by ${fmt((ratio / 3 - 1) * 100, 0)}%`)
  }
}

let cliReport: string | null = null
if (!skipCli) {
  const cliLogs = sizes.filter((s) => s === '280k' || s === '280k-short').map((s) => benchLog(s))
  const cli = await cliBench(cliLogs, Number(option('rounds') ?? 5))
  results['cli'] = cli.result
  cliReport = cli.report
  const startup = cli.result.startup.builtMs
  if (startup > 150) misses.push(`CLI start-up ${fmt(startup, 0)} ms misses <= 150 ms by ${fmt(startup - 150, 0)} ms`)
  for (const f of cli.result.folds) {
    if (f.oursOverFloor > FOLD_OVER_FLOOR_TARGET)
      misses.push(
        `CLI fold --json ${f.size} ${f.encoding}: ${fmt(f.oursOverFloor, 2)}x the whole-process floor misses <= ${FOLD_OVER_FLOOR_TARGET}x`,
      )
    if (f.oursOverHarness > FOLD_OVER_HARNESS_TARGET)
      misses.push(
        `CLI fold --json ${f.size} ${f.encoding}: ${fmt(f.oursOverHarness, 2)}x the harness run the same way misses <= ${FOLD_OVER_HARNESS_TARGET}x`,
      )
  }
}

// The first visit's JavaScript, from the built app (npm run build); target <= 150 KB gzipped.
const firstJs = initialJs()
let initialJsReport = 'Initial JS: dist/ not built (npm run build; --browser reports it from its own build).'
if (firstJs !== null) {
  results['initialJs'] = firstJs
  const kb = firstJs.initialGzipBytes / 1024
  initialJsReport =
    `Initial JS (entry + modulepreloads, gzip -9): ${fmt(kb)} KB ${kb <= 150 ? 'PASS' : 'MISS'} (target <= 150 KB); ` +
    `loaded after first paint: ${fmt(firstJs.lazyGzipBytes / 1024)} KB lazy chunks, ${fmt(firstJs.workerGzipBytes / 1024)} KB worker.`
  if (kb > 150) misses.push(`initial JS ${fmt(kb)} KB gzipped misses <= 150 KB by ${fmt(kb - 150)} KB`)
}

const cpuModel = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? cpus()[0]?.model ?? 'unknown'
const loadAfter = loadavg()
const machine = {
  nproc: cpus().length,
  cpu: cpuModel,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadAverage1m: { before: loadBefore[0], after: loadAfter[0] },
}
const report = [
  `Machine: ${machine.nproc} CPUs, ${machine.cpu}, Node ${machine.node} (${machine.platform}); ` +
    `load average ${fmt(loadBefore[0] ?? NaN, 2)} -> ${fmt(loadAfter[0] ?? NaN, 2)} (shared machine).`,
  'Times are medians of interleaved rounds (order rotated each round); ratios are medians of per-round ratios.',
  '',
  'Decode + fold (floor = decode + JSON.parse per line; harness = floor + row expansion + foldSurface; ours = LensLog):',
  table(
    [
      'size',
      'container',
      'plaintext',
      'ms floor / harness / ours',
      'ours MB/s',
      'ours events/s',
      'ours/floor (<=1.5)',
      'ours/harness (<=1.0)',
    ],
    throughputRows,
  ),
  '',
  'Fold alone on pre-decoded input (harness: foldSurface on expanded events; ours: SurfaceFold on packed records):',
  table(['size', 'foldSurface ms', 'ours ms', 'ours/harness', 'ours events/s'], foldRows),
  '',
  'Seek, 1,000 random indices (ms p50 / p95 / max; target p95 < 8 ms at 1.3M):',
  table(['size', 'surfaceSeqsAfter', 'nodesAfter'], seekRows),
  '',
  'Append one JSONL line to the loaded log (ms p50 / max):',
  table(['size', 'chunk delta', 'user/message append'], appendRows),
  ...(memoryRows.length > 0
    ? [
        '',
        'Memory retained after load (heapUsed + arrayBuffers delta after GC; target <= 3x plain text at 1.3M):',
        table(['size', 'ours', 'ours B/event', 'ours/plain', 'ours index', 'harness', 'harness B/event'], memoryRows),
      ]
    : []),
  ...(answerRows.length > 0
    ? [
        '',
        'Answers when asked (in process, JSONL; each answer first asked on a fresh load as the viewer makes it, so it pays',
        "for the indexes it builds; share = of that load's time):",
        table(['size', 'what', 'ms (median)', 'share of the load'], answerRows),
      ]
    : []),
  ...(cliReport === null ? [] : ['', cliReport]),
  '',
  initialJsReport,
  '',
  misses.length === 0 ? 'All targets met.' : `Targets missed:\n${misses.map((m) => `- ${m}`).join('\n')}`,
  `Bench time: ${fmt((performance.now() - started) / 1000, 0)} s`,
].join('\n')

process.stdout.write(report + '\n')
mkdirSync('.bench', { recursive: true })
const json = JSON.stringify({ when: new Date().toISOString(), machine, sizes, results, misses, report }, null, 2)
writeFileSync(`.bench/bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, json)
writeFileSync('.bench/bench-latest.json', json)
process.stderr.write('[bench] wrote .bench/bench-latest.json\n')

// The browser part needs the viewer built and Chromium; opt in with --browser.
if (process.argv.includes('--browser')) {
  const browser = fileURLToPath(new URL('./browser-bench.ts', import.meta.url))
  const run = spawnSync(process.execPath, ['--import', 'tsx', browser, '--sizes', sizes.join(',')], { stdio: 'inherit' })
  if (run.status !== 0) process.exitCode = run.status ?? 1
}

// Comparing two runs (issue 38: diff A B vs folding both, whole processes); opt in with --compare.
if (process.argv.includes('--compare')) {
  const lane = fileURLToPath(new URL('./compare-lane.ts', import.meta.url))
  const run = spawnSync(process.execPath, ['--import', 'tsx', lane, '--rounds', option('rounds') ?? '5'], { stdio: 'inherit' })
  if (run.status !== 0) process.exitCode = run.status ?? 1
}

// The Compare view's first screen (issue 38: two 280k runs in the built viewer); opt in with --compare-view.
if (process.argv.includes('--compare-view')) {
  const lane = fileURLToPath(new URL('./compare-view-lane.ts', import.meta.url))
  const run = spawnSync(process.execPath, ['--import', 'tsx', lane, '--rounds', option('rounds') ?? '3'], { stdio: 'inherit' })
  if (run.status !== 0) process.exitCode = run.status ?? 1
}

// The dsh web lane needs the built viewer, Chromium and the real harness (../shared/real-dsh); opt in with --dsh-web.
if (process.argv.includes('--dsh-web')) {
  const lane = fileURLToPath(new URL('./dsh-web-lane.ts', import.meta.url))
  const run = spawnSync(process.execPath, ['--import', 'tsx', lane], { stdio: 'inherit' })
  if (run.status !== 0) process.exitCode = run.status ?? 1
}

// What it cost (issue 37): cost --json against timing --json, usage --json warm and cold; opt in with --cost.
if (process.argv.includes('--cost')) {
  const lane = fileURLToPath(new URL('./cost-bench.ts', import.meta.url))
  const run = spawnSync(process.execPath, ['--import', 'tsx', lane], { stdio: 'inherit' })
  if (run.status !== 0) process.exitCode = run.status ?? 1
}
