// The A/B runner's arithmetic and its reuse of the checkout's dependencies (the builds and lanes themselves are
// exercised by `npm run bench -- --against REF`, which is not part of the test run).
import { describe, expect, it } from 'vitest'
import { abOptions, abReport, pairStats, type LaneResult } from './ab-bench.ts'
import { lockIsSubset } from './ab-builds.ts'

const lane = (name: string, a: number[], b: number[]): LaneResult => {
  const ratio = pairStats(a, b)
  return {
    lane: name,
    kind: 'cli',
    a: a.map((ms) => ({ ms })),
    b: b.map((ms) => ({ ms })),
    ratio,
    cpuRatio: null,
    regression: ratio !== null && ratio.median > 1.05,
    error: null,
  }
}

describe('pairStats', () => {
  it('takes the median and spread of per-pair ratios, not the ratio of medians', () => {
    // Medians alone give 200/100 = 2; the pairs say B is 1.1x A in every round but one.
    expect(pairStats([100, 200, 300, 100, 50], [110, 220, 330, 110, 500])).toStrictEqual({
      pairs: 5,
      median: 1.1,
      p25: 1.1,
      p75: 1.1,
      min: 1.1,
      max: 10,
    })
  })

  it('has nothing to say without a pair', () => {
    expect(pairStats([], [])).toBeNull()
    expect(pairStats([0], [5])).toBeNull()
  })
})

describe('the report', () => {
  const build = { label: 'abc1234', sha: 'abc1234'.padEnd(40, '0'), dist: '/d', cli: '/c' }
  const work = { label: 'work', sha: null, dist: '/w', cli: '/wc' }

  it('marks a lane more than 5% slower at the median pair as a regression, and 5% itself as the same', () => {
    const report = abReport(
      build,
      work,
      [lane('slow', [100, 100, 100], [106, 107, 90]), lane('even', [100, 100, 100], [105, 105, 105])],
      [1, 2],
    )
    expect(report).toMatch(/\| slow .*\| 1\.060x .*REGRESSION/)
    expect(report).toMatch(/\| even .*\| 1\.050x .*\| same/)
    expect(report).toContain('Regressions: slow')
    expect(report).toContain('Load average (1 min) over the run: 1.00-2.00')
  })
})

describe('abOptions', () => {
  it('needs a baseline and defaults to both kinds of lanes on the two 280k logs', () => {
    expect(() => abOptions([])).toThrow('--against REF')
    expect(abOptions(['--against', 'HEAD~1'])).toStrictEqual({
      against: 'HEAD~1',
      with: null,
      rounds: 7,
      warmup: 1,
      kinds: ['cli', 'page'],
      logs: ['280k', '280k-short'],
    })
    expect(abOptions(['--against', 'x', '--lanes', 'cli', '--rounds', '3']).kinds).toStrictEqual(['cli'])
    expect(() => abOptions(['--against', 'x', '--lanes', 'both'])).toThrow('--lanes both')
  })
})

describe('lockIsSubset', () => {
  it('links the checkout dependencies only when every package the baseline pins is pinned alike', () => {
    const ours = { '': {}, 'node_modules/a': { version: '1.0.0' }, 'node_modules/b': { version: '2.0.0' } }
    expect(lockIsSubset({ '': {}, 'node_modules/a': { version: '1.0.0' } }, ours)).toBe(true)
    expect(lockIsSubset({ 'node_modules/a': { version: '1.0.1' } }, ours)).toBe(false)
    expect(lockIsSubset({ 'node_modules/c': { version: '1.0.0' } }, ours)).toBe(false)
  })
})
