/**
 * The Time mode's lanes: every timed span of the core's step timings becomes one bar whose width on the axis is its
 * duration exactly (folds only ever cut stretches where nothing ran), each gap over a minute without activity is
 * one fold holding its real length, overlapping calls get rows of their own, and the cursor finds its place.
 */

import { describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, stepTimings, timingTotals, type StepTiming } from '../core/index.ts'
import { generateSession, presetOptions, toJsonl } from '../generate/index.ts'
import { BarKind, FOLD_MIN_MS, FOLD_SHOWN_MS, Lane, cursorX } from '../protocol/time-lanes.ts'
import { FoldedAxis, timeLanes } from './time-lanes.ts'

const checksum = await loadContentChecksum()

function timingsOf(options: Parameters<typeof generateSession>[0]): StepTiming[] {
  const log = new LensLog({ checksum })
  log.push(new TextEncoder().encode(toJsonl(generateSession(options))))
  log.finish()
  return stepTimings(log)
}

describe('FoldedAxis', () => {
  it('folds only gaps over a minute between activity, to a fixed width', () => {
    const axis = new FoldedAxis([
      [1_000, 2_000],
      [1_500, 30_000],
      [80_000, 81_000], // 50 s after: kept
      [200_000, 200_500], // 119 s after: folded
    ])
    expect(axis.start).toBe(1_000)
    expect(axis.folds).toStrictEqual([{ from: 81_000, to: 200_000, x: 80_000 }])
    expect(axis.span).toBe(199_500 - (119_000 - FOLD_SHOWN_MS))
    expect([axis.x(1_000), axis.x(81_000), axis.x(140_500), axis.x(200_000), axis.x(200_500)]).toStrictEqual([
      0,
      80_000,
      80_000 + FOLD_SHOWN_MS / 2,
      80_000 + FOLD_SHOWN_MS,
      80_500 + FOLD_SHOWN_MS,
    ])
  })
})

describe('timeLanes on a generated log with retries, parallel calls, jumps and an unanswered call', () => {
  const steps = timingsOf({
    ...presetOptions('demo', 4),
    targetEvents: 2_500,
    retryEverySteps: 3,
    parallelTools: true,
    clockJumpEveryTurns: 3,
    endInToolCall: true,
  })
  const { answer } = timeLanes(steps, timingTotals(steps), [])
  const { bars } = answer
  const count = (kind: BarKind) => bars.kind.filter((k) => k === kind).length

  it('one bar per timed span, as wide as its duration', () => {
    expect(answer.steps).toBe(steps.length)
    expect(count(BarKind.ttft)).toBe(steps.filter((s) => s.json.ttftMs !== null).length)
    expect(count(BarKind.generation)).toBe(steps.filter((s) => s.json.generationMs !== null).length)
    expect(count(BarKind.tool)).toBe(steps.flatMap((s) => s.json.tools).filter((t) => t.ms !== null).length)
    expect(count(BarKind.toolOpen)).toBe(1)
    expect(count(BarKind.retry)).toBe(steps.flatMap((s) => s.json.retries).length)
    for (let i = 0; i < bars.kind.length; i++) {
      const s = steps[bars.step[i] as number] as StepTiming
      const width = (bars.x1[i] as number) - (bars.x0[i] as number)
      const kind = bars.kind[i]
      if (kind === BarKind.ttft) expect(width).toBe(s.json.ttftMs)
      if (kind === BarKind.generation) expect(width).toBe(s.json.generationMs)
      if (kind === BarKind.tool) expect(width).toBe(s.json.tools[bars.tool[i] as number]?.ms)
      if (kind === BarKind.retry) expect(width).toBe(s.json.retries.find((r) => r.seq === bars.target[i])?.waitMs)
      expect(bars.x0[i]).toBeGreaterThanOrEqual(0)
      expect(bars.x1[i]).toBeLessThanOrEqual(answer.span)
      expect(bars.lane[i]).toBe(
        kind === BarKind.tool || kind === BarKind.toolOpen
          ? Lane.tools
          : kind === BarKind.idle || kind === BarKind.retry
            ? Lane.waiting
            : Lane.model,
      )
    }
  })

  it('folds the long idle stretches, each with its real length', () => {
    expect(answer.folds.length).toBeGreaterThan(0)
    for (const fold of answer.folds) expect(fold.ms).toBeGreaterThan(FOLD_MIN_MS)
    // No activity bar crosses a fold.
    for (let i = 0; i < bars.kind.length; i++) {
      if (bars.kind[i] === BarKind.idle) continue
      for (const fold of answer.folds) {
        const inside = (bars.x0[i] as number) < fold.x + FOLD_SHOWN_MS && (bars.x1[i] as number) > fold.x
        expect(inside).toBe(false)
      }
    }
  })

  it('overlapping calls take separate rows', () => {
    const tools = [...bars.kind.keys()].filter((i) => bars.kind[i] === BarKind.tool)
    const overlapping = tools.filter((i) =>
      tools.some(
        (j) =>
          j !== i &&
          bars.step[j] === bars.step[i] &&
          (bars.x0[j] as number) < (bars.x1[i] as number) &&
          (bars.x1[j] as number) > (bars.x0[i] as number),
      ),
    )
    expect(overlapping.length).toBeGreaterThan(0)
    expect(overlapping.some((i) => (bars.row[i] as number) > 0)).toBe(true)
  })

  it("the cursor sits on the last bar end at or before it; a click on a model bar goes to the step's request", () => {
    const s = steps.find((t) => t.json.ttftMs !== null) as StepTiming
    expect(cursorX(answer, s.atIndex)).toBe(
      bars.x0[[...bars.kind.keys()].find((i) => bars.kind[i] === BarKind.ttft && bars.step[i] === steps.indexOf(s)) as number],
    )
    expect(cursorX(answer, -1)).toBeNull()
    const model = [...bars.kind.keys()].filter((i) => (bars.lane[i] as number) === Lane.model)
    for (const i of model) expect(bars.target[i]).toBe(steps[bars.step[i] as number]?.atIndex)
  })
})
