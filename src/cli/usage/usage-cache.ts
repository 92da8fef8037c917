/**
 * The usage cache, kept per sessions root in the user's cache directory (`<cache>/usage-v2/<hash of the root>/`), so a
 * warm `dsh-lens usage` over a thousand sessions reads one small index instead of a gigabyte of logs:
 *
 * - `index.json`: per log its file identity (to tell whether it changed), where a grown log is read on from, its
 *   header, and its calls priced (`SessionUsage`, cells per local day and model) under one pricing key (the card, the
 *   currency and the time zone): a warm run with the same key reads nothing else.
 * - `facts/<hash of the path>.json`: the log's cost facts, read only to price again under another key.
 * - `state/<hash of the path>.json`: the collector's state, read only for a log that grew.
 *
 * Owner-only (directories 0700, files 0600), versioned by schema, written atomically (a temp file renamed), and never
 * trusted: an index that does not parse or does not have its shape is rebuilt, said in one line; a facts or state
 * file that does not parse costs a read of its log.
 */

import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CostDigestState, CostFacts, SessionUsage } from '../../core/index.ts'
import type { FileDigest } from './cost-scan.ts'
import { decodeFacts, encodeFacts, type EncodedFacts } from './facts-codec.ts'

/** Bump when a stored shape changes: an older cache is then dropped and rebuilt without a word. */
export const USAGE_CACHE_SCHEMA = 2

/** What the index keeps of a log: its digest without the facts, and its calls priced under the index's key. */
export type CachedLog = Omit<FileDigest, 'facts'> & { readonly usage: SessionUsage }

interface StoredIndex {
  readonly schema: number
  readonly root: string
  /** The card, currency and time zone the `usage` of every entry was priced under. */
  readonly pricing: string
  readonly files: Record<string, CachedLog>
}

const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32)

/** The key prices are kept under: what they depend on besides the facts. */
export function pricingKey(cardJson: string, currency: string, timeZone: string): string {
  return hash(`${cardJson}\u0000${currency}\u0000${timeZone}`)
}

/** The directory of one sessions root's cache. */
export function usageCacheDir(cacheRoot: string, root: string): string {
  return join(cacheRoot, `usage-v${USAGE_CACHE_SCHEMA}`, hash(root))
}

const SUBDIRS = ['state', 'facts'] as const

const made = new Set<string>()

/** Directories owner-only, created or not: the cache holds what logs say (model names, project paths). Once a run. */
function ownerOnlyDirs(cacheRoot: string, dir: string): void {
  if (made.has(dir)) return
  made.add(dir)
  for (const sub of SUBDIRS) mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 })
  for (const d of [cacheRoot, join(cacheRoot, `usage-v${USAGE_CACHE_SCHEMA}`), dir, ...SUBDIRS.map((s) => join(dir, s))])
    chmodSync(d, 0o700)
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, text, { mode: 0o600 })
  renameSync(temp, path)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const CELL_NUMBERS = [
  'steps',
  'summaries',
  'input',
  'cacheRead',
  'cacheWrite',
  'output',
  'costInput',
  'costCacheRead',
  'costOutput',
  'breakCost',
  'breaks',
  'unpricedCalls',
] as const

/** Whether a stored entry has the shape this version writes (a damaged entry is dropped and its log read again). */
function wellFormed(d: unknown): d is CachedLog {
  if (!isObject(d) || !isObject(d['identity']) || !isObject(d['usage'])) return false
  const id = d['identity']
  const usage = d['usage']
  return (
    ['dev', 'ino', 'birthtimeMs', 'size', 'mtimeMs'].every((k) => typeof id[k] === 'number') &&
    (d['encoding'] === 'zstd' || d['encoding'] === 'jsonl') &&
    (d['resumeAt'] === null || typeof d['resumeAt'] === 'number') &&
    typeof d['lines'] === 'number' &&
    typeof d['seam'] === 'string' &&
    (d['header'] === null || isObject(d['header'])) &&
    Array.isArray(usage['cells']) &&
    usage['cells'].every(
      (c) =>
        isObject(c) &&
        typeof c['day'] === 'string' &&
        typeof c['tokens'] === 'boolean' &&
        CELL_NUMBERS.every((k) => typeof c[k] === 'number') &&
        (c['reasoning'] === null || typeof c['reasoning'] === 'number'),
    ) &&
    Array.isArray(usage['unpriced']) &&
    usage['unpriced'].every((u) => isObject(u) && typeof u['reason'] === 'string' && typeof u['calls'] === 'number') &&
    Array.isArray(usage['uncovered']) &&
    usage['uncovered'].every((day) => typeof day === 'string')
  )
}

function factsWellFormed(f: unknown): boolean {
  return (
    isObject(f) &&
    Array.isArray(f['models']) &&
    Array.isArray(f['steps']) &&
    Array.isArray(f['summaries']) &&
    f['steps'].every((s) => Array.isArray(s) && s.length === 10 && Array.isArray(s[7])) &&
    f['summaries'].every((s) => Array.isArray(s) && s.length === 6) &&
    typeof f['inherited'] === 'number'
  )
}

export interface LoadedCache {
  readonly files: Map<string, CachedLog>
  /** The key the entries' `usage` was priced under (null: no index). */
  readonly pricing: string | null
  /** One sentence when the index was damaged (and is being rebuilt), else null. */
  readonly damaged: string | null
}

export function loadUsageCache(dir: string, root: string): LoadedCache {
  const none = (damaged: string | null): LoadedCache => ({ files: new Map(), pricing: null, damaged })
  let text: string
  try {
    text = readFileSync(join(dir, 'index.json'), 'utf8')
  } catch {
    return none(null)
  }
  let index: unknown
  try {
    index = JSON.parse(text)
  } catch {
    return none(`${join(dir, 'index.json')} is not JSON`)
  }
  if (!isObject(index) || typeof index['schema'] !== 'number') return none(`${join(dir, 'index.json')} is not a usage index`)
  // Another version's cache is not damage: it is rebuilt quietly.
  if (index['schema'] !== USAGE_CACHE_SCHEMA || index['root'] !== root) return none(null)
  if (!isObject(index['files']) || typeof index['pricing'] !== 'string')
    return none(`${join(dir, 'index.json')} is not a usage index`)
  const files = new Map<string, CachedLog>()
  let bad = 0
  for (const [path, stored] of Object.entries(index['files'])) {
    if (wellFormed(stored)) files.set(path, stored)
    else bad++
  }
  return {
    files,
    pricing: index['pricing'],
    damaged: bad > 0 ? `${bad} entr${bad === 1 ? 'y' : 'ies'} of ${join(dir, 'index.json')} had a wrong shape` : null,
  }
}

/** Writes the index; the facts and states of logs no longer in it are removed. */
export function saveUsageCache(
  cacheRoot: string,
  dir: string,
  root: string,
  pricing: string,
  files: ReadonlyMap<string, CachedLog>,
): void {
  ownerOnlyDirs(cacheRoot, dir)
  const index: StoredIndex = { schema: USAGE_CACHE_SCHEMA, root, pricing, files: Object.fromEntries(files) }
  writeAtomically(join(dir, 'index.json'), JSON.stringify(index))
  const keep = new Set([...files.keys()].map((p) => `${hash(p)}.json`))
  for (const sub of SUBDIRS)
    for (const name of readdirSync(join(dir, sub))) if (!keep.has(name)) rmSync(join(dir, sub, name), { force: true })
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown
  } catch {
    return undefined
  }
}

export function loadState(dir: string, path: string): CostDigestState | undefined {
  const state = readJson(join(dir, 'state', `${hash(path)}.json`))
  return isObject(state) && state['version'] === 1 && Array.isArray(state['steps'])
    ? (state as unknown as CostDigestState)
    : undefined
}

export function saveState(cacheRoot: string, dir: string, path: string, state: CostDigestState): void {
  ownerOnlyDirs(cacheRoot, dir)
  writeAtomically(join(dir, 'state', `${hash(path)}.json`), JSON.stringify(state))
}

/** A log's facts as last read, or undefined when the file is missing or damaged (its log is then read again). */
export function loadFacts(dir: string, path: string): CostFacts | undefined {
  const stored = readJson(join(dir, 'facts', `${hash(path)}.json`))
  if (!factsWellFormed(stored)) return undefined
  try {
    return decodeFacts(stored as unknown as EncodedFacts)
  } catch {
    return undefined
  }
}

export function saveFacts(cacheRoot: string, dir: string, path: string, facts: CostFacts): void {
  ownerOnlyDirs(cacheRoot, dir)
  writeAtomically(join(dir, 'facts', `${hash(path)}.json`), JSON.stringify(encodeFacts(facts)))
}
