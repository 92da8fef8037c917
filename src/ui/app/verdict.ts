/** Pure: the one-line reject verdict for a summary (first fold violation, else the first error-level defect). */

import type { LogSummary } from '../../protocol/log-summary.ts'

export function rejectVerdict(summary: LogSummary | null): { where: string; message: string } | null {
  if (summary === null) return null
  const v = summary.firstViolation
  if (v !== null) {
    const line = summary.diagnostics.find((d) => d.code === 'fold-violation' && d.index === v.index)?.line
    const at = typeof v.seq === 'number' ? `seq ${v.seq}` : `event ${v.index}`
    return { where: `${at}${line != null ? `, line ${line}` : ''}`, message: v.message }
  }
  const first = summary.diagnostics.find((d) => d.severity === 'error')
  if (first === undefined) return null
  const where = first.code.startsWith('header-')
    ? 'header'
    : `line ${first.line ?? '—'}${first.seq !== null ? `, seq ${first.seq}` : ''}`
  return { where, message: first.message }
}
