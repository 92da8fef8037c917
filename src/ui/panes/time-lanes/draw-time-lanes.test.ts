/**
 * The lanes' drawing on a recording canvas: merging touching bars into one rectangle never loses or adds a pixel
 * (for each kind and row, the drawn rectangles cover exactly the bars' pixel ranges), and a few hundred folds are one
 * fill and one dashed stroke, not one each.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LensLog, loadContentChecksum, stepTimings, timingTotals } from '../../../core/index.ts'
import { generateSession, presetOptions, toJsonl } from '../../../generate/index.ts'
import { timeLanes } from '../../../view/time-lanes.ts'
import type { ChartColors } from '../../shared/theme-colors.ts'
import { drawTimeLanes } from './draw-time-lanes.ts'
import { LABEL_WIDTH, LANES_HEIGHT, barBox, plotOf, plotWidth } from './lanes-geometry.ts'

class RecordingPath {
  readonly rects: [number, number, number, number][] = []
  rect(x: number, y: number, w: number, h: number): void {
    this.rects.push([x, y, w, h])
  }
  moveTo(): void {}
  lineTo(): void {}
}

beforeEach(() => vi.stubGlobal('Path2D', RecordingPath))
afterEach(() => vi.unstubAllGlobals())

const COLORS = Object.fromEntries(
  [
    'ink',
    'muted',
    'line',
    'panel',
    'tokens',
    'tokensFill',
    'messages',
    'input',
    'output',
    'cacheRead',
    'compaction',
    'prune',
    'cursor',
    'tool',
  ].map((k) => [k, `rgb(1 2 3)`]),
) as unknown as ChartColors

/** Merged [from, to] intervals (touching within half a pixel joined). */
function union(intervals: [number, number][]): [number, number][] {
  const out: [number, number][] = []
  for (const [a, b] of [...intervals].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1)
    if (last !== undefined && a <= last[1] + 0.5) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

describe('drawTimeLanes', () => {
  it('draws exactly the bars’ pixels, folds in one fill and one stroke', async () => {
    const log = new LensLog({ checksum: await loadContentChecksum() })
    log.push(
      new TextEncoder().encode(
        toJsonl(generateSession({ ...presetOptions('demo', 2), targetEvents: 6_000, parallelTools: true, retryEverySteps: 4 })),
      ),
    )
    log.finish()
    const steps = stepTimings(log)
    const { answer } = timeLanes(steps, timingTotals(steps), [])
    const plot = plotOf(answer, 700)
    const fills: RecordingPath[] = []
    let strokes = 0
    const ctx = {
      clearRect() {},
      fillText() {},
      fillRect() {},
      beginPath() {},
      moveTo() {},
      lineTo() {},
      setLineDash() {},
      fill: (path: RecordingPath) => fills.push(path),
      stroke: () => strokes++,
    } as unknown as CanvasRenderingContext2D
    drawTimeLanes(ctx, answer, plot, LANES_HEIGHT, COLORS)

    const scale = plotWidth(plot) / plot.span
    const expected = new Map<string, [number, number][]>()
    const { bars } = answer
    for (let i = 0; i < bars.kind.length; i++) {
      const box = barBox(bars.kind[i] as number, bars.lane[i] as number, bars.row[i] as number)
      const x0 = LABEL_WIDTH + (bars.x0[i] as number) * scale
      const key = `${bars.kind[i]}|${box.top}`
      expected.set(key, [...(expected.get(key) ?? []), [x0, Math.max(x0 + 1, LABEL_WIDTH + (bars.x1[i] as number) * scale)]])
    }
    // fills: lane rules are strokes; the first fill is the folds' background, then one per kind.
    const [foldFill, ...kindFills] = fills
    expect(foldFill?.rects.length).toBe(answer.folds.length)
    const drawn = new Map<string, [number, number][]>()
    kindFills.forEach((path, kind) => {
      for (const [x, y, w] of path.rects) drawn.set(`${kind}|${y}`, [...(drawn.get(`${kind}|${y}`) ?? []), [x, x + w]])
    })
    const rects = kindFills.reduce((n, p) => n + p.rects.length, 0)
    expect(rects).toBeLessThan(bars.kind.length)
    expect(new Set(drawn.keys())).toStrictEqual(new Set(expected.keys()))
    for (const [key, intervals] of expected) expect(union(drawn.get(key) ?? [])).toStrictEqual(union(intervals))
    // The lane rules, the folds' edges, the axis ticks: a handful of strokes whatever the number of folds.
    expect(answer.folds.length).toBeGreaterThan(3)
    expect(strokes).toBeLessThan(20)
  })
})
