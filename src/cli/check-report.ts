/** The human-readable `check` report: what is in the log, and every defect with its line and seq. */

import type { LensLog } from '../core/index.ts'

export function checkReport(path: string, log: LensLog): string {
  const out: string[] = []
  const p = log.progress
  const last = log.length - 1
  const violation = log.fold.firstViolation
  const errors = log.diagnostics.filter((d) => d.severity === 'error').length
  const warnings = log.diagnostics.length - errors
  out.push(`${path}`)
  out.push(
    `  encoding     ${p.encoding ?? 'jsonl'}${p.encoding === 'zstd' ? ` (${p.frames} frames)` : ''}, ${p.inputBytes} bytes, ${p.lines} lines, ${p.packedRows} packed rows`,
  )
  const h = log.header
  out.push(
    `  header       ${h === null ? 'none' : `session ${String(h.id)} v${String(h.version)}${h.cwd !== undefined ? ` cwd ${String(h.cwd)}` : ''}${h.parentSession !== undefined ? ` parent ${String(h.parentSession)}` : ''}`}`,
  )
  out.push(`  events       ${log.length}${log.upgradedEvents > 0 ? ` (${log.upgradedEvents} upgraded from legacy shapes)` : ''}`)
  const types = [...log.typeCounts.entries()].sort((a, b) => b[1] - a[1])
  for (const [type, n] of types) out.push(`    ${String(n).padStart(9)}  ${type}`)
  const surface = log.nodesAfter(last).length
  out.push(`  surface      ${surface} nodes, ${log.messageCountAfter(last)} messages to the model`)
  out.push(`  replacements ${log.fold.timeline.replacements.length}`)
  for (const [i, r] of log.fold.timeline.replacements.entries()) {
    const link = log.replacementLinks[i]
    out.push(
      `    seq ${r.seq} replaced [${r.start}..${r.end}] shadowing ${r.shadowedSeqs.length} (${link?.kind ?? 'other'}${link?.compactionId !== undefined ? ` ${link.compactionId}` : ''})`,
    )
  }
  if (violation !== undefined) {
    out.push(
      `  verdict      REJECTED by the harness at event ${violation.index} (seq ${String(violation.seq)}): ${violation.message}`,
    )
    out.push(`               strict surface (before it): ${log.nodesAfter(log.strictLength - 1).length} nodes`)
  } else if (errors > 0) {
    out.push(`  verdict      REJECTED by the harness's reader (see errors below); the surface fold itself passes`)
  } else {
    out.push(`  verdict      accepted by the harness${warnings > 0 ? `, with ${warnings} warning(s)` : ''}`)
  }
  out.push(`  diagnostics  ${errors} error(s), ${warnings} warning(s)`)
  for (const d of log.diagnostics) {
    const where = `line ${d.line ?? '-'}${d.seq !== null ? `, seq ${d.seq}` : ''}`
    out.push(
      `    ${d.severity.padEnd(7)} ${where}: [${d.code}] ${d.message}${d.detail !== undefined ? `\n              ${d.detail}` : ''}`,
    )
  }
  return out.join('\n') + '\n'
}
