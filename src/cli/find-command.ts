/**
 * `dsh-lens find "TEXT" [PATH] --json [...]` and `dsh-lens index [PATH] [--rebuild]`: search every session below a
 * sessions root (default the dsh home's) through the content index (src/server/content-index), which both commands
 * bring up to date first, and build or refresh it with a progress line. The index lives in the user's cache directory;
 * the sessions are only ever read.
 */

import type { SurfaceClass } from '../core/index.ts'
import type { IndexProgress, RefreshReport, SkippedFile } from '../server/content-index/content-index.ts'
import type { SearchRequest, SessionHits } from '../server/content-index/content-search.ts'
import { hitOut } from '../server/content-index/search-request.ts'
import { defaultSessionsRoot } from './serve-command.ts'
import { writeJsonLine } from './json-stream.ts'
import { userCacheDir } from './user-cache-dir.ts'

export class FindUsageError extends Error {}

const FIND_USAGE = `usage:
  dsh-lens find "TEXT" [PATH] --json [--project P] [--since D] [--until D] [--type T]... [--tool NAME] [--failed]
                [--surface current|shadowed|log-only] [--prefix] [--limit N] [--hits N] [--next TOKEN]
  dsh-lens index [PATH] [--rebuild] [--json]
PATH is a sessions root (default $DSH_HOME/sessions or ~/.dsh/sessions), a project or session directory, or a log.
TEXT is one literal phrase (operators and quotes are text); a trailing * or --prefix makes its last word a prefix.
D is a date (2026-12-01), a date and time (2026-12-01T14:00), or an age (30m, 12h, 7d).`

const SURFACES: readonly SurfaceClass[] = ['current', 'shadowed', 'log-only']

interface FindArgs {
  readonly query: string
  readonly root: string
  readonly request: Omit<SearchRequest, 'query'>
}

export function parseFindArgs(argv: readonly string[], now = Date.now()): FindArgs {
  const positional: string[] = []
  const request: { -readonly [K in keyof SearchRequest]?: SearchRequest[K] } = {}
  const types: string[] = []
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const value = (): string => {
      const v = argv[++i]
      if (v === undefined) throw new FindUsageError(`${arg} needs a value`)
      return v
    }
    switch (arg) {
      case '--json':
        json = true
        break
      case '--project':
        request.project = value()
        break
      case '--since':
        request.since = parseWhen(arg, value(), now)
        break
      case '--until':
        request.until = parseWhen(arg, value(), now, true)
        break
      case '--type':
        types.push(value())
        break
      case '--tool':
        request.tool = value()
        break
      case '--failed':
        request.failed = true
        break
      case '--surface': {
        const surface = value() as SurfaceClass
        if (!SURFACES.includes(surface)) throw new FindUsageError(`--surface takes ${SURFACES.join(', ')}`)
        request.surface = surface
        break
      }
      case '--prefix':
        request.prefix = true
        break
      case '--limit':
        request.limit = wholeNumber(arg, value())
        break
      case '--hits':
        request.hitsPerSession = wholeNumber(arg, value())
        break
      case '--next':
        request.next = value()
        break
      case '--':
        positional.push(...argv.slice(i + 1))
        i = argv.length
        break
      default:
        if (arg.startsWith('--')) throw new FindUsageError(`unknown option ${arg}`)
        positional.push(arg)
    }
  }
  if (!json) throw new FindUsageError('find prints JSON only: pass --json')
  const [query, root, ...extra] = positional
  if (query === undefined) throw new FindUsageError('find needs the TEXT to search for')
  if (extra.length > 0) throw new FindUsageError(`find takes one TEXT and one PATH (got also ${extra.join(' ')})`)
  if (types.length > 0) request.types = types
  return { query, root: root ?? defaultSessionsRoot(), request }
}

function wholeNumber(flag: string, value: string): number {
  const n = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new FindUsageError(`${flag} takes a whole number`)
  return n
}

const AGE = /^(\d+)(m|h|d|w)$/
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const

/** A date (local midnight; with `endOfDay`, the day's last millisecond), a local date and time, or an age before now. */
export function parseWhen(flag: string, value: string, now: number, endOfDay = false): number {
  const age = AGE.exec(value)
  if (age !== null) return now - Number(age[1]) * UNIT_MS[age[2] as keyof typeof UNIT_MS]
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (day !== null) {
    const start = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime()
    if (!Number.isNaN(start)) return endOfDay ? start + 86_400_000 - 1 : start
  }
  const time = Date.parse(value)
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(time)) return time
  throw new FindUsageError(
    `${flag} takes a date (2026-12-01), a date and time (2026-12-01T14:00) or an age (30m, 12h, 7d): not "${value}"`,
  )
}

/** The find JSON: exactly `{query, indexed:{sessions,events,upToDate}, sessions:[{id,title,project,hits:[…]}], next}`. */
export function findJson(
  query: string,
  indexed: { sessions: number; events: number; upToDate: boolean },
  sessions: readonly SessionHits[],
  next: string | null,
): unknown {
  return {
    query,
    indexed,
    sessions: sessions.map((s) => ({
      id: s.id,
      title: s.title,
      project: s.project,
      hits: s.hits.map(hitOut),
    })),
    next,
  }
}

export async function runFind(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) return help()
  const args = parseFindArgs(argv)
  const { ContentIndex } = await import('../server/content-index/content-index.ts')
  const index = await ContentIndex.open({ root: args.root, cacheDir: userCacheDir(), notice: say })
  try {
    // Another dsh-lens writing the index: search what it has committed, and say the answer may be behind.
    const report = await index.refresh({ waitMs: 0 })
    if (!report.upToDate) say('another dsh-lens is updating the content index: these results may miss its newest sessions')
    saySkipped(report.skipped)
    const page = index.search({ query: args.query, ...args.request })
    if (!page.ok) {
      // A query that cannot run is not a wrong command line: its one sentence, no usage.
      say(page.message)
      return 2
    }
    // The JSON's order is its contract's; what it means for this page is said beside it (docs/find.md).
    if (page.order === 'recent') say('the words are in too many events to rank them all: sessions are listed newest first')
    const status = index.status()
    await writeJsonLine(
      process.stdout,
      findJson(
        page.query,
        { sessions: status.sessions, events: status.events, upToDate: report.upToDate },
        page.sessions,
        page.next,
      ),
    )
    return 0
  } finally {
    index.close()
  }
}

export async function runIndex(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) return help()
  const positional = argv.filter((a) => !a.startsWith('--'))
  for (const a of argv)
    if (a.startsWith('--') && a !== '--rebuild' && a !== '--json') throw new FindUsageError(`unknown option ${a}`)
  if (positional.length > 1) throw new FindUsageError('index takes at most one PATH')
  const root = positional[0] ?? defaultSessionsRoot()
  const { ContentIndex } = await import('../server/content-index/content-index.ts')
  const index = await ContentIndex.open({ root, cacheDir: userCacheDir(), notice: say })
  try {
    const started = performance.now()
    const line = progressLine()
    // Another dsh-lens writing: wait for it (up to 10 minutes), then bring in what it left.
    const report = await index.refresh({ waitMs: 600_000, rebuild: argv.includes('--rebuild'), onProgress: line.update })
    line.done()
    if (!report.upToDate) {
      say('another dsh-lens held the content index for 10 minutes: try again when it is done')
      return 1
    }
    const status = index.status()
    if (argv.includes('--json')) {
      await writeJsonLine(process.stdout, { ...summary(report, status), seconds: Math.round(performance.now() - started) / 1000 })
    } else {
      process.stdout.write(
        `indexed ${status.sessions} sessions (${status.events} events, ${status.documents} searchable) in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
          `${report.indexed} read, ${report.appended} grown, ${report.removed} removed, ${report.unchanged} unchanged\n` +
          `index: ${status.path}\n`,
      )
      for (const s of status.skipped) process.stdout.write(`skipped ${s.path}: ${s.reason}\n`)
    }
    return 0
  } finally {
    index.close()
  }
}

function summary(
  report: RefreshReport,
  status: { sessions: number; events: number; documents: number; path: string; skipped: readonly SkippedFile[] },
): Record<string, unknown> {
  return {
    sessions: status.sessions,
    events: status.events,
    documents: status.documents,
    read: report.indexed,
    grown: report.appended,
    removed: report.removed,
    unchanged: report.unchanged,
    skipped: status.skipped,
    index: status.path,
  }
}

function help(): number {
  process.stdout.write(FIND_USAGE + '\n')
  return 0
}

function say(line: string): void {
  process.stderr.write(`dsh-lens: ${line}\n`)
}

function saySkipped(skipped: readonly SkippedFile[]): void {
  if (skipped.length === 0) return
  say(`${skipped.length} session file${skipped.length === 1 ? '' : 's'} skipped (not indexed):`)
  for (const s of skipped.slice(0, 10)) say(`  ${s.path}: ${s.reason}`)
  if (skipped.length > 10) say(`  … and ${skipped.length - 10} more (dsh-lens index lists them all)`)
}

/** On a terminal one line redrawn in place; otherwise a line at each tenth, so a log file stays short. */
function progressLine(): { update: (p: IndexProgress) => void; done: () => void } {
  const tty = process.stderr.isTTY === true
  let lastTenth = -1
  let drawn = false
  return {
    update: (p) => {
      const share = p.totalBytes === 0 ? 1 : p.bytes / p.totalBytes
      const text = `indexing: ${p.done}/${p.total} sessions, ${mb(p.bytes)} of ${mb(p.totalBytes)} (${Math.floor(share * 100)}%)`
      if (tty) {
        process.stderr.write(`\rdsh-lens: ${text}\u001b[K`)
        drawn = true
      } else if (Math.floor(share * 10) > lastTenth) {
        lastTenth = Math.floor(share * 10)
        say(text)
      }
    },
    done: () => {
      if (drawn) process.stderr.write('\n')
    },
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`
}
