/**
 * The Time mode's geometry on lanes built from a generated log (with folds): the clock read back through the folds
 * gives each bar's real times, the pointer finds the bar it is on, ticks are evenly spaced, and the hover line says
 * the step's figures.
 */

import { describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, stepTimings, timingTotals } from '../../../core/index.ts'
import { generateSession, presetOptions, toJsonl } from '../../../generate/index.ts'
import { BarKind } from '../../../protocol/time-lanes.ts'
import { stepInfo, timeLanes } from '../../../view/time-lanes.ts'
import { barAt, barBox, barText, plotOf, pxOf, realAt, ticks } from './lanes-geometry.ts'

const log = new LensLog({ checksum: await loadContentChecksum() })
log.push(
  new TextEncoder().encode(toJsonl(generateSession({ ...presetOptions('demo', 6), targetEvents: 3_000, parallelTools: true }))),
)
log.finish()
const steps = stepTimings(log)
const { answer } = timeLanes(steps, timingTotals(steps), [])
const plot = plotOf(answer, 1200)

describe('time lanes geometry', () => {
  it('the clock read back through the folds is each bar’s real start', () => {
    expect(answer.folds.length).toBeGreaterThan(0)
    for (let i = 0; i < answer.bars.kind.length; i++) {
      const s = steps[answer.bars.step[i] as number]
      if (answer.bars.kind[i] === BarKind.ttft) expect(realAt(answer, answer.bars.x0[i] as number)).toBe(s?.json.requestAt)
      if (answer.bars.kind[i] === BarKind.generation)
        expect(realAt(answer, answer.bars.x1[i] as number)).toBe(s?.json.lastOutputAt)
    }
  })

  it('the pointer on a bar finds it (or one it overlaps); off the lanes, nothing', () => {
    let found = 0
    for (let i = 0; i < answer.bars.kind.length; i += 3) {
      const { bars } = answer
      const box = barBox(bars.kind[i] as number, bars.lane[i] as number, bars.row[i] as number)
      const px = pxOf(plot, ((bars.x0[i] as number) + (bars.x1[i] as number)) / 2)
      const hit = barAt(answer, plot, px, box.top + box.height / 2)
      expect(hit).toBeGreaterThanOrEqual(0)
      expect(bars.lane[hit]).toBe(bars.lane[i])
      if (hit === i) found++
    }
    expect(found).toBeGreaterThan(answer.bars.kind.length / 6)
    expect(barAt(answer, plot, 600, 2)).toBe(-1)
    expect(barAt(answer, plot, 10, 40)).toBe(-1)
  })

  it('ticks are a round step apart, at least 90 px', () => {
    const t = ticks(plot)
    expect(t[0]).toBe(0)
    const step = (t[1] as number) - (t[0] as number)
    expect(t.every((x, k) => x === k * step)).toBe(true)
    expect(pxOf(plot, step) - pxOf(plot, 0)).toBeGreaterThanOrEqual(90)
  })

  it('the hover line says the step’s figures', () => {
    const i = [...answer.bars.kind.keys()].find((k) => answer.bars.kind[k] === BarKind.generation) as number
    const step = steps[answer.bars.step[i] as number]
    if (step === undefined) throw new Error('no step')
    const info = stepInfo(step)
    expect(barText(answer, i, info)).toMatch(new RegExp(`^step ${info.turn}\\.${info.step} · TTFT .* · generation .* tok/s`))
    expect(barText(answer, i, null)).toBe(`step ${info.turn}.${info.step} · …`)
    const tool = [...answer.bars.kind.keys()].find((k) => answer.bars.kind[k] === BarKind.tool) as number
    expect(barText(answer, tool, stepInfo(steps[answer.bars.step[tool] as number] as (typeof steps)[number]))).toMatch(
      / · tool [a-z_]+ \d/,
    )
  })
})
