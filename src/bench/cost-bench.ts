/**
 * The cost lanes (issue 37), whole processes where the user stands, rounds interleaved, ratios paired by round:
 *
 * - `cost --json` against `timing --json` on a big generated log (default the 1.3M preset; plain and zstd): cost is
 *   one more pass over steps the load already found, so its target is within 1.1x of timing;
 * - `usage --json` over a generated dsh home of 1,000 sessions (1 GB of plain JSONL, written as the harness writes them,
 *   zstd; 25 projects, one session in ten a subagent; kept in .bench/usage-home): cold (an empty cache directory)
 *   against the sessions home's own digest scan of the same files (src/server/digest-scan.ts, one process; target
 *   within 1.1x: "at the speed of the digest scan"), warm (every digest cached), whose target is under 0.5 s, and
 *   priced again from the kept facts (another currency).
 *
 * `npm run bench -- --cost` after the core lanes, or alone: `tsx src/bench/cost-bench.ts [--size 1.3M] [--rounds N]
 * [--skip-usage] [--skip-log]`. The generator's provider is `deepseek`, which no card prices: the lanes extend the card
 * with it (.bench/cost-rates.json) so every step is priced, as a user's are.
 */

import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { builtInRateCard, loadContentChecksum } from '../core/index.ts'
import { batchText, headerLine, streamSession, type PresetName } from '../generate/index.ts'
import { logsBelow } from '../server/catalog/log-discovery.ts'
import { PathGuard } from '../server/path-guard.ts'
import { scanDigest } from '../server/catalog/digest-scan.ts'
import { benchLog } from './bench-logs.ts'
import { fmt, median, pairedRatio, rounds, table } from './measure.ts'
import { writeZstdFrames } from './zstd-writer.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const OUT = join(ROOT, '.bench/cost')
const HOME = join(ROOT, '.bench/usage-home')
const SESSIONS = 1000
const PROJECTS = 25
const devNull = openSync('/dev/null', 'w')

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

/**
 * The bench's rates file: the card extended with the generator's provider, so every generated step has a price (the
 * shipped card's latest peak windows, deepseek-flash's figures).
 */
function ratesFile(): string {
  const path = join(ROOT, '.bench/cost-rates.json')
  const row = (model: string, effectiveFrom: string, peak: boolean) => ({
    provider: 'deepseek',
    model,
    effectiveFrom,
    ...(peak
      ? {
          peak: builtInRateCard().rates.findLast((r) => r.peak !== undefined)?.peak,
          USD: {
            peak: { inputMiss: 0.3, inputHit: 0.006, output: 1.2 },
            offPeak: { inputMiss: 0.15, inputHit: 0.003, output: 0.6 },
          },
          CNY: { peak: { inputMiss: 2, inputHit: 0.04, output: 8 }, offPeak: { inputMiss: 1, inputHit: 0.02, output: 4 } },
        }
      : { USD: { inputMiss: 0.14, inputHit: 0.0028, output: 0.28 }, CNY: { inputMiss: 1, inputHit: 0.02, output: 2 } }),
    source: ['https://api-docs.deepseek.com/quick_start/pricing'],
    read: '2026-12-07',
    note: "The bench's stand-in for the generator's provider: deepseek-flash's figures.",
  })
  const rates = ['deepseek-chat', 'deepseek-reasoner'].flatMap((m) => [
    row(m, '2026-01-01T00:00:00Z', false),
    row(m, '2026-08-16T16:00:00Z', true),
  ])
  mkdirSync(join(ROOT, '.bench'), { recursive: true })
  writeFileSync(path, JSON.stringify({ schema: 1, version: 'bench', checked: '2026-12-07', rates }))
  return path
}

function buildCli(): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/build/build-cli.ts', '--outdir', join(OUT, 'cli')], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`build-cli failed: ${run.stderr}`)
  return join(OUT, 'cli/dsh-lens.cjs')
}

/** Wall time of one whole process, spawn to exit; a failure is an error, never a fast time. */
function timeProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): number {
  const t0 = performance.now()
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', devNull, 'pipe'],
    env: { ...process.env, ...env },
  })
  const ms = performance.now() - t0
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return ms
}

/** The 1,000-session home, written once: sizes drawn so the plain text totals about 1 GB. */
function makeHome(): { root: string; plainBytes: number; zstdBytes: number } {
  const root = join(HOME, 'sessions')
  const marker = join(HOME, 'complete.json')
  if (existsSync(marker))
    return JSON.parse(readFileSync(marker, 'utf8')) as { root: string; plainBytes: number; zstdBytes: number }
  rmSync(HOME, { recursive: true, force: true })
  let plainBytes = 0
  let zstdBytes = 0
  let parent: string | null = null
  for (let i = 0; i < SESSIONS; i++) {
    const child: boolean = parent !== null && i % 10 === 1
    // ~11.4k events is ~1 MB of plain JSONL from this generator; sessions vary from a third to twice that.
    const targetEvents = 3_800 + ((i * 7919) % 19_000)
    const stream = streamSession({
      seed: 1_000 + i,
      targetEvents,
      createdAt: Date.parse('2026-08-10T00:00:00Z') + i * 95 * 60_000,
      compactionEveryTurns: 8,
      pruneEveryTurns: 5,
      headerChangeEveryTurns: 12,
      retryEverySteps: 40,
    })
    const id: string = child ? `child-${String(i).padStart(5, '0')}` : `session-${String(i).padStart(5, '0')}-usage`
    const header = { ...stream.header, id, ...(child ? { parentSession: parent, origin: 'subagent', delegationDepth: 1 } : {}) }
    const dir = join(root, `--home-u-project-${String(i % PROJECTS).padStart(2, '0')}--`, id)
    mkdirSync(dir, { recursive: true })
    const frames = (function* (): Generator<string> {
      const text = headerLine(header as typeof stream.header)
      plainBytes += Buffer.byteLength(text)
      yield text
      for (const batch of stream.batches) {
        const body = batchText(batch)
        plainBytes += Buffer.byteLength(body)
        yield body
      }
    })()
    writeZstdFrames(frames, join(dir, 'session.jsonl.zstd'))
    zstdBytes += readFileSync(join(dir, 'session.jsonl.zstd')).length
    if (!child) parent = id
    if (i % 100 === 99) process.stderr.write(`[cost-bench] home: ${i + 1} sessions, ${fmt(plainBytes / 1e9, 2)} GB plain\n`)
  }
  const made = { root, plainBytes, zstdBytes }
  writeFileSync(marker, JSON.stringify(made))
  return made
}

/** The sessions home's digest scan of every log below `root`, cold, in this process: the floor `usage` cold is held to. */
async function digestScanMs(root: string): Promise<number> {
  const t0 = performance.now()
  const guard = await PathGuard.create([root])
  const checksum = await loadContentChecksum()
  const { logs } = await logsBelow(root, guard)
  for (const { path, stats } of logs)
    await scanDigest(
      path,
      { dev: stats.dev, ino: stats.ino, birthtimeMs: stats.birthtimeMs, size: stats.size, mtimeMs: stats.mtimeMs },
      undefined,
      { checksum },
    )
  return performance.now() - t0
}

if (process.argv.includes('--digest-scan-floor')) {
  // A child run of the floor: one whole process, as `usage` is.
  await digestScanMs(option('digest-scan-floor') as string)
  process.exit(0)
}

const machine = `${cpus().length} vCPU ${cpus()[0]?.model ?? '?'}, Node ${process.version}, load ${loadavg()
  .map((l) => fmt(l, 2))
  .join(' ')}`
process.stderr.write(`[cost-bench] building the CLI into ${OUT}/cli\n`)
const cli = buildCli()
const rates = ratesFile()
const n = Number(option('rounds') ?? 3)
const lines: string[] = [`Cost lanes (issue 37), ${new Date().toISOString()}, ${machine}`]
const misses: string[] = []

if (!process.argv.includes('--skip-log')) {
  const size = (option('size') ?? '1.3M') as PresetName
  const log = benchLog(size)
  const rows: string[][] = []
  for (const [encoding, path] of [
    ['jsonl', log.jsonlPath],
    ['zstd', log.zstdPath],
  ] as const) {
    process.stderr.write(`[cost-bench] ${size} ${encoding}: timing --json and cost --json, ${n} rounds\n`)
    const times = rounds(n, {
      timing: () => timeProcess([cli, 'timing', path, '--json']),
      cost: () => timeProcess([cli, 'cost', path, '--json', '--rates', rates]),
    })
    const ratio = pairedRatio(times['cost'] as number[], times['timing'] as number[])
    rows.push([
      size,
      encoding,
      fmt(median(times['timing'] as number[]), 0),
      fmt(median(times['cost'] as number[]), 0),
      `${fmt(ratio, 3)}x`,
      ratio <= 1.1 ? 'PASS' : 'MISS',
    ])
    if (ratio > 1.1) misses.push(`${size} ${encoding}: cost/timing ${fmt(ratio, 3)}x misses <= 1.1x`)
  }
  lines.push('', '`cost --json` against `timing --json`, whole processes (ms, medians; ratio paired by round; target <= 1.1x):')
  lines.push(table(['log', 'container', 'timing', 'cost', 'cost/timing', 'verdict'], rows))
}

if (!process.argv.includes('--skip-usage')) {
  process.stderr.write('[cost-bench] the 1,000-session home (written once, kept in .bench/usage-home)\n')
  const home = makeHome()
  const cache = join(OUT, 'usage-cache')
  const args = [cli, 'usage', home.root, '--json', '--by', 'day', '--rates', rates]
  const coldRounds = Number(option('cold-rounds') ?? 2)
  const cold = rounds(coldRounds, {
    usage: () => {
      rmSync(cache, { recursive: true, force: true })
      return timeProcess(args, { XDG_CACHE_HOME: cache })
    },
    'digest scan': () => timeProcess(['--import', 'tsx', fileURLToPath(import.meta.url), '--digest-scan-floor', home.root]),
  })
  // The last cold run left the cache: every warm run reads it and no log.
  rmSync(cache, { recursive: true, force: true })
  timeProcess(args, { XDG_CACHE_HOME: cache })
  const warm = rounds(Math.max(n, 5), {
    usage: () => timeProcess(args, { XDG_CACHE_HOME: cache }),
    'node -e 0': () => timeProcess(['-e', '0']),
  })
  // Each run in the other currency than the last: every log priced again from its kept facts, no log read.
  let currency = 'USD'
  const repriced = rounds(Math.max(n, 5), {
    usage: () => {
      currency = currency === 'USD' ? 'CNY' : 'USD'
      return timeProcess([...args, '--currency', currency], { XDG_CACHE_HOME: cache })
    },
  })
  const warmMs = median(warm['usage'] as number[])
  const coldRatio = pairedRatio(cold['usage'] as number[], cold['digest scan'] as number[])
  lines.push(
    '',
    `\`usage --json --by day\` over ${SESSIONS} sessions (${fmt(home.plainBytes / 1e9, 2)} GB plain, ${fmt(home.zstdBytes / 1e6, 0)} MB zstd), whole processes (ms, medians):`,
    table(
      ['run', 'usage', 'baseline', 'ratio', 'target', 'verdict'],
      [
        [
          'cold (empty cache)',
          fmt(median(cold['usage'] as number[]), 0),
          `digest scan ${fmt(median(cold['digest scan'] as number[]), 0)}`,
          `${fmt(coldRatio, 2)}x`,
          '<= 1.1x the scan',
          coldRatio <= 1.1 ? 'PASS' : 'MISS',
        ],
        [
          'warm (every digest cached)',
          fmt(warmMs, 0),
          `node -e 0 ${fmt(median(warm['node -e 0'] as number[]), 0)}`,
          '',
          '< 500 ms',
          warmMs < 500 ? 'PASS' : 'MISS',
        ],
        ['priced again (the other currency)', fmt(median(repriced['usage'] as number[]), 0), '', '', '', ''],
      ],
    ),
  )
  if (coldRatio > 1.1) misses.push(`usage cold ${fmt(coldRatio, 2)}x the digest scan misses <= 1.1x`)
  if (warmMs >= 500) misses.push(`usage warm ${fmt(warmMs, 0)} ms misses < 500 ms`)
}

lines.push('', misses.length === 0 ? 'All cost targets met.' : `Targets missed:\n${misses.map((m) => `- ${m}`).join('\n')}`)
const report = lines.join('\n')
process.stdout.write(report + '\n')
mkdirSync(OUT, { recursive: true })
writeFileSync(join(OUT, 'cost-latest.txt'), report + '\n')
