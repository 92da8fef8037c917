/**
 * Pure: the Compare view's words and figures. Each kind of difference as a short label and the sentence behind it,
 * a pair's two steps, signed deltas, and the totals table's rows (each with its raw figures, so the table can be
 * checked against `dsh-lens diff --json`'s `totals`).
 */

import type { DivergenceKind, PairStep, RunTotals, StepDelta } from '../../core/index.ts'
import type { CompareTotals } from '../../protocol/compare.ts'
import { formatCount } from '../shared/format-count.ts'
import { formatDuration } from '../shared/format-duration.ts'

export const KIND_WORDS: Record<DivergenceKind, { readonly label: string; readonly title: string }> = {
  'user-message': { label: 'user message', title: 'the human said something else' },
  header: { label: 'header', title: 'the system prompt, the tools, the model config or an instruction differs' },
  'tool-result': { label: 'tool result', title: 'the same tool call came back different: the world differed' },
  'model-output': { label: 'model output', title: 'the model answered differently' },
  'surface-op': { label: 'compaction', title: 'one run compacted or pruned where the other did not' },
  length: { label: 'one stopped', title: 'a step only one of the runs has' },
}

/** A step as the lists show it: `2.1`, or an en dash for the run that has none there. */
export function stepText(step: PairStep | null): string {
  return step === null ? '–' : `${step.turn}.${step.step}`
}

export type FigureUnit = 'count' | 'ms' | 'cost'

/** A figure for people; an em dash where the log does not say. */
export function figureText(value: number | null | undefined, unit: FigureUnit): string {
  if (value === null || value === undefined) return '—'
  if (unit === 'ms') return formatDuration(value)
  if (unit === 'cost') return value.toFixed(4)
  return formatCount(value)
}

/** B − A with its sign (`+1,204`, `−3.1 s`, `0`); an em dash where either run does not say. */
export function deltaText(value: number | null | undefined, unit: FigureUnit): string {
  if (value === null || value === undefined) return '—'
  if (value === 0) return '0'
  return `${value > 0 ? '+' : '−'}${figureText(Math.abs(value), unit)}`
}

/** What a row's deltas say in one short phrase: tokens in and out, then model time (the figures that tell a run). */
export function pairDeltaText(delta: StepDelta): string {
  const tokens = (delta.inputTokens ?? 0) + (delta.outputTokens ?? 0)
  const known = delta.inputTokens !== null || delta.outputTokens !== null
  return `${known ? deltaText(tokens, 'count') : '—'} tok · ${deltaText(delta.modelMs, 'ms')}`
}

export interface TotalsRow {
  readonly key: string
  readonly label: string
  readonly unit: FigureUnit
  readonly a: number | null
  readonly b: number | null
  /** B − A; null where either does not say. */
  readonly delta: number | null
  /** A row under another (a tool by name). */
  readonly nested: boolean
}

const FIGURES: readonly { key: keyof RunTotals; label: string; unit: FigureUnit }[] = [
  { key: 'turns', label: 'turns', unit: 'count' },
  { key: 'steps', label: 'steps', unit: 'count' },
  { key: 'inputTokens', label: 'input tokens', unit: 'count' },
  { key: 'outputTokens', label: 'output tokens', unit: 'count' },
  { key: 'cacheReadTokens', label: 'cache-read tokens', unit: 'count' },
  { key: 'cacheWriteTokens', label: 'cache-write tokens', unit: 'count' },
  { key: 'compactions', label: 'compactions', unit: 'count' },
  { key: 'prunes', label: 'prunes', unit: 'count' },
  { key: 'modelMs', label: 'model time', unit: 'ms' },
  { key: 'toolMs', label: 'tool time', unit: 'ms' },
  { key: 'wallMs', label: 'wall time', unit: 'ms' },
]

const minus = (b: number | null, a: number | null): number | null => (a === null || b === null ? null : b - a)

/** The totals table: every figure of both runs, tool calls by name (and their failures), cost when priced. */
export function totalsRows(totals: CompareTotals): TotalsRow[] {
  const rows: TotalsRow[] = []
  const row = (key: string, label: string, unit: FigureUnit, a: number | null, b: number | null, nested = false): void => {
    rows.push({ key, label, unit, a, b, delta: minus(b, a), nested })
  }
  const sum = (t: RunTotals, pick: (c: RunTotals['toolCalls'][number]) => number): number =>
    t.toolCalls.reduce((n, c) => n + pick(c), 0)
  for (const f of FIGURES.slice(0, 2)) row(f.key, f.label, f.unit, totals.a[f.key] as number, totals.b[f.key] as number)
  row(
    'toolCalls',
    'tool calls',
    'count',
    sum(totals.a, (c) => c.calls),
    sum(totals.b, (c) => c.calls),
  )
  const names = [...new Set([...totals.a.toolCalls, ...totals.b.toolCalls].map((c) => c.name))].sort()
  for (const name of names) {
    const of = (t: RunTotals) => t.toolCalls.find((c) => c.name === name)
    const [a, b] = [of(totals.a), of(totals.b)]
    row(`tool:${name}`, name === '' ? '(no name)' : name, 'count', a?.calls ?? 0, b?.calls ?? 0, true)
    if ((a?.failures ?? 0) + (b?.failures ?? 0) > 0)
      row(`tool:${name}:failed`, `${name} failed`, 'count', a?.failures ?? 0, b?.failures ?? 0, true)
  }
  for (const f of FIGURES.slice(2))
    row(f.key, f.label, f.unit, totals.a[f.key] as number | null, totals.b[f.key] as number | null)
  if (totals.a.cost !== undefined || totals.b.cost !== undefined)
    row('cost', 'cost', 'cost', totals.a.cost ?? null, totals.b.cost ?? null)
  return rows
}
