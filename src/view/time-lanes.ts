/**
 * The Time mode's picture of a log (issue 30): three lanes on a wall-clock axis, built in the worker from the core's
 * step timings. Model: each step's wait for its first output (TTFT) and its generation. Tools: each call from
 * dispatch to result, overlapping calls on their own rows. Waiting: the time between one step's last activity and
 * the next step's request (the harness, the user), and each retry's scheduled wait.
 *
 * The axis is the events' own clock, with every stretch longer than a minute in which nothing ran (no model, tool or
 * retry) folded to a short fixed width; each fold keeps its real length, which the chart writes. Bars are in axis
 * milliseconds in typed arrays, so an answer for thousands of steps is a few buffers the host transfers, and drawing
 * is one pass over them.
 */

import type { StepTiming, TimingTotals, TimingWarning } from '../core/index.ts'
import {
  BarKind,
  FOLD_MIN_MS,
  FOLD_SHOWN_MS,
  Lane,
  TOOL_ROWS,
  type TimeBars,
  type TimeLanesAnswer,
  type TimeStepInfo,
} from '../protocol/time-lanes.ts'

/** The hover line's figures of one step. */
export function stepInfo(step: StepTiming): TimeStepInfo {
  const j = step.json
  return {
    turn: j.turn,
    step: j.step,
    atIndex: step.atIndex,
    atSeq: j.atSeq,
    ttftMs: j.ttftMs,
    generationMs: j.generationMs,
    tokensPerSecond: j.tokensPerSecond,
    outputTokens: j.outputTokens,
    tools: j.tools.map((t) => ({ name: t.name, ms: t.ms })),
    retries: j.retries.map((r) => ({ waitMs: r.waitMs })),
  }
}

interface Bar {
  kind: BarKind
  lane: number
  row: number
  t0: number
  t1: number
  step: number
  tool: number
  target: number
}

/** Maps real times to the folded axis. */
export class FoldedAxis {
  readonly start: number
  readonly span: number
  readonly folds: readonly { readonly from: number; readonly to: number; readonly x: number }[]

  /** @param spans real [from, to] intervals of activity */
  constructor(spans: readonly (readonly [number, number])[]) {
    const sorted = [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1])
    const folds: { from: number; to: number; x: number }[] = []
    this.start = sorted[0]?.[0] ?? 0
    let covered = this.start
    let removed = 0
    for (const [from, to] of sorted) {
      if (from - covered > FOLD_MIN_MS) {
        folds.push({ from: covered, to: from, x: covered - this.start - removed })
        removed += from - covered - FOLD_SHOWN_MS
      }
      covered = Math.max(covered, to)
    }
    this.folds = folds
    this.span = sorted.length === 0 ? 0 : covered - this.start - removed
  }

  /** Axis position of real time `t`: inside a fold, proportionally across its shown width. */
  x(t: number): number {
    let lo = 0
    let hi = this.folds.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.folds[mid] as { from: number }).from <= t) lo = mid + 1
      else hi = mid
    }
    const fold = this.folds[lo - 1]
    if (fold === undefined) return t - this.start
    if (t >= fold.to) return fold.x + FOLD_SHOWN_MS + (t - fold.to)
    return fold.x + ((t - fold.from) / (fold.to - fold.from)) * FOLD_SHOWN_MS
  }
}

/** Greedy rows for overlapping tool bars: the first row free at the bar's start, else the one freed first. */
function assignToolRows(bars: Bar[]): void {
  const ends = new Array<number>(TOOL_ROWS).fill(-Infinity)
  for (const bar of [...bars].sort((a, b) => a.t0 - b.t0)) {
    let row = ends.findIndex((end) => end <= bar.t0)
    if (row < 0) row = ends.indexOf(Math.min(...ends))
    bar.row = row
    ends[row] = Math.max(ends[row] as number, bar.t1)
  }
}

/**
 * The lanes of every step: bars, the folded axis, each step's numbers, cursor anchors. Typed arrays only (plus the
 * folds and totals), so receiving it costs the page nothing per step; a step's figures are asked for on hover
 * (`stepInfo`). `transfer`: the buffers it owns.
 */
export function timeLanes(
  steps: readonly StepTiming[],
  totals: TimingTotals,
  warnings: readonly TimingWarning[],
): { answer: TimeLanesAnswer; transfer: ArrayBuffer[] } {
  // Built column by column in plain number arrays: no object per bar or anchor (a 1.3M-event log has ~15,000 bars,
  // laid out again as a live log grows).
  const bars: Bar[] = []
  const anchorAt: number[] = []
  const anchorTime: number[] = []
  /** A bar, and the events at its two ends as anchors for the cursor (none for a wait: its end is the request's). */
  const add = (
    kind: BarKind,
    lane: number,
    step: number,
    tool: number,
    t0: number,
    t1: number,
    target: number,
    from: number,
    to: number,
  ): Bar => {
    const bar = { kind, lane, row: 0, t0, t1, step, tool, target }
    bars.push(bar)
    if (kind !== BarKind.idle) {
      anchorAt.push(from, to)
      anchorTime.push(t0, t1)
    }
    return bar
  }
  /** The last time the log knows, to draw a call never answered up to. */
  let lastKnown = -Infinity
  const seen = (t: number | null): void => {
    if (t !== null && t > lastKnown) lastKnown = t
  }
  for (const s of steps) {
    seen(s.json.requestAt)
    seen(s.json.firstOutputAt)
    seen(s.json.lastOutputAt)
    seen(s.endAt)
    for (const t of s.tools) {
      seen(t.callAt)
      seen(t.resultAt)
    }
  }
  let previousEnd: number | null = null
  const toolBars: Bar[] = []
  for (let p = 0; p < steps.length; p++) {
    const s = steps[p] as StepTiming
    const j = s.json
    if (j.ttftMs !== null)
      add(
        BarKind.ttft,
        Lane.model,
        p,
        -1,
        j.requestAt as number,
        j.firstOutputAt as number,
        s.atIndex,
        s.atIndex,
        s.firstOutputIndex,
      )
    if (j.generationMs !== null)
      add(
        BarKind.generation,
        Lane.model,
        p,
        -1,
        j.firstOutputAt as number,
        j.lastOutputAt as number,
        s.atIndex,
        s.firstOutputIndex,
        s.messageIndex,
      )
    if (
      j.ttftMs === null &&
      j.generationMs === null &&
      j.requestAt !== null &&
      j.lastOutputAt !== null &&
      j.lastOutputAt >= j.requestAt
    )
      add(BarKind.model, Lane.model, p, -1, j.requestAt, j.lastOutputAt, s.atIndex, s.atIndex, s.messageIndex)
    // The wait before this step's request, from the previous step's last activity.
    if (previousEnd !== null && j.requestAt !== null && j.requestAt > previousEnd)
      add(BarKind.idle, Lane.waiting, p, -1, previousEnd, j.requestAt, s.atIndex, s.atIndex, s.atIndex)
    toolBars.length = 0
    for (let k = 0; k < s.tools.length; k++) {
      const t = s.tools[k] as StepTiming['tools'][number]
      if (t.callAt === null) continue
      const answered = t.resultAt !== null
      if (answered && (j.tools[k]?.ms ?? null) === null) continue
      const end = answered ? (t.resultAt as number) : Math.max(t.callAt, lastKnown)
      toolBars.push(
        add(
          answered ? BarKind.tool : BarKind.toolOpen,
          Lane.tools,
          p,
          k,
          t.callAt,
          end,
          t.callIndex,
          t.callIndex,
          answered ? t.resultIndex : t.callIndex,
        ),
      )
    }
    if (toolBars.length > 1) assignToolRows(toolBars)
    for (let k = 0; k < s.retries.length; k++) {
      const r = s.retries[k] as StepTiming['retries'][number]
      const wait = j.retries[k]?.waitMs ?? null
      if (r.at !== null && wait !== null && wait >= 0)
        add(BarKind.retry, Lane.waiting, p, -1, r.at, r.at + wait, r.index, r.index, r.index)
    }
    let end: number | null = null
    for (const t of [j.lastOutputAt, j.firstOutputAt, j.requestAt]) if (t !== null && (end === null || t > end)) end = t
    for (const t of s.tools) if (t.resultAt !== null && (end === null || t.resultAt > end)) end = t.resultAt
    if (end !== null) previousEnd = end
  }

  // Only activity keeps the axis open: the idle stretches are what folds.
  const axis = new FoldedAxis(bars.filter((b) => b.kind !== BarKind.idle).map((b) => [b.t0, b.t1] as const))
  const n = bars.length
  const out: TimeBars = {
    kind: new Uint8Array(n),
    lane: new Uint8Array(n),
    row: new Uint8Array(n),
    x0: new Float64Array(n),
    x1: new Float64Array(n),
    step: new Int32Array(n),
    tool: new Int32Array(n),
    target: new Int32Array(n),
  }
  bars.forEach((b, i) => {
    out.kind[i] = b.kind
    out.lane[i] = b.lane
    out.row[i] = b.row
    out.x0[i] = axis.x(b.t0)
    out.x1[i] = axis.x(b.t1)
    out.step[i] = b.step
    out.tool[i] = b.tool
    out.target[i] = b.target
  })
  // Anchors by event index; an index anchored twice keeps its later time (a bar's end over the next one's start).
  const order = Uint32Array.from(anchorAt, (_, i) => i).sort(
    (a, b) => (anchorAt[a] as number) - (anchorAt[b] as number) || (anchorTime[a] as number) - (anchorTime[b] as number),
  )
  const anchorIndex = new Int32Array(order.length)
  const anchorX = new Float64Array(order.length)
  order.forEach((k, i) => {
    anchorIndex[i] = anchorAt[k] as number
    anchorX[i] = axis.x(anchorTime[k] as number)
  })
  const stepTurn = Int32Array.from(steps, (s) => s.json.turn)
  const stepNumber = Int32Array.from(steps, (s) => s.json.step)
  const stepAt = Int32Array.from(steps, (s) => s.atIndex)
  const answer: TimeLanesAnswer = {
    steps: steps.length,
    totals,
    warnings,
    start: bars.length === 0 ? null : axis.start,
    span: axis.span,
    folds: axis.folds.map((f) => ({ x: f.x, ms: f.to - f.from })),
    bars: out,
    stepTurn,
    stepNumber,
    stepAt,
    anchorIndex,
    anchorX,
  }
  const transfer = [
    out.kind,
    out.lane,
    out.row,
    out.x0,
    out.x1,
    out.step,
    out.tool,
    out.target,
    anchorIndex,
    anchorX,
    stepTurn,
    stepNumber,
    stepAt,
  ].map((a) => a.buffer as ArrayBuffer)
  return { answer, transfer }
}
