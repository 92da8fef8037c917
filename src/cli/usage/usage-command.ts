/**
 * `dsh-lens usage [PATH] [--json] [--by day|week|month|project|model] [--since DATE] [--currency CNY|USD]
 * [--rates FILE]`: tokens and money over every session below a sessions root (default the dsh home), the report users
 * of other agents run ccusage for, here with the cache economics. Each log's cost digest is kept in the user's cache
 * directory per file identity (usage-cache.ts), so a warm run reads no log; a log that grew is read on from where the
 * last run stopped. Contract in docs/cli.md.
 */

import { realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { loadContentChecksum, usageReport, type UsageGrouping, type UsageSession } from '../../core/index.ts'
import { logsBelow } from '../../server/log-discovery.ts'
import { isWithin, PathGuard } from '../../server/path-guard.ts'
import { writeJsonLine } from '../json-stream.ts'
import { loadRateCard, takeCurrencyFlag, takeRatesFlag } from '../rates-option.ts'
import { UnreadableLogError } from '../read-log-error.ts'
import { userCacheDir } from '../user-cache-dir.ts'
import { scanCost, unchanged, type FileDigest } from './cost-scan.ts'
import { loadState, loadUsageCache, saveState, saveUsageCache, usageCacheDir } from './usage-cache.ts'
import { usageJson, usageTable } from './usage-text.ts'

export class UsageCommandError extends Error {}

const GROUPINGS: readonly UsageGrouping[] = ['day', 'week', 'month', 'project', 'model']

/** The dsh home's sessions root, as the harness resolves it (a blank DSH_HOME is unset): serve's default too. */
function dshSessionsRoot(env: NodeJS.ProcessEnv): string {
  const home = env['DSH_HOME']
  return home !== undefined && home.trim() !== '' ? join(home, 'sessions') : join(homedir(), '.dsh', 'sessions')
}

const pad = (n: number): string => String(n).padStart(2, '0')
const localDate = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`

/** Day, week (its Monday) or month keys in the local time zone. */
export function bucketOf(by: UsageGrouping): (at: number) => string {
  if (by === 'month') return (at) => localDate(new Date(at)).slice(0, 7)
  if (by === 'week')
    return (at) => {
      const d = new Date(at)
      d.setDate(d.getDate() - ((d.getDay() + 6) % 7))
      return localDate(d)
    }
  return (at) => localDate(new Date(at))
}

/** `2026-09-14` or `20260914` to local midnight (ms), or null when it is no date. */
export function parseSince(text: string): number | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text)
  if (m === null) return null
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return d.getMonth() === Number(m[2]) - 1 && d.getDate() === Number(m[3]) ? d.getTime() : null
}

function flagValue(args: string[], name: string): string | undefined | null {
  const at = args.indexOf(name)
  if (at === -1) return undefined
  const value = args[at + 1]
  args.splice(at, 2)
  return value === undefined || value.startsWith('--') ? null : value
}

export async function runUsage(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const rates = takeRatesFlag(argv)
  if (typeof rates === 'string') throw new UsageCommandError(rates)
  const currency = takeCurrencyFlag(rates.rest)
  if (typeof currency === 'string') throw new UsageCommandError(currency)
  const args = currency.rest
  const by = flagValue(args, '--by')
  if (by === null || (by !== undefined && !GROUPINGS.includes(by as UsageGrouping)))
    throw new UsageCommandError(`--by takes one of ${GROUPINGS.join(', ')}`)
  const sinceText = flagValue(args, '--since')
  const since = sinceText === undefined ? null : sinceText === null ? null : parseSince(sinceText)
  if (sinceText !== undefined && since === null) throw new UsageCommandError('--since takes a date, YYYY-MM-DD (local midnight)')
  const json = args.includes('--json')
  const rest = args.filter((a) => a !== '--json')
  const unknown = rest.filter((a) => a.startsWith('--'))
  if (unknown.length > 0) throw new UsageCommandError(`usage does not take ${unknown.join(' ')}`)
  if (rest.length > 1) throw new UsageCommandError('usage takes at most one PATH')
  const card = loadRateCard(rates.rates, env)
  const given = rest[0]
  const root = resolve(given ?? dshSessionsRoot(env))
  let realRoot: string
  try {
    realRoot = await realpath(root)
  } catch {
    if (given !== undefined) throw new UnreadableLogError(`cannot read ${given}: no such file or directory`)
    process.stderr.write(
      `dsh-lens: no sessions at ${root} yet: dsh writes them there; set DSH_HOME, or run \`dsh-lens usage PATH\`\n`,
    )
    realRoot = root
  }
  const sessions = await digestsBelow(realRoot, env)
  const report = usageReport(sessions, {
    by: (by ?? 'day') as UsageGrouping,
    since,
    bucketOf: bucketOf((by ?? 'day') as UsageGrouping),
    currency: currency.currency,
    card,
  })
  if (json) await writeJsonLine(process.stdout, usageJson(realRoot, report))
  else process.stdout.write(usageTable(realRoot, report))
  return 0
}

/** Every log below `root` with its cost digest: from the cache when unchanged, read (on) otherwise. */
async function digestsBelow(root: string, env: NodeJS.ProcessEnv): Promise<UsageSession[]> {
  const guard = await PathGuard.create([root], { allowMissing: true })
  const { logs } = await logsBelow(root, guard)
  const cacheRoot = userCacheDir(env)
  const dir = usageCacheDir(cacheRoot, root)
  // Derived data never lives under the dsh home (nor under the root read): such a cache directory is not used.
  const homeRoot = dirname(dshSessionsRoot(env))
  const cacheable = ![root, resolve(homeRoot)].some((r) => isWithin(r, resolve(cacheRoot)))
  if (!cacheable)
    process.stderr.write(
      `dsh-lens: the cache directory ${cacheRoot} is under the dsh home or ${root}: not writing a usage cache there\n`,
    )
  const cache = cacheable ? loadUsageCache(dir, root) : { files: new Map<string, FileDigest>(), damaged: null }
  if (cache.damaged !== null) process.stderr.write(`dsh-lens: the usage cache was damaged (${cache.damaged}): rebuilding it\n`)
  const checksum = await loadContentChecksum()
  const files = new Map<string, FileDigest>()
  let changed = cache.files.size !== logs.length || cache.damaged !== null
  const out: UsageSession[] = []
  const trace = { full: 0, resumed: 0, cached: 0, bytes: 0 }
  for (const { path, stats } of logs) {
    const identity = { dev: stats.dev, ino: stats.ino, birthtimeMs: stats.birthtimeMs, size: stats.size, mtimeMs: stats.mtimeMs }
    const cached = cache.files.get(path)
    let digest: FileDigest
    if (cached !== undefined && unchanged(cached, identity)) {
      digest = cached
      trace.cached++
    } else {
      changed = true
      const state = cached !== undefined && cacheable ? loadState(dir, path) : undefined
      try {
        const scan = await scanCost(
          path,
          identity,
          cached !== undefined && state !== undefined ? { digest: cached, state } : undefined,
          checksum,
        )
        digest = scan.digest
        trace[scan.how]++
        trace.bytes += scan.bytesRead
        if (cacheable) saveState(cacheRoot, dir, path, scan.state)
      } catch (error) {
        process.stderr.write(`dsh-lens: skipped ${path}: ${error instanceof Error ? error.message : String(error)}\n`)
        continue
      }
    }
    files.set(path, digest)
    out.push({ path, project: basename(dirname(dirname(path))), header: digest.header, facts: digest.facts })
  }
  if (cacheable && changed) saveUsageCache(cacheRoot, dir, root, files)
  if (env['DSH_LENS_TRACE_USAGE'] === '1')
    process.stderr.write(
      `dsh-lens: usage read ${trace.full} logs from the start and ${trace.resumed} on from where they stopped (${trace.bytes} bytes), ${trace.cached} from the cache\n`,
    )
  return out
}
