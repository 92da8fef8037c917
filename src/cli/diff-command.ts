/**
 * `dsh-lens diff A B [--json]` (contract in docs/cli.md): two runs compared at the surface, by the core's
 * `RunComparison`. Exit 0 when they are equal once the per-run ids and times are left out, 1 when they differ (as
 * `diff` does), 2 on bad input (an unreadable file, no log, an unknown or ambiguous session id, a wrong command line).
 */

import { RunComparison } from '../core/index.ts'
import { defaultSessionsRoot } from './serve-command.ts'
import { diffReport } from './diff-report.ts'
import { DiffTargetError, resolveDiffTarget } from './diff-target.ts'
import { OpenTargetError } from './open-target.ts'
import { writeJsonLine } from './json-stream.ts'
import { readLog } from './read-log.ts'

export class DiffUsageError extends Error {}

export async function runDiff(args: readonly string[]): Promise<number> {
  const targets = args.filter((a) => !a.startsWith('--') || a === '-')
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--json')
  if (unknown.length > 0) throw new DiffUsageError(`diff does not take ${unknown.join(' ')}`)
  if (targets.length !== 2) throw new DiffUsageError('diff takes two runs: FILE or SESSION-ID, twice')
  if (targets[0] === '-' && targets[1] === '-') throw new DiffUsageError('diff reads standard input for one run at most')
  const home = defaultSessionsRoot()
  let paths: [string, string]
  try {
    paths = [await resolveDiffTarget(targets[0] as string, home), await resolveDiffTarget(targets[1] as string, home)]
  } catch (error) {
    if (!(error instanceof DiffTargetError) && !(error instanceof OpenTargetError)) throw error
    process.stderr.write(`dsh-lens: ${error.message}\n`)
    return 2
  }
  const a = await readLog(paths[0])
  const b = await readLog(paths[1])
  const json = args.includes('--json')
  const comparison = new RunComparison(a, b, { details: true })
  const result = comparison.result()
  if (json) await writeJsonLine(process.stdout, result)
  else process.stdout.write(diffReport(paths, [a, b], comparison, result))
  return result.firstDivergence === null ? 0 : 1
}
