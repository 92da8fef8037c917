/**
 * What each run spent, side by side, and what each pair of steps spent more or less: tokens as logged (`usage`), model
 * and tool time as src/core/timing measures them, wall time from the events' own clocks. A figure is null where the
 * log does not say (timing's rule: no clock reading, an end not logged, a span the clock stepped back in), never a
 * made-up 0.
 *
 * Cost is issue 37's (src/core/cost): a comparison prices nothing itself. When the caller passes a `PriceStep` (the
 * rate card's price of one step's usage), each run's totals and each pair's delta gain a `cost` in the rate card's
 * currency; without one there is no `cost` key at all.
 */

import type { LensLog } from '../log/lens-log.ts'
import { isRecord } from '../model/log-event.ts'
import { clockTime, type UsageTokens } from '../timing/step-times.ts'
import type { StepTiming } from '../timing/step-timing.ts'
import type { RunIndex, RunStep } from './run-index.ts'

/** The model a step asked: the `config` of the request header in force. */
export interface StepRoute {
  readonly provider: string | null
  readonly model: string | null
}

/** Issue 37's seam: the cost of one step's logged usage on its route, or null when the rate card has no price. */
export type PriceStep = (usage: UsageTokens, route: StepRoute) => number | null

/** One step's figures. */
export interface StepFigures {
  readonly inputTokens: number | null
  readonly outputTokens: number | null
  readonly cacheReadTokens: number | null
  readonly cacheWriteTokens: number | null
  /** From the request point to the answer (timing's `modelMs`). */
  readonly modelMs: number | null
  /** Σ of its tool calls' times: 0 without calls, null when no call's time is known. */
  readonly toolMs: number | null
  /** From its `step/start` to its end. */
  readonly wallMs: number | null
  readonly cost?: number | null
}

/** B − A for each figure of a pair (null where either side does not say); a step only one run has counts as 0 on the other. */
export type StepDelta = StepFigures

export interface ToolCallCount {
  readonly name: string
  readonly calls: number
  /** Results marked `isError` (or carrying an `error`). */
  readonly failures: number
}

export interface RunTotals {
  readonly turns: number
  readonly steps: number
  /** Every `tool/call` by name (sorted), with the failed ones. */
  readonly toolCalls: ToolCallCount[]
  readonly inputTokens: number | null
  readonly outputTokens: number | null
  readonly cacheReadTokens: number | null
  readonly cacheWriteTokens: number | null
  /** Compaction summaries and pruned tool results that reached the surface (failed attempts replace nothing). */
  readonly compactions: number
  readonly prunes: number
  readonly modelMs: number | null
  readonly toolMs: number | null
  /** Σ over turns of `turn/start` to `turn/end` (an open turn: to the last event): the agent's time, not the user's. */
  readonly wallMs: number | null
  readonly cost?: number | null
}

const timeOf = (log: LensLog, index: number): number | null => clockTime(log.event(index)?.time)

/** A duration between events `from` and `to` (indices), null as timing says. */
function span(log: LensLog, from: number, to: number): number | null {
  const start = timeOf(log, from)
  const end = timeOf(log, to)
  if (start === null || end === null || end < start || log.timing.spansBackStep(from, to)) return null
  return end - start
}

function sumKnown(values: Iterable<number | null>): number | null {
  let sum: number | null = null
  for (const v of values) if (v !== null) sum = (sum ?? 0) + v
  return sum
}

function toolMsOf(timing: StepTiming | undefined): number | null {
  const tools = timing?.json.tools ?? []
  return tools.length === 0 ? 0 : sumKnown(tools.map((t) => t.ms))
}

function routeOf(run: RunIndex, step: RunStep): StepRoute {
  const config = run.header(run.request(step).headerIndex)?.['config']
  const str = (v: unknown) => (typeof v === 'string' ? v : null)
  return isRecord(config) ? { provider: str(config['provider']), model: str(config['model']) } : { provider: null, model: null }
}

/** The figures of one step of `run`. */
export function stepFigures(run: RunIndex, step: RunStep, price?: PriceStep): StepFigures {
  const timing = run.timing(step)
  const usage = timing?.usage ?? null
  const figures: StepFigures = {
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    cacheReadTokens: usage?.cacheReadTokens ?? null,
    cacheWriteTokens: usage?.cacheWriteTokens ?? null,
    modelMs: timing?.modelMs ?? null,
    toolMs: toolMsOf(timing),
    wallMs: step.endIndex === null ? null : span(run.log, step.startIndex, step.endIndex),
  }
  if (price === undefined) return figures
  return { ...figures, cost: usage === null ? null : price(usage, routeOf(run, step)) }
}

const FIGURES = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'modelMs', 'toolMs', 'wallMs'] as const

/** B − A, figure by figure; a missing step is all zeros. */
export function stepDelta(a: StepFigures | null, b: StepFigures | null, priced: boolean): StepDelta {
  const minus = (x: number | null | undefined, y: number | null | undefined): number | null =>
    x === null || y === null || x === undefined || y === undefined ? null : x - y
  const zero = (f: StepFigures | null, key: keyof StepFigures) => (f === null ? 0 : f[key])
  const out: Record<string, number | null> = {}
  for (const key of FIGURES) out[key] = minus(zero(b, key), zero(a, key))
  if (priced) out['cost'] = minus(zero(b, 'cost'), zero(a, 'cost'))
  return out as unknown as StepDelta
}

function toolCalls(run: RunIndex): ToolCallCount[] {
  const byName = new Map<string, { calls: number; failures: number }>()
  for (const step of run.steps) {
    const timing = run.timing(step)
    if (timing === undefined) continue
    timing.json.tools.forEach((tool, k) => {
      const name = tool.name ?? ''
      const count = byName.get(name) ?? { calls: 0, failures: 0 }
      count.calls++
      const resultIndex = timing.tools[k]?.resultIndex ?? -1
      if (resultIndex >= 0 && run.resultFailed(resultIndex)) count.failures++
      byName.set(name, count)
    })
  }
  return [...byName.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([name, c]) => ({ name, calls: c.calls, failures: c.failures }))
}

function wallMs(log: LensLog): number | null {
  return sumKnown(log.turns.turns.map((t) => span(log, t.start, t.end ?? log.length - 1)))
}

/** A run's totals; `figures` are its steps' (stepFigures), in log order. */
export function runTotals(run: RunIndex, figures: readonly StepFigures[], priced: boolean): RunTotals {
  const sum = (key: keyof StepFigures) => sumKnown(figures.map((f) => f[key] ?? null))
  const links = run.log.replacementLinks
  const totals: RunTotals = {
    turns: run.log.turns.turns.length,
    steps: run.steps.length,
    toolCalls: toolCalls(run),
    inputTokens: sum('inputTokens'),
    outputTokens: sum('outputTokens'),
    cacheReadTokens: sum('cacheReadTokens'),
    cacheWriteTokens: sum('cacheWriteTokens'),
    compactions: links.filter((l) => l.kind === 'summary').length,
    prunes: links.filter((l) => l.kind === 'prune').length,
    modelMs: sum('modelMs'),
    toolMs: sum('toolMs'),
    wallMs: wallMs(run.log),
  }
  return priced ? { ...totals, cost: sum('cost') } : totals
}
