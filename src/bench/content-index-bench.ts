/**
 * The content index lanes (issue 40): `npm run bench:index [-- --sessions 1000 --plain-mb 1000 --rounds 20]`.
 *
 * A generated dsh home (`.bench/content-home-<sessions>-<mb>/`, kept between runs, never committed): sessions of the
 * generator's real-harness shapes (packed chunk rows, tool calls and results, compactions and prunes) of varied
 * sizes (`--bodies` distinct ones, see makeHome), in 25 projects, each a zstd log as the harness writes it (a header
 * frame, one frame per batch). Measured in
 * one process, on the same home, in one run:
 * - the sessions list's digest scan of every log (src/server/catalog/digest-scan.ts), the baseline of the cold build;
 * - the cold index build (a fresh cache directory), its ratio to the digest scan (target: within 2x);
 * - a warm start with nothing changed: open the index and refresh it (target: under 0.3 s);
 * - in-process queries (common and rare words, a phrase, a prefix, filters): p50/p95 (target p95 under 50 ms);
 * - the index's bytes against the logs' (target: under 0.5x);
 * - a linear scan of every log through our own search (LensLog + LogSearch, src/core/search), per query, against the
 *   index's answer to the same query.
 * It prints the table for docs/benchmarks.md and writes `.bench/content-index.json`.
 */

import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { compileMatcher, LensLog, loadContentChecksum, LogSearch } from '../core/index.ts'
import { batchText, headerLine, streamSession } from '../generate/index.ts'
import { ContentIndex } from '../server/content-index/content-index.ts'
import { scanDigest } from '../server/catalog/digest-scan.ts'
import { grownEvents, PLANTED_AT, plantedEvents, writeSession } from '../test-support/planted-home.ts'
import { fmt, median, percentile } from './measure.ts'
import { writeZstdFrames } from './zstd-writer.ts'

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}

const SESSIONS = option('sessions', 1000)
const PLAIN_MB = option('plain-mb', 1000)
const ROUNDS = option('rounds', 20)
const BODIES = option('bodies', 40)
const PROJECTS = 25
const HOME = resolve(`.bench/content-home-${SESSIONS}-${PLAIN_MB}`)
const ROOT = join(HOME, 'sessions')
/** Plaintext bytes per generated event, about (the generator's default shapes); the first session corrects it. */
let bytesPerEvent = 80

/**
 * What a user types: a ticket one session mentions, a name 25 sessions mention (each session ends with a planted
 * request, see makeHome), a phrase, a prefix, with filters. The worst case is apart: the generator's vocabulary is
 * ~150 words, so any of them (`the`) is in nearly every one of the home's documents.
 */
const QUERIES: Array<{ label: string; query: string; filters?: Record<string, unknown>; worst?: boolean }> = [
  { label: 'a ticket in one session', query: 'LENS-417' },
  { label: 'a name in 25 sessions', query: 'importer07' },
  { label: 'a phrase in 25 sessions', query: 'csv importer07 crashes' },
  { label: 'a prefix', query: 'importer1*' },
  {
    label: 'a name, one project, since a date',
    query: 'importer07',
    filters: { project: 'project-07', since: 1_786_000_000_000 },
  },
  { label: 'failed tool results', query: 'error', filters: { failed: true, tool: 'bash' } },
  { label: 'worst case: a word in nearly every document', query: 'the', worst: true },
  { label: 'worst case, shadowed only', query: 'the', filters: { surface: 'shadowed' }, worst: true },
]

/**
 * Generating 1 GB of sessions one by one takes longer than the lanes; so `BODIES` distinct session bodies (the
 * generator's batches, as zstd frames) of sizes from a fifth to nine fifths of the mean are made once, and each of
 * the sessions is its own header frame (id, project, creation time) followed by one of the bodies. zstd frames are
 * independent, so each file is a valid log, and the digest scan and the index read every byte of every one.
 */
function makeHome(): { logBytes: number; plainBytes: number } {
  const marker = join(HOME, 'complete.json')
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as { logBytes: number; plainBytes: number }
  rmSync(HOME, { recursive: true, force: true })
  const meanBytes = (PLAIN_MB * 1e6) / SESSIONS
  const bodies: Array<{ path: string; plain: number; createdAt: number; lastSeq: number; lastTime: number }> = []
  mkdirSync(join(HOME, 'bodies'), { recursive: true })
  for (let b = 0; b < BODIES; b++) {
    const share = 0.2 + (1.6 * b) / Math.max(1, BODIES - 1)
    const createdAt = 1_786_000_000_000
    const stream = streamSession({
      seed: 1000 + b,
      targetEvents: Math.max(200, Math.round((share * meanBytes) / bytesPerEvent)),
      createdAt,
    })
    const frames: string[] = []
    let events = 0
    let lastTime = createdAt
    for (const batch of stream.batches) {
      frames.push(batchText(batch))
      for (const record of batch) {
        events += 'seq0' in record ? (record.data.texts ?? record.data.args ?? []).length : 1
        lastTime = Math.max(lastTime, 'seq0' in record ? record.time0 : record.time)
      }
    }
    const plain = frames.reduce((n, f) => n + Buffer.byteLength(f), 0)
    if (b === 0) bytesPerEvent = plain / Math.max(1, events)
    const path = join(HOME, 'bodies', `${b}.zstd`)
    writeZstdFrames(frames, path)
    bodies.push({ path, plain, createdAt, lastSeq: events - 1, lastTime })
    process.stderr.write(`[bench:index] body ${b + 1}/${BODIES}: ${fmt(plain / 1e6, 2)} MB plain\n`)
  }
  let plainBytes = 0
  let logBytes = 0
  const scratch = join(HOME, 'header.zstd')
  for (let i = 0; i < SESSIONS; i++) {
    const body = bodies[i % BODIES] as (typeof bodies)[number]
    const project = `/home/u/project-${String(i % PROJECTS).padStart(2, '0')}`
    const id = `session-${String(i).padStart(5, '0')}-content-bench`
    const header = headerLine({
      type: 'session',
      version: 0,
      id,
      createdAt: body.createdAt + i * 3_600_000,
      cwd: project,
      delegationDepth: 0,
    })
    // The session's own last words: a request naming a ticket (one session) and an importer (every 40th session).
    const request = JSON.stringify({
      type: 'user/message',
      seq: body.lastSeq + 1,
      time: body.lastTime + 1000,
      data: {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `Ticket LENS-${i}: the csv importer${String(i % 40).padStart(2, '0')} crashes on quoted newlines`,
          },
        ],
        source: { kind: 'user' },
        id: `ticket-${i}`,
      },
      surfaceOp: 'append',
    })
    writeZstdFrames([header, `${request}\n`], scratch)
    const dir = join(ROOT, `--home-u-project-${String(i % PROJECTS).padStart(2, '0')}--`, id)
    mkdirSync(dir, { recursive: true })
    const path = join(dir, 'session.jsonl.zstd')
    // Header frame, the body's frames, then the request's frame: split the scratch file's two frames around the body.
    const own = readFileSync(scratch)
    const cut = frameEnd(own)
    writeFileSync(path, Buffer.concat([own.subarray(0, cut), readFileSync(body.path), own.subarray(cut)]))
    plainBytes += body.plain + Buffer.byteLength(header) + Buffer.byteLength(request) + 1
    logBytes += statSync(path).size
    if (i % 100 === 99)
      process.stderr.write(`[bench:index] wrote ${i + 1}/${SESSIONS} sessions, ${fmt(plainBytes / 1e6, 0)} MB plain\n`)
  }
  rmSync(scratch, { force: true })
  const facts = { logBytes, plainBytes }
  writeFileSync(marker, JSON.stringify(facts))
  return facts
}

/** The end of the first zstd frame of `bytes` (single-segment frames with a content checksum, as the zstd CLI writes). */
function frameEnd(bytes: Buffer): number {
  const descriptor = bytes[4] as number
  const singleSegment = (descriptor & 0x20) !== 0
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 0x03] as number
  const sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][descriptor >> 6] as number
  let at = 4 + 1 + (singleSegment ? 0 : 1) + dictionaryBytes + sizeBytes
  for (;;) {
    const header = (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16)
    const type = (header >> 1) & 3
    const size = header >> 3
    at += 3 + (type === 1 ? 1 : size)
    if ((header & 1) === 1) break
  }
  return at + ((descriptor & 0x04) !== 0 ? 4 : 0)
}

async function logsOf(root: string): Promise<string[]> {
  const out: string[] = []
  for (const project of await readdir(root)) {
    for (const session of await readdir(join(root, project))) out.push(join(root, project, session, 'session.jsonl.zstd'))
  }
  return out.sort()
}

async function digestScan(logs: readonly string[]): Promise<number> {
  const checksum = await loadContentChecksum()
  const t = performance.now()
  for (const path of logs) {
    const st = statSync(path)
    await scanDigest(
      path,
      { dev: st.dev, ino: st.ino, birthtimeMs: st.birthtimeMs, size: st.size, mtimeMs: st.mtimeMs },
      undefined,
      { checksum },
    )
  }
  return performance.now() - t
}

async function coldBuild(cacheDir: string): Promise<{ ms: number; index: ContentIndex }> {
  rmSync(cacheDir, { recursive: true, force: true })
  const t = performance.now()
  const index = await ContentIndex.open({ root: ROOT, cacheDir })
  const report = await index.refresh()
  const ms = performance.now() - t
  if (report.indexed !== SESSIONS) throw new Error(`indexed ${report.indexed} sessions, expected ${SESSIONS}`)
  return { ms, index }
}

async function warmStart(cacheDir: string): Promise<number> {
  const t = performance.now()
  const index = await ContentIndex.open({ root: ROOT, cacheDir })
  const report = await index.refresh()
  const ms = performance.now() - t
  index.close()
  if (report.unchanged !== SESSIONS) throw new Error(`a warm start found changes: ${JSON.stringify(report)}`)
  return ms
}

/** Every log loaded and searched with the core's own search: what answering without an index costs. */
async function linearScan(logs: readonly string[], query: string): Promise<{ ms: number; sessions: number }> {
  const checksum = await loadContentChecksum()
  const compiled = compileMatcher(query, false)
  if (!compiled.ok) throw new Error(compiled.error)
  const t = performance.now()
  let sessions = 0
  for (const path of logs) {
    const log = new LensLog({ checksum })
    log.push(readFileSync(path))
    log.finish()
    const search = new LogSearch(log, compiled.matcher)
    if (search.step({ maxMatches: 1 }).length > 0) sessions++
  }
  return { ms: performance.now() - t, sessions }
}

/**
 * A running session (its turn open) joins the home and is indexed; then five times one append, and the time from the
 * refresh of that one file (what a watcher that saw it grow asks) to its new words being found. It leaves the home.
 */
async function growLane(): Promise<number[]> {
  const events = plantedEvents('grow').slice(0, PLANTED_AT.summary + 2)
  const session = writeSession(ROOT, { id: 'session-zz-grow', project: '/home/u/grow', events })
  const index = await ContentIndex.open({ root: ROOT, cacheDir })
  const times: number[] = []
  try {
    await index.refresh({ paths: [session.path] })
    let next = events.length
    for (let k = 0; k < 5; k++) {
      const more = grownEvents(next, `appended PLANTGROW${k} text`)
      appendFileSync(session.path, more.map((e) => JSON.stringify(e) + '\n').join(''))
      next += more.length
      const t = performance.now()
      const report = await index.refresh({ paths: [session.path] })
      const page = index.search({ query: `PLANTGROW${k}` })
      times.push(performance.now() - t)
      if (!page.ok || page.sessions.length !== 1 || report.appended !== 1) throw new Error('the grown session was not found')
    }
  } finally {
    rmSync(join(session.path, '..', '..'), { recursive: true, force: true })
    await index.refresh()
    index.close()
  }
  return times
}

function indexBytes(path: string): number {
  return ['', '-wal'].reduce((n, suffix) => n + (existsSync(path + suffix) ? statSync(path + suffix).size : 0), 0)
}

const started = new Date()
const load = loadavg()
process.stderr.write(`[bench:index] home: ${SESSIONS} sessions, ${PLAIN_MB} MB of plaintext (${HOME})\n`)
const home = makeHome()
const logs = await logsOf(ROOT)
const cacheDir = resolve('.bench/content-index-cache')

process.stderr.write('[bench:index] digest scan, cold build, digest scan again\n')
const digestBefore = await digestScan(logs)
const { ms: coldMs, index } = await coldBuild(cacheDir)
const digestAfter = await digestScan(logs)
const digestMs = median([digestBefore, digestAfter])
const status = index.status()
index.close()

process.stderr.write('[bench:index] warm starts\n')
const warm: number[] = []
for (let r = 0; r < 5; r++) warm.push(await warmStart(cacheDir))

process.stderr.write('[bench:index] a running session grows\n')
const grown = await growLane()

process.stderr.write('[bench:index] queries\n')
const searcher = await ContentIndex.open({ root: ROOT, cacheDir })
const queryRows: string[] = []
const typicalMs: number[] = []
const worstMs: number[] = []
const perQuery: Record<string, { p50: number; p95: number; sessions: number }> = {}
for (const q of QUERIES) {
  const times: number[] = []
  let sessions = 0
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now()
    const page = searcher.search({ query: q.query, ...q.filters })
    times.push(performance.now() - t)
    if (!page.ok) throw new Error(page.message)
    sessions = page.sessions.length
  }
  ;(q.worst === true ? worstMs : typicalMs).push(...times)
  perQuery[q.label] = { p50: median(times), p95: percentile(times, 95), sessions }
  queryRows.push(
    `| query: ${q.label} (\`${q.query}\`${q.filters === undefined ? '' : ` ${JSON.stringify(q.filters)}`}) | ${fmt(median(times))} ms | ${fmt(percentile(times, 95))} ms | ${sessions} |`,
  )
}
searcher.close()

process.stderr.write('[bench:index] linear scan through src/core/search\n')
const scanQuery = 'importer07'
const scan = await linearScan(logs, scanQuery)
const indexedQuery = perQuery['a name in 25 sessions'] as { p50: number }

const bytes = indexBytes(status.path)
const p95 = percentile(typicalMs, 95)
const lines = [
  `${started.toISOString()}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}, load average ${load.map((l) => fmt(l, 2)).join(' ')}`,
  `home: ${SESSIONS} sessions, ${fmt(home.plainBytes / 1e6, 0)} MB plaintext in ${fmt(home.logBytes / 1e6, 0)} MB of zstd logs; ${status.events} events, ${status.documents} documents`,
  '',
  '| figure | result | target |',
  '| --- | --- | --- |',
  `| digest scan of every log (the sessions list's; baseline) | ${fmt(digestMs / 1000, 2)} s (runs ${fmt(digestBefore / 1000, 2)}, ${fmt(digestAfter / 1000, 2)}) | |`,
  `| cold index build | ${fmt(coldMs / 1000, 2)} s = ${fmt(coldMs / digestMs, 2)}x the digest scan, ${fmt(home.plainBytes / 1e6 / (coldMs / 1000), 1)} MB/s of plaintext | ≤ 2x ${coldMs <= 2 * digestMs ? 'PASS' : 'MISS'} |`,
  `| warm start, nothing changed (open + refresh) | ${fmt(median(warm))} ms (max ${fmt(Math.max(...warm))}) | < 300 ms ${median(warm) < 300 ? 'PASS' : 'MISS'} |`,
  `| a running session's append: refresh of that file to its new words found | ${grown.map((t) => fmt(t)).join(', ')} ms | < 1 s ${Math.max(...grown) < 1000 ? 'PASS' : 'MISS'} |`,
  `| query p95 in process, what a user types (the first six below) | ${fmt(p95)} ms | < 50 ms ${p95 < 50 ? 'PASS' : 'MISS'} |`,
  `| query p95 in process, the worst case (a word in nearly every document) | ${fmt(percentile(worstMs, 95))} ms | |`,
  `| index size | ${fmt(bytes / 1e6, 1)} MB = ${fmt(bytes / home.logBytes, 2)}x the zstd logs, ${fmt(bytes / home.plainBytes, 2)}x their plaintext | < 0.5x ${bytes < 0.5 * home.logBytes ? 'PASS' : 'MISS'} (of the files) |`,
  `| linear scan of every log through src/core/search (\`${scanQuery}\`) | ${fmt(scan.ms / 1000, 2)} s, ${scan.sessions} sessions = ${fmt(scan.ms / indexedQuery.p50, 0)}x the index's p50 | |`,
  '',
  '| query | p50 | p95 | sessions on the first page |',
  '| --- | --- | --- | --- |',
  ...queryRows,
]
process.stdout.write(lines.join('\n') + '\n')
mkdirSync('.bench', { recursive: true })
writeFileSync(
  '.bench/content-index.json',
  JSON.stringify(
    {
      started,
      sessions: SESSIONS,
      home,
      status: { ...status, skipped: status.skipped.length },
      digestBefore,
      digestAfter,
      coldMs,
      warm,
      grown,
      perQuery,
      bytes,
      scan,
    },
    null,
    2,
  ),
)
