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
import {
  loadContentChecksum,
  RatePricer,
  sessionUsage,
  usageReport,
  type UsageGrouping,
  type UsageSession,
} from '../../core/index.ts'
import { logsBelow } from '../../server/catalog/log-discovery.ts'
import { isWithin, PathGuard } from '../../server/path-guard.ts'
import { writeJsonLine } from '../json-stream.ts'
import { loadRateCard, takeCurrencyFlag, takeRatesFlag } from '../rates-option.ts'
import { UnreadableLogError } from '../read-log-error.ts'
import { userCacheDir } from '../user-cache-dir.ts'
import { scanCost, unchanged } from './cost-scan.ts'
import {
  loadFacts,
  loadState,
  loadUsageCache,
  pricingKey,
  saveFacts,
  saveState,
  saveUsageCache,
  usageCacheDir,
  type CachedLog,
} from './usage-cache.ts'
import { usageJson, usageTable } from './usage-text.ts'

export class UsageCommandError extends Error {}

const GROUPINGS: readonly UsageGrouping[] = ['day', 'week', 'month', 'project', 'model']

/** The dsh home's sessions root, as the harness resolves it (a blank DSH_HOME is unset): serve's default too. */
function dshSessionsRoot(env: NodeJS.ProcessEnv): string {
  const home = env['DSH_HOME']
  return home !== undefined && home.trim() !== '' ? join(home, 'sessions') : join(homedir(), '.dsh', 'sessions')
}

const pad = (n: number): string => String(n).padStart(2, '0')

/**
 * The local date (`YYYY-MM-DD`) of an instant. Calls come in runs of one day, so the last day and its local bounds are
 * kept: a call in the same day costs two comparisons (a home has tens of thousands of calls).
 */
export function localDayOf(): (at: number) => string {
  let from = Infinity
  let until = -Infinity
  let key = ''
  return (at) => {
    if (at >= from && at < until) return key
    const d = new Date(at)
    from = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()
    until = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime()
    key = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
    return key
  }
}

/** `2026-09-14` or `20260914` as `2026-09-14`, or null when it is no date. */
export function parseSince(text: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text)
  if (m === null) return null
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? `${m[1]}-${m[2]}-${m[3]}` : null
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
  if (sinceText !== undefined && since === null) throw new UsageCommandError('--since takes a date, YYYY-MM-DD (a local day)')
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
  const pricer = new RatePricer(card, currency.currency)
  const sessions = await usageBelow(realRoot, pricer, env)
  const report = usageReport(sessions, { by: (by ?? 'day') as UsageGrouping, since, currency: currency.currency, card })
  if (json) await writeJsonLine(process.stdout, usageJson(realRoot, report))
  else process.stdout.write(usageTable(realRoot, report))
  return 0
}

/**
 * Every log below `root` with its calls priced: from the cache when the log is unchanged (priced again from its kept
 * facts when the card, currency or time zone changed), read (on) otherwise.
 */
async function usageBelow(root: string, pricer: RatePricer, env: NodeJS.ProcessEnv): Promise<UsageSession[]> {
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
  const cache = cacheable ? loadUsageCache(dir, root) : { files: new Map<string, CachedLog>(), pricing: null, damaged: null }
  if (cache.damaged !== null) process.stderr.write(`dsh-lens: the usage cache was damaged (${cache.damaged}): rebuilding it\n`)
  const pricing = pricingKey(JSON.stringify(pricer.card), pricer.currency, Intl.DateTimeFormat().resolvedOptions().timeZone)
  const samePricing = cache.pricing === pricing
  const dayOf = localDayOf()
  const checksum = await loadContentChecksum()
  const files = new Map<string, CachedLog>()
  let changed = cache.files.size !== logs.length || cache.damaged !== null || !samePricing
  const out: UsageSession[] = []
  const trace = { full: 0, resumed: 0, cached: 0, repriced: 0, bytes: 0 }
  for (const { path, stats } of logs) {
    const identity = { dev: stats.dev, ino: stats.ino, birthtimeMs: stats.birthtimeMs, size: stats.size, mtimeMs: stats.mtimeMs }
    const cached = cache.files.get(path)
    let entry: CachedLog | undefined
    if (cached !== undefined && unchanged(cached, identity)) {
      if (samePricing) {
        entry = cached
        trace.cached++
      } else {
        const facts = loadFacts(dir, path)
        if (facts !== undefined) {
          entry = { ...cached, usage: sessionUsage(facts, pricer, dayOf) }
          trace.repriced++
        }
      }
    }
    if (entry === undefined) {
      changed = true
      const state = cached !== undefined && cacheable ? loadState(dir, path) : undefined
      try {
        const {
          digest,
          state: next,
          how,
          bytesRead,
        } = await scanCost(
          path,
          identity,
          cached !== undefined && state !== undefined ? { digest: cached, state } : undefined,
          checksum,
        )
        const { facts, ...read } = digest
        entry = { ...read, usage: sessionUsage(facts, pricer, dayOf) }
        trace[how]++
        trace.bytes += bytesRead
        if (cacheable) {
          saveState(cacheRoot, dir, path, next)
          saveFacts(cacheRoot, dir, path, facts)
        }
      } catch (error) {
        process.stderr.write(`dsh-lens: skipped ${path}: ${error instanceof Error ? error.message : String(error)}\n`)
        continue
      }
    }
    files.set(path, entry)
    out.push({ path, project: basename(dirname(dirname(path))), header: entry.header, usage: entry.usage })
  }
  if (cacheable && changed) saveUsageCache(cacheRoot, dir, root, pricing, files)
  if (env['DSH_LENS_TRACE_USAGE'] === '1')
    process.stderr.write(
      `dsh-lens: usage read ${trace.full} logs from the start and ${trace.resumed} on from where they stopped (${trace.bytes} bytes), ${trace.repriced} priced again from kept facts, ${trace.cached} from the cache\n`,
    )
  return out
}
