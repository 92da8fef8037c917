/**
 * `lens compactions FILE --json` (contract in README): every compaction summary of the log with the facts live at
 * that point it does not carry (`forgot`): the core's `compactionsForgot`, the same the viewer's inspector shows.
 */

import { compactionsForgot } from '../core/index.ts'
import { writeJsonLine } from './json-stream.ts'
import { readLog } from './read-log.ts'

export class CompactionsUsageError extends Error {}

export async function runCompactions(args: readonly string[]): Promise<number> {
  const files = args.filter((a) => !a.startsWith('--'))
  const flags = args.filter((a) => a.startsWith('--'))
  if (files.length !== 1) throw new CompactionsUsageError('compactions takes exactly one FILE')
  if (!flags.includes('--json') || flags.some((f) => f !== '--json'))
    throw new CompactionsUsageError('compactions prints JSON only: pass --json (and nothing else)')
  const log = await readLog(files[0] as string, { keep: ['turns', 'compactions', 'requests', 'state'] })
  await writeJsonLine(process.stdout, compactionsForgot(log))
  return 0
}
