/**
 * The `search --json` contract (docs/cli.md, asserted by src/cli/search.test.ts):
 * `{"matches":[{"seq","type","path","snippet","highlight"}],"visible":[{"from","to"}],"total","truncated","cutEvents"}`.
 * `visible` is in seqs, inclusive: the spans during which a matching event was on the model surface.
 */

import { LogSearch, compileMatcher, type LensLog, type SearchFilters } from '../core/index.ts'

export interface SearchJson {
  matches: { seq: number | null; type: string; path: string; snippet: string; highlight: readonly [number, number] }[]
  visible: { from: number; to: number }[]
  /** Matches found, also those past `limit`. */
  total: number
  truncated: boolean
  /** Events regex mode did not read in full (its per-string and per-event caps). */
  cutEvents: number
}

export class SearchQueryError extends Error {}

export function searchJson(
  log: LensLog,
  query: string,
  options: { regex: boolean; filters: SearchFilters; limit: number },
): SearchJson {
  const compiled = compileMatcher(query, options.regex)
  if (!compiled.ok) throw new SearchQueryError(compiled.error)
  const search = new LogSearch(log, compiled.matcher, options.filters)
  const matches: SearchJson['matches'] = []
  while (!search.done) {
    for (const m of search.step({ maxRecords: 4096 })) {
      if (matches.length < options.limit)
        matches.push({ seq: m.seq, type: m.type, path: m.path, snippet: m.snippet, highlight: m.highlight })
    }
  }
  const seqOf = (index: number): number => {
    const seq = log.seqOf(index)
    return typeof seq === 'number' ? seq : index
  }
  return {
    matches,
    visible: search.visible().map((r) => ({ from: seqOf(r.from), to: seqOf(r.to) })),
    total: search.total,
    truncated: search.total > matches.length,
    cutEvents: search.cutEvents,
  }
}

export class SearchUsageError extends Error {}

function intFlag(args: readonly string[], name: string): number | undefined {
  const at = args.indexOf(name)
  if (at === -1) return undefined
  const value = Number(args[at + 1])
  if (!Number.isSafeInteger(value) || value < 0) throw new SearchUsageError(`${name} takes a non-negative integer`)
  return value
}

const VALUE_FLAGS = new Set(['--type', '--turn', '--step', '--limit'])

/**
 * `lens search FILE QUERY [--regex] [--type T]... [--turn N] [--step N] [--surface-only] [--limit N] --json`.
 * @returns the exit code: 0 (matches or not), 2 for a query that does not compile (one line on standard error).
 */
export async function runSearch(args: readonly string[]): Promise<number> {
  const { readLog } = await import('./read-log.ts')
  const { writeJsonLine } = await import('./json-stream.ts')
  const positional = args.filter((a, i) => !a.startsWith('--') && !VALUE_FLAGS.has(args[i - 1] ?? ''))
  const [file, query, ...extra] = positional
  if (file === undefined || query === undefined || extra.length > 0) throw new SearchUsageError('search takes FILE and QUERY')
  if (!args.includes('--json')) throw new SearchUsageError('search prints JSON only: pass --json')
  const types = args.flatMap((a, i) => (args[i - 1] === '--type' ? [a] : []))
  const turn = intFlag(args, '--turn')
  const step = intFlag(args, '--step')
  const filters: SearchFilters = {
    ...(types.length > 0 ? { types } : {}),
    ...(turn === undefined ? {} : { turn }),
    ...(step === undefined ? {} : { step }),
    ...(args.includes('--surface-only') ? { surfaceOnly: true } : {}),
  }
  const regex = args.includes('--regex')
  // Judge the query before reading a large file.
  const compiled = compileMatcher(query, regex)
  if (!compiled.ok) {
    process.stderr.write(`dsh-lens: bad query: ${compiled.error}\n`)
    return 2
  }
  const log = await readLog(file, { keep: ['turns'] })
  await writeJsonLine(process.stdout, searchJson(log, query, { regex, filters, limit: intFlag(args, '--limit') ?? 1000 }))
  return 0
}
