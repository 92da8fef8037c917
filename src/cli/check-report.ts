/** The human-readable `check` report: what is in the log, and every defect with its line and seq. */

import {
  builtInRateCard,
  costFactsOfLog,
  INVARIANT_CODES,
  REJECTION_CODES,
  scanSecrets,
  sessionCost,
  stepList,
  timingJson,
  type LensLog,
  type RateCard,
  type StepListEntry,
} from '../core/index.ts'
import { checkCostLine } from './cost-report.ts'
import { formatTotalsLine } from './timing-command.ts'
import { secretsCheckLine } from './secrets-json.ts'

const PROVIDER_INVARIANTS = new Set<string>(INVARIANT_CODES)

/**
 * `check`'s exit code: 0 when the harness accepts the log and it has no defect, 1 otherwise. The
 * provider-invariant warnings (src/core/invariants) are listed but do not count: the harness's
 * own tests write logs that trip them (a hand-made checkpoint, a replay with no turn/start), and a
 * log the harness reads cleanly should not fail a script's check on them alone.
 */
export function checkExitCode(log: LensLog): 0 | 1 {
  return log.diagnostics.some((d) => !PROVIDER_INVARIANTS.has(d.code)) ? 1 : 0
}

export function checkReport(path: string, log: LensLog, card: RateCard = builtInRateCard()): string {
  const out: string[] = []
  const p = log.progress
  const last = log.length - 1
  const violation = log.fold.firstViolation
  const errors = log.diagnostics.filter((d) => d.severity === 'error').length
  const warnings = log.diagnostics.length - errors
  const invariants = log.diagnostics.filter((d) => PROVIDER_INVARIANTS.has(d.code)).length
  out.push(`${path}`)
  out.push(
    `  encoding     ${p.encoding ?? 'jsonl'}${p.encoding === 'zstd' ? ` (${p.frames} frames)` : ''}, ${p.inputBytes} bytes, ${p.lines} lines, ${p.packedRows} packed rows`,
  )
  const h = log.header
  // A header field may be missing or of any JSON type: a string as itself (a version: a number), anything else as
  // JSON, a missing one named missing (never "undefined").
  const field = (value: unknown, as: 'string' | 'number' = 'string'): string =>
    value === undefined ? '(missing)' : typeof value === as ? String(value) : JSON.stringify(value)
  out.push(
    `  header       ${h === null ? 'none' : `session ${field(h.id)} v${field(h.version, 'number')}${h.cwd !== undefined ? ` cwd ${field(h.cwd)}` : ''}${h.parentSession !== undefined ? ` parent ${field(h.parentSession)}` : ''}`}`,
  )
  out.push(`  events       ${log.length}${log.upgradedEvents > 0 ? ` (${log.upgradedEvents} upgraded from legacy shapes)` : ''}`)
  const types = [...log.typeCounts.entries()].sort((a, b) => b[1] - a[1])
  for (const [type, n] of types) out.push(`    ${String(n).padStart(9)}  ${type}`)
  const surface = log.nodesAfter(last).length
  out.push(`  surface      ${surface} nodes, ${log.messageCountAfter(last)} messages to the model`)
  const timing = timingJson(log)
  out.push(`  timing       ${formatTotalsLine(timing.totals, timing.warnings)}`)
  out.push(secretsCheckLine(scanSecrets(log)))
  const facts = costFactsOfLog(log)
  out.push(`  cost         ${checkCostLine(sessionCost(facts, card, 'CNY'), sessionCost(facts, card, 'USD'))}`)
  out.push(`  replacements ${log.fold.timeline.replacements.length}`)
  for (const [i, r] of log.fold.timeline.replacements.entries()) {
    const link = log.replacementLinks[i]
    out.push(
      `    seq ${r.seq} replaced [${r.start}..${r.end}] shadowing ${r.shadowedSeqs.length} (${link?.kind ?? 'other'}${link?.compactionId !== undefined ? ` ${link.compactionId}` : ''})`,
    )
  }
  if (violation !== undefined) {
    out.push(
      `  verdict      REJECTED by the harness at event ${violation.index}${typeof violation.seq === 'number' ? ` (seq ${violation.seq})` : ''}: ${violation.message}`,
    )
    out.push(`               strict surface (before it): ${log.nodesAfter(log.strictLength - 1).length} nodes`)
  } else if (errors > 0) {
    out.push(`  verdict      REJECTED by the harness's reader (see errors below); the surface fold itself passes`)
  } else {
    out.push(`  verdict      accepted by the harness${warnings > 0 ? `, with ${warnings} warning(s)` : ''}`)
  }
  out.push(
    `  diagnostics  ${errors} error(s), ${warnings} warning(s)${invariants > 0 ? ` (${invariants} provider invariant(s): listed, not counted in the exit code)` : ''}`,
  )
  for (const d of log.diagnostics) {
    const where = `line ${d.line ?? '-'}${d.seq !== null ? `, seq ${d.seq}` : ''}`
    out.push(
      `    ${d.severity.padEnd(7)} ${where}: [${d.code}] ${d.message}${d.detail !== undefined ? `\n              ${d.detail}` : ''}`,
    )
  }
  out.push(rejectedStepsLine(stepList(log)))
  return out.join('\n') + '\n'
}

/**
 * The report's last line: which steps' requests a provider would refuse (the core's per-step rules, not where a
 * diagnostic was raised), as runs of consecutive steps, with the rules broken.
 */
export function rejectedStepsLine(steps: readonly StepListEntry[]): string {
  const runs: string[] = []
  const codes = new Set<string>()
  let count = 0
  for (let p = 0; p < steps.length; p++) {
    if ((steps[p] as StepListEntry).rejected.length === 0) continue
    let q = p
    while (q + 1 < steps.length && (steps[q + 1] as StepListEntry).rejected.length > 0) q++
    for (let k = p; k <= q; k++) for (const code of (steps[k] as StepListEntry).rejected) codes.add(code)
    const name = (k: number) => `${(steps[k] as StepListEntry).turn}.${(steps[k] as StepListEntry).step}`
    runs.push(p === q ? name(p) : `${name(p)}–${name(q)}`)
    count += q - p + 1
    p = q
  }
  if (count === 0) return `  requests     no step's request breaks a provider rule (${steps.length} step(s) checked)`
  const rules = REJECTION_CODES.filter((code) => codes.has(code)).join(', ')
  return `  requests     a provider would reject the requests of ${count} of ${steps.length} step(s): ${runs.join(', ')} (${rules})`
}
