/**
 * `npm run soak [-- --clients 10 --rate 2000 --minutes 10 --jsonl]`: the companion server (`lens serve`, a real
 * process) follows one session written at `rate` events/s by a writer process, for `clients` TailClient
 * followers (a process each, as each viewer is a tab of its own) plus one stalled reader. Every 10 s it samples the server's RSS and each follower's position; at
 * the end it checks, by seq and content hash against the file itself: every follower got every event once
 * (0 duplicates, 0 gaps, 0 altered), the server's RSS stayed bounded, the stalled reader was cut off with a
 * reason, and the followers kept advancing meanwhile. Exits 1 if a check fails. Not part of `npm test`.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { open, readFile, rm } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { LineSplitter, ZstdContainer, hasZstdMagic, loadContentChecksum } from '../core/index.ts'
import { sessionPath, tempRoot } from '../test-support/live-test-kit.ts'
import { lineEvents, SeqLedger } from './event-hashes.ts'
import { StalledReader } from './soak-clients.ts'

interface FollowerState {
  lastSeq: number
  events: number
  duplicates: number
  resets: number
  order: number
  reconnects: number
  errors: string[]
}

/** A follower process and its latest report. */
class FollowerProcess {
  state: FollowerState = { lastSeq: -1, events: 0, duplicates: 0, resets: 0, order: 0, reconnects: 0, errors: [] }
  dumped: number | undefined
  private readonly child: ChildProcess

  constructor(
    url: string,
    token: string,
    id: string,
    readonly out: string,
  ) {
    this.child = spawn(process.execPath, [...TSX, 'src/soak/soak-follower-process.ts', url, token, id, out], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    lines(this.child, 'stdout', (l) => {
      const m = JSON.parse(l) as FollowerState | { dumped: number }
      if ('dumped' in m) this.dumped = m.dumped
      else this.state = m
    })
  }

  get lastSeq(): number {
    return this.state.lastSeq
  }

  /** Stop following and write the ledger; resolves to it. */
  async dump(): Promise<SeqLedger> {
    this.child.stdin?.write('dump\n')
    while (this.dumped === undefined && this.child.exitCode === null) await sleep(50)
    const top = this.dumped ?? 0
    return SeqLedger.fromDump(new Uint8Array(await readFile(this.out)), top)
  }

  kill(): void {
    this.child.kill('SIGKILL')
  }
}

interface Options {
  clients: number
  rate: number
  seconds: number
  zstd: boolean
  sampleMs: number
  /** The stalled reader stops reading this long after it subscribed. */
  stallAfterMs: number
  rssLimitMb: number
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = { clients: 10, rate: 2000, seconds: 600, zstd: true, sampleMs: 10_000, stallAfterMs: 5_000, rssLimitMb: 512 }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const v = Number(argv[i + 1])
    if (a === '--clients') o.clients = v
    else if (a === '--rate') o.rate = v
    else if (a === '--minutes') o.seconds = v * 60
    else if (a === '--seconds') o.seconds = v
    else if (a === '--sample-seconds') o.sampleMs = v * 1000
    else if (a === '--rss-limit-mb') o.rssLimitMb = v
    else if (a === '--jsonl') {
      o.zstd = false
      continue
    } else throw new Error(`unknown option ${a}`)
    if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`)
    i++
  }
  return o
}

const TSX = ['--import', 'tsx']

function lines(child: ChildProcess, stream: 'stdout' | 'stderr', onLine: (line: string) => void): void {
  let carry = ''
  child[stream]?.on('data', (d: Buffer) => {
    carry += d.toString()
    let nl: number
    while ((nl = carry.indexOf('\n')) >= 0) {
      onLine(carry.slice(0, nl))
      carry = carry.slice(nl + 1)
    }
  })
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1]
  return kb === undefined ? NaN : Number(kb) / 1024
}

/** The truth: the file's own events by seq, read with the core's container and line splitter. */
async function fileLedger(path: string): Promise<SeqLedger> {
  const ledger = new SeqLedger()
  let header = true
  const splitter = new LineSplitter((line) => {
    if (header) header = false
    else for (const { seq, hash } of lineEvents(line.text)) ledger.record(seq, hash)
  })
  const checksum = await loadContentChecksum()
  let container: ZstdContainer | undefined
  const fh = await open(path, 'r')
  try {
    const buffer = new Uint8Array(4 * 1024 * 1024)
    for (let first = true; ; first = false) {
      const { bytesRead } = await fh.read(buffer, 0, buffer.length, null)
      if (bytesRead === 0) break
      const chunk = buffer.slice(0, bytesRead)
      if (first && hasZstdMagic(chunk)) {
        container = new ZstdContainer(
          { frame: (p) => splitter.push(p), tornFrame: () => undefined, diagnostic: () => undefined },
          checksum,
        )
      }
      if (container === undefined) splitter.push(chunk)
      else container.push(chunk)
    }
  } finally {
    await fh.close()
  }
  return ledger
}

interface Sample {
  t: number
  rssMb: number
  written: number
  minDelivered: number
  maxLag: number
  stalled: string
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2))
  const root = await tempRoot()
  const id = `session-soak-${randomBytes(4).toString('hex')}`
  const path = await sessionPath(root, id, o.zstd)
  const token = randomBytes(24).toString('base64url')
  console.log(
    `soak: ${o.clients} followers + 1 stalled reader, ${o.rate} events/s for ${o.seconds} s, ${o.zstd ? 'zstd frames' : 'JSONL'}, ${path}`,
  )

  const writer = spawn(
    process.execPath,
    [...TSX, 'src/soak/soak-writer.ts', path, String(o.rate), String(o.seconds), o.zstd ? 'zstd' : 'jsonl', id],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  let written = { events: 0, lastSeq: -1, bytes: 0, done: false, exhausted: false }
  const writerDone = new Promise<void>((resolve) => writer.on('exit', () => resolve()))
  lines(writer, 'stdout', (l) => {
    written = { ...written, ...(JSON.parse(l) as typeof written) }
  })
  while (written.events === 0 && writer.exitCode === null) await sleep(50)

  const serve = spawn(process.execPath, [...TSX, 'src/cli/main.ts', 'serve', root, '--port', '0'], {
    env: { ...process.env, DSH_LENS_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const incidents: string[] = []
  lines(serve, 'stderr', (l) => incidents.push(l))
  const url = await new Promise<string>((resolve, reject) => {
    lines(serve, 'stdout', (l) => {
      const m = /stream (ws:\/\/\S+\/v1\/stream)/.exec(l)
      if (m !== null) resolve(m[1] as string)
    })
    serve.on('exit', (code) => reject(new Error(`serve exited ${code}: ${incidents.join('\n')}`)))
  })
  const pid = serve.pid as number

  const followers = Array.from(
    { length: o.clients },
    (_, i) => new FollowerProcess(url, token, id, `${root}/follower-${i}.ledger`),
  )
  const stalled = new StalledReader(url, token, id, o.stallAfterMs)
  const start = Date.now()
  const samples: Sample[] = []
  const stalledState = (): string =>
    stalled.closedAt !== undefined
      ? 'closed'
      : incidents.some((l) => l.includes('slow-consumer') || l.includes('terminated'))
        ? 'cut off'
        : stalled.stoppedAt !== undefined
          ? 'not reading'
          : 'reading'
  /** Followers that had started but did not advance over a sample while the writer wrote: starvation. */
  let starvedSamples = 0
  let previous = followers.map(() => -1)
  const sample = async (): Promise<void> => {
    const delivered = followers.map((f) => f.lastSeq)
    if (
      !written.done &&
      samples.length > 0 &&
      delivered.some((d, i) => (previous[i] as number) >= 0 && d <= (previous[i] as number))
    )
      starvedSamples++
    previous = delivered
    const s: Sample = {
      t: Math.round((Date.now() - start) / 1000),
      rssMb: await rssMb(pid),
      written: written.events,
      minDelivered: Math.min(...delivered) + 1,
      maxLag: Math.max(0, written.lastSeq - Math.min(...delivered)),
      stalled: stalledState(),
    }
    samples.push(s)
    console.log(
      `t=${String(s.t).padStart(4)}s rss=${s.rssMb.toFixed(1)} MB written=${s.written} slowest follower=${s.minDelivered} (lag ${s.maxLag}) stalled reader: ${s.stalled}`,
    )
  }
  await sample()
  const sampler = setInterval(() => void sample(), o.sampleMs)
  await writerDone
  // Drain: every follower must reach the file's last seq; a generous bound, this is not a timing check.
  const drainDeadline = Date.now() + 120_000
  while (followers.some((f) => f.lastSeq < written.lastSeq) && Date.now() < drainDeadline) await sleep(100)
  clearInterval(sampler)
  await sample()
  stalled.resume()
  await sleep(500)

  const truth = await fileLedger(path)
  const through = truth.top
  const ledgers = await Promise.all(followers.map((f) => f.dump()))
  const rows = followers.map((f, i) => {
    const ledger = ledgers[i] as SeqLedger
    const last = Math.min(through, ledger.top)
    return {
      client: i + 1,
      delivered: f.state.events,
      lastSeq: ledger.top,
      duplicates: ledger.duplicates + f.state.duplicates,
      // Holes below what it has; events it has not reached yet are "behind", a different failure.
      gaps: ledger.gapsThrough(last),
      behind: through - last,
      altered: ledger.differencesFrom(truth, through),
      resets: f.state.resets,
      order: f.state.order,
      reconnects: f.state.reconnects,
    }
  })
  console.log(`\nfile: ${truth.top + 1} events (seq 0..${truth.top}), ${(written.bytes / 1048576).toFixed(1)} MB on disk`)
  console.log('client | delivered | last seq | duplicates | gaps | altered | behind | resets | reconnects')
  for (const r of rows)
    console.log(
      `${String(r.client).padStart(6)} | ${String(r.delivered).padStart(9)} | ${String(r.lastSeq).padStart(8)} | ${String(r.duplicates).padStart(10)} | ${String(r.gaps).padStart(4)} | ${String(r.altered).padStart(7)} | ${String(r.behind).padStart(6)} | ${String(r.resets).padStart(6)} | ${r.reconnects}`,
    )
  const rss = samples.map((s) => s.rssMb).filter(Number.isFinite)
  const half = Math.floor(rss.length / 2)
  const firstHalfMax = Math.max(...rss.slice(1, Math.max(2, half)))
  const secondHalfMax = Math.max(...rss.slice(half))
  console.log(`server RSS (MB) every ${o.sampleMs / 1000} s: ${rss.map((r) => r.toFixed(0)).join(' ')}`)
  const cut = incidents.filter((l) => l.includes('slow-consumer') || l.includes('terminated'))
  console.log(
    `stalled reader: read ${(stalled.bytesRead / 1048576).toFixed(1)} MB, stopped reading at +${((stalled.stoppedAt ?? start) - start) / 1000} s; server: ${cut[0] ?? 'no cut-off'}`,
  )
  for (const l of incidents.filter((x) => !cut.includes(x)).slice(0, 10)) console.log(`server stderr: ${l}`)
  for (const [i, f] of followers.entries()) for (const e of f.state.errors) console.log(`follower ${i + 1}: ${e}`)

  const checks: Array<[string, boolean]> = [
    ['the writer wrote the whole run', written.done && written.events > 0],
    ['every follower reached the last seq', rows.every((r) => r.behind === 0)],
    ['0 duplicates', rows.every((r) => r.duplicates === 0)],
    ['0 gaps', rows.every((r) => r.gaps === 0)],
    ['0 altered events (content hash by seq)', rows.every((r) => r.altered === 0)],
    ['no resets, no out-of-order appends', rows.every((r) => r.resets === 0 && r.order === 0)],
    [`server RSS below ${o.rssLimitMb} MB`, Math.max(...rss) < o.rssLimitMb],
    // Bounded: the second half of the run may not climb much above the first (ring, buffers and index are capped).
    [
      'server RSS not growing (2nd half max <= 1.25 x 1st half max + 32 MB)',
      rss.length < 4 || secondHalfMax <= firstHalfMax * 1.25 + 32,
    ],
    ['the stalled reader was cut off with a reason', cut.length > 0],
    ['no follower stood still over a sample while the writer wrote', starvedSamples === 0],
  ]
  console.log('')
  for (const [what, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`)

  for (const f of followers) f.kill()
  stalled.close()
  serve.kill('SIGTERM')
  await rm(root, { recursive: true, force: true })
  return checks.every(([, ok]) => ok) ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(2)
  },
)
