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

const known = (...values: (number | null)[]): number[] => values.filter((v): v is number => v !== null)

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
  const bars: Bar[] = []
  const anchors: [number, number][] = []
  /** A bar, and the events at its two ends as anchors for the cursor (none for a wait: its end is the request's). */
  const add = (bar: Omit<Bar, 'row'>, from: number, to: number) => {
    bars.push({ ...bar, row: 0 })
    if (bar.kind !== BarKind.idle) anchors.push([from, bar.t0], [to, bar.t1])
  }
  /** The last time the log knows, to draw a call never answered up to. */
  let lastKnown = -Infinity
  for (const s of steps) {
    const j = s.json
    lastKnown = Math.max(
      lastKnown,
      ...known(j.requestAt, j.firstOutputAt, j.lastOutputAt, s.endAt),
      ...s.tools.flatMap((t) => known(t.callAt, t.resultAt)),
    )
  }
  let previousEnd: number | null = null
  steps.forEach((s, p) => {
    const j = s.json
    const base = { step: p, tool: -1, lane: Lane.model }
    if (j.ttftMs !== null)
      add(
        { ...base, kind: BarKind.ttft, t0: j.requestAt as number, t1: j.firstOutputAt as number, target: s.atIndex },
        s.atIndex,
        s.firstOutputIndex,
      )
    if (j.generationMs !== null)
      add(
        { ...base, kind: BarKind.generation, t0: j.firstOutputAt as number, t1: j.lastOutputAt as number, target: s.atIndex },
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
      add({ ...base, kind: BarKind.model, t0: j.requestAt, t1: j.lastOutputAt, target: s.atIndex }, s.atIndex, s.messageIndex)
    // The wait before this step's request, from the previous step's last activity.
    if (previousEnd !== null && j.requestAt !== null && j.requestAt > previousEnd)
      add(
        { kind: BarKind.idle, lane: Lane.waiting, step: p, tool: -1, t0: previousEnd, t1: j.requestAt, target: s.atIndex },
        s.atIndex,
        s.atIndex,
      )
    const toolBars: Bar[] = []
    s.tools.forEach((t, k) => {
      if (t.callAt === null) return
      const answered = t.resultAt !== null
      if (answered && (j.tools[k]?.ms ?? null) === null) return
      const t1 = answered ? (t.resultAt as number) : Math.max(t.callAt, lastKnown)
      add(
        {
          kind: answered ? BarKind.tool : BarKind.toolOpen,
          lane: Lane.tools,
          step: p,
          tool: k,
          t0: t.callAt,
          t1,
          target: t.callIndex,
        },
        t.callIndex,
        answered ? t.resultIndex : t.callIndex,
      )
      toolBars.push(bars[bars.length - 1] as Bar)
    })
    assignToolRows(toolBars)
    s.retries.forEach((r, k) => {
      const wait = j.retries[k]?.waitMs ?? null
      if (r.at === null || wait === null || wait < 0) return
      add(
        { kind: BarKind.retry, lane: Lane.waiting, step: p, tool: -1, t0: r.at, t1: r.at + wait, target: r.index },
        r.index,
        r.index,
      )
    })
    const ends = known(j.lastOutputAt, j.firstOutputAt, j.requestAt, ...s.tools.map((t) => t.resultAt))
    if (ends.length > 0) previousEnd = Math.max(...ends)
  })

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
  anchors.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const anchorIndex = new Int32Array(anchors.length)
  const anchorX = new Float64Array(anchors.length)
  anchors.forEach(([index, t], i) => {
    anchorIndex[i] = index
    anchorX[i] = axis.x(t)
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
