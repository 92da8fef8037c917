/**
 * The `fold --json` contract (documented in docs/cli.md, asserted by tests):
 * strict results, i.e. the surface after every event before the harness's first
 * violation, optionally cut at `--at SEQ`.
 */

import type { LensLog } from '../core/index.ts'

export interface FoldJson {
  format: {
    encoding: 'jsonl' | 'zstd'
    header: Record<string, unknown> | null
    lines: number
    packedRows: number
    upgradedEvents: number
  }
  eventCount: number
  nodes: number[]
  replacements: { seq: number; start: number; end: number; shadowedSeqs: number[] }[]
  messageCount: number
  firstFoldError: { index: number; seq: unknown; message: string } | null
  diagnostics: { severity: 'error' | 'warning'; code: string; line: number | null; seq: number | null; message: string }[]
}

/** @param at - keep only events with seq <= at (within the strict prefix, where seq equals index). */
export function foldJson(log: LensLog, at?: number): FoldJson {
  const progress = log.progress
  const last = Math.min(log.strictLength - 1, at ?? Number.POSITIVE_INFINITY)
  const violation = log.fold.firstViolation
  return {
    format: {
      encoding: progress.encoding ?? 'jsonl',
      header: log.header,
      lines: progress.lines,
      packedRows: progress.packedRows,
      upgradedEvents: log.upgradedEvents,
    },
    eventCount: log.length,
    nodes: log.surfaceSeqsAfter(last),
    replacements: log
      .replacementsAfter(last)
      .map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] })),
    messageCount: log.messageCountAfter(last),
    firstFoldError: violation === undefined ? null : { index: violation.index, seq: violation.seq, message: violation.message },
    diagnostics: log.diagnostics.map((d) => ({
      severity: d.severity,
      code: d.code,
      line: d.line,
      seq: d.seq,
      message: d.message,
    })),
  }
}
