/**
 * `lens request FILE --step T.S --json` and `lens request FILE --list --json` (contract in docs/cli.md): the request
 * the harness built for one step, with its diff against the previous step; or every step with its request point,
 * message count and logged usage. The JSON is the core's `stepRequest` / `stepList`, the same the Request view shows.
 */

import { findStepPosition, stepList, stepRequest } from '../core/index.ts'
import { writeJsonLine } from './json-stream.ts'
import { readLog } from './read-log.ts'

export class RequestUsageError extends Error {}

/** Parse `T.S` (two non-negative integers). */
export function parseStepRef(text: string | undefined): { turn: number; step: number } | undefined {
  const match = /^(\d{1,9})\.(\d{1,9})$/.exec(text ?? '')
  return match === null ? undefined : { turn: Number(match[1]), step: Number(match[2]) }
}

/** One line on standard error and exit 2: the contract for a bad or unknown step. */
function fail(reason: string): number {
  process.stderr.write(`dsh-lens: ${reason}\n`)
  return 2
}

export async function runRequest(args: readonly string[]): Promise<number> {
  const stepAt = args.indexOf('--step')
  const file = args.find((a, i) => !a.startsWith('--') && (stepAt === -1 || i !== stepAt + 1))
  if (file === undefined) throw new RequestUsageError('request needs a FILE')
  if (!args.includes('--json')) throw new RequestUsageError('request prints JSON only: pass --json')
  const list = args.includes('--list')
  if (list === (stepAt !== -1)) throw new RequestUsageError('request takes exactly one of --step T.S or --list')
  const ref = list ? undefined : parseStepRef(args[stepAt + 1])
  if (!list && ref === undefined)
    return fail(`--step takes T.S (turn and step numbers, e.g. 1.2), got "${args[stepAt + 1] ?? ''}"`)
  const log = await readLog(file, { keep: ['turns', 'requests'] })
  if (list) {
    await writeJsonLine(process.stdout, { steps: stepList(log) })
    return 0
  }
  const { turn, step } = ref as { turn: number; step: number }
  const position = findStepPosition(log, turn, step)
  if (position === -1) return fail(`no step ${turn}.${step} in ${file}`)
  await writeJsonLine(process.stdout, stepRequest(log, position))
  return 0
}
