/**
 * The usage cache: every log's cost digest, kept per file identity in the user's cache directory
 * (`<cache>/usage-v1/<hash of the sessions root>/`), so a warm `dsh-lens usage` reads one index instead of a gigabyte
 * of logs. Owner-only (directories 0700, files 0600), versioned by schema, written atomically (a temp file renamed),
 * and never trusted: an index that does not parse or does not have its shape is rebuilt, said in one line. The
 * collector's state (what a grown file is read on from) lives in one file per log beside the index and is read only
 * for a log that grew.
 */

import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CostDigestState } from '../../core/index.ts'
import { decodeFacts, encodeFacts, type EncodedFacts } from './facts-codec.ts'
import type { FileDigest } from './cost-scan.ts'

/** Bump when the index's or a state's shape changes: an older cache is then dropped and rebuilt without a word. */
export const USAGE_CACHE_SCHEMA = 1

type StoredDigest = Omit<FileDigest, 'facts'> & { readonly facts: EncodedFacts }

interface StoredIndex {
  readonly schema: number
  readonly root: string
  readonly files: Record<string, StoredDigest>
}

const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32)

/** The directory of one sessions root's cache. */
export function usageCacheDir(cacheRoot: string, root: string): string {
  return join(cacheRoot, `usage-v${USAGE_CACHE_SCHEMA}`, hash(root))
}

/** Directories owner-only, created or not: the cache may hold what a log says (model names, project paths). */
function ownerOnlyDirs(cacheRoot: string, dir: string): void {
  mkdirSync(join(dir, 'state'), { recursive: true, mode: 0o700 })
  for (const d of [cacheRoot, join(cacheRoot, `usage-v${USAGE_CACHE_SCHEMA}`), dir, join(dir, 'state')]) chmodSync(d, 0o700)
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, text, { mode: 0o600 })
  renameSync(temp, path)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether a stored digest has the shape this version writes (a damaged entry is dropped and its file read again). */
function wellFormed(d: unknown): d is StoredDigest {
  if (!isObject(d) || !isObject(d['identity']) || !isObject(d['facts'])) return false
  const id = d['identity']
  const facts = d['facts']
  return (
    ['dev', 'ino', 'birthtimeMs', 'size', 'mtimeMs'].every((k) => typeof id[k] === 'number') &&
    (d['encoding'] === 'zstd' || d['encoding'] === 'jsonl') &&
    (d['resumeAt'] === null || typeof d['resumeAt'] === 'number') &&
    typeof d['lines'] === 'number' &&
    typeof d['seam'] === 'string' &&
    Array.isArray(facts['models']) &&
    Array.isArray(facts['steps']) &&
    Array.isArray(facts['summaries']) &&
    facts['steps'].every((s) => Array.isArray(s) && s.length === 10) &&
    typeof facts['inherited'] === 'number'
  )
}

export interface LoadedCache {
  readonly files: Map<string, FileDigest>
  /** One sentence when the index was damaged (and is being rebuilt), else null. */
  readonly damaged: string | null
}

export function loadUsageCache(dir: string, root: string): LoadedCache {
  let text: string
  try {
    text = readFileSync(join(dir, 'index.json'), 'utf8')
  } catch {
    return { files: new Map(), damaged: null }
  }
  let index: unknown
  try {
    index = JSON.parse(text)
  } catch {
    return { files: new Map(), damaged: `${join(dir, 'index.json')} is not JSON` }
  }
  if (!isObject(index) || typeof index['schema'] !== 'number')
    return { files: new Map(), damaged: `${join(dir, 'index.json')} is not a usage index` }
  // Another version's cache is not damage: it is rebuilt quietly.
  if (index['schema'] !== USAGE_CACHE_SCHEMA || index['root'] !== root || !isObject(index['files']))
    return { files: new Map(), damaged: null }
  const files = new Map<string, FileDigest>()
  let bad = 0
  for (const [path, stored] of Object.entries(index['files'])) {
    if (!wellFormed(stored)) {
      bad++
      continue
    }
    try {
      files.set(path, { ...stored, facts: decodeFacts(stored.facts) })
    } catch {
      bad++
    }
  }
  return {
    files,
    damaged: bad > 0 ? `${bad} entr${bad === 1 ? 'y' : 'ies'} of ${join(dir, 'index.json')} had a wrong shape` : null,
  }
}

export function saveUsageCache(cacheRoot: string, dir: string, root: string, files: ReadonlyMap<string, FileDigest>): void {
  ownerOnlyDirs(cacheRoot, dir)
  const stored: Record<string, StoredDigest> = {}
  for (const [path, d] of files) stored[path] = { ...d, facts: encodeFacts(d.facts) }
  const index: StoredIndex = { schema: USAGE_CACHE_SCHEMA, root, files: stored }
  writeAtomically(join(dir, 'index.json'), JSON.stringify(index))
  // States of logs that are gone are of no use.
  const keep = new Set([...files.keys()].map((p) => `${hash(p)}.json`))
  for (const name of readdirSync(join(dir, 'state'))) if (!keep.has(name)) rmSync(join(dir, 'state', name), { force: true })
}

export function loadState(dir: string, path: string): CostDigestState | undefined {
  try {
    const state = JSON.parse(readFileSync(join(dir, 'state', `${hash(path)}.json`), 'utf8')) as unknown
    return isObject(state) && state['version'] === 1 && Array.isArray(state['steps'])
      ? (state as unknown as CostDigestState)
      : undefined
  } catch {
    return undefined
  }
}

export function saveState(cacheRoot: string, dir: string, path: string, state: CostDigestState): void {
  ownerOnlyDirs(cacheRoot, dir)
  writeAtomically(join(dir, 'state', `${hash(path)}.json`), JSON.stringify(state))
}
