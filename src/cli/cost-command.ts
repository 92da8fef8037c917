/**
 * `dsh-lens cost FILE [--json] [--currency CNY|USD] [--rates FILE]`: what the session cost, step by step, with every
 * compaction's summary call and cache break and whether it paid for itself (contract in docs/cli.md). The core's
 * `logCost` over the log the read made, priced with the built-in card or a rates file.
 */

import { logCost } from '../core/index.ts'
import { costJson } from './cost-json.ts'
import { costReport } from './cost-report.ts'
import { writeJsonLine } from './json-stream.ts'
import { loadRateCard, takeCurrencyFlag, takeRatesFlag } from './rates-option.ts'
import { readLog } from './read-log.ts'

export class CostUsageError extends Error {}

export async function runCost(args: readonly string[]): Promise<number> {
  const rates = takeRatesFlag(args)
  if (typeof rates === 'string') throw new CostUsageError(rates)
  const currency = takeCurrencyFlag(rates.rest)
  if (typeof currency === 'string') throw new CostUsageError(currency)
  const rest = currency.rest
  const unknown = rest.filter((a) => a.startsWith('--') && a !== '--json')
  if (unknown.length > 0) throw new CostUsageError(`cost does not take ${unknown.join(' ')}`)
  const files = rest.filter((a) => !a.startsWith('--'))
  if (files.length !== 1) throw new CostUsageError('cost takes exactly one FILE')
  const card = loadRateCard(rates.rates)
  const file = files[0] as string
  const log = await readLog(file)
  const cost = logCost(log, currency.currency, card)
  if (rest.includes('--json')) await writeJsonLine(process.stdout, costJson(cost))
  else process.stdout.write(costReport(file === '-' ? 'standard input' : file, cost))
  return 0
}
