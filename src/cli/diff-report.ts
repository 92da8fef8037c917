/**
 * `dsh-lens diff A B` without `--json`: a short report for a terminal. Its first line says where the runs parted, in
 * words (the core's `partedLine`); then what was compared, the pairs in counts, where the first difference sits in the
 * request, and the totals side by side with B − A. It prints seqs and counts, never a message's text: a log may hold
 * secrets (`dsh-lens request FILE --step T.S --json` shows a request in full).
 */

import type { LensLog, RunComparison, RunTotals, SessionComparison } from '../core/index.ts'
import { formatMs } from './timing-command.ts'

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

function describeRun(label: string, path: string, log: LensLog): string {
  const id = log.header?.id
  const defects = log.diagnostics.filter((d) => d.severity === 'error').length
  const note = defects === 0 ? '' : `; ${plural(defects, 'defect')} the harness refuses (dsh-lens check)`
  return `  ${label}        ${path === '-' ? 'standard input' : path}${typeof id === 'string' ? ` (${id})` : ''}${note}`
}

function signed(value: number, format: (v: number) => string): string {
  if (value === 0) return '0'
  return value > 0 ? `+${format(value)}` : `-${format(-value)}`
}

type Row = [string, string, string, string]

function figureRow(
  name: string,
  a: number | null | undefined,
  b: number | null | undefined,
  format: (v: number) => string = String,
): Row {
  const cell = (v: number | null | undefined) => (v === null || v === undefined ? '—' : format(v))
  const delta = a === null || b === null || a === undefined || b === undefined ? '—' : signed(b - a, format)
  return [name, cell(a), cell(b), delta]
}

function totalsRows(a: RunTotals, b: RunTotals): Row[] {
  const rows: Row[] = [figureRow('turns', a.turns, b.turns), figureRow('steps', a.steps, b.steps)]
  const names = [...new Set([...a.toolCalls, ...b.toolCalls].map((t) => t.name))].sort()
  for (const name of names) {
    const ta = a.toolCalls.find((t) => t.name === name)
    const tb = b.toolCalls.find((t) => t.name === name)
    const cell = (t: typeof ta) => (t === undefined ? '0' : `${t.calls}${t.failures > 0 ? ` (${t.failures} failed)` : ''}`)
    rows.push([
      `tool ${name === '' ? '(unnamed)' : name}`,
      cell(ta),
      cell(tb),
      signed((tb?.calls ?? 0) - (ta?.calls ?? 0), String),
    ])
  }
  rows.push(
    figureRow('input tokens', a.inputTokens, b.inputTokens),
    figureRow('output tokens', a.outputTokens, b.outputTokens),
    figureRow('cache-read tokens', a.cacheReadTokens, b.cacheReadTokens),
  )
  if (a.cacheWriteTokens !== null || b.cacheWriteTokens !== null)
    rows.push(figureRow('cache-write tokens', a.cacheWriteTokens, b.cacheWriteTokens))
  rows.push(
    figureRow('compactions', a.compactions, b.compactions),
    figureRow('prunes', a.prunes, b.prunes),
    figureRow('model time', a.modelMs, b.modelMs, formatMs),
    figureRow('tool time', a.toolMs, b.toolMs, formatMs),
    figureRow('wall time', a.wallMs, b.wallMs, formatMs),
  )
  if (a.cost !== undefined || b.cost !== undefined) rows.push(figureRow('cost', a.cost, b.cost, (v) => v.toFixed(4)))
  return rows
}

function table(rows: readonly Row[]): string[] {
  const header: Row = ['', 'A', 'B', 'B − A']
  const all = [header, ...rows]
  const width = (c: number) => Math.max(...all.map((r) => (r[c] as string).length))
  return all.map(
    (r) => `  ${r[0].padEnd(width(0))}  ${r[1].padStart(width(1))}  ${r[2].padStart(width(2))}  ${r[3].padStart(width(3))}`,
  )
}

function firstLine(result: SessionComparison): string | null {
  const pair = result.pairs.find((p) => !p.same)
  const diff = pair?.requestDiff
  if (diff == null) return null
  const text = diff.firstMessage ?? diff.output?.firstMessage ?? null
  const where =
    diff.firstMessage !== null
      ? `request message ${diff.firstMessage.index}`
      : diff.output?.firstMessage != null
        ? `answer ${diff.output.firstMessage.index} (equal requests)`
        : diff.firstDifference !== null
          ? `request from message ${diff.firstDifference}`
          : null
  if (where === null) return null
  const lines =
    text === null
      ? ''
      : text.parts === null
        ? ': too different to diff line by line'
        : `: ${text.removedLines} lines only in A, ${text.addedLines} only in B`
  const seqs = text === null ? '' : ` (A seq ${text.aSeq}, B seq ${text.bSeq})`
  return `  first    ${where}${seqs}${lines}`
}

export function diffReport(
  paths: readonly [string, string],
  logs: readonly [LensLog, LensLog],
  comparison: RunComparison,
  result: SessionComparison,
): string {
  const pairs = result.pairs
  const same = pairs.filter((p) => p.same).length
  const onlyA = pairs.filter((p) => p.b === null).length
  const onlyB = pairs.filter((p) => p.a === null).length
  const differ = pairs.length - same - onlyA - onlyB
  const out = [
    comparison.partedLine(),
    describeRun('A', paths[0], logs[0]),
    describeRun('B', paths[1], logs[1]),
    `  pairs    ${plural(pairs.length, 'pair')} of steps${result.fork === null ? '' : ` after the fork's ${result.fork.seedLength}-event seed`}: ${same} the same, ${differ} differ, ${onlyA} only in A, ${onlyB} only in B`,
  ]
  if (comparison.fork.mismatch !== null) out.push(`  note     ${comparison.fork.mismatch}`)
  const first = firstLine(result)
  if (first !== null) out.push(first)
  out.push(...table(totalsRows(result.totals.a, result.totals.b)))
  return out.join('\n') + '\n'
}
