import { describe, expect, it } from 'vitest'
import { formatHash, parseHash } from '../../shared/location-hash.ts'
import { parseStepParam, withStepParam } from './step-hash.ts'

describe('step hash parameter', () => {
  it('adds step after seq and sel, which still parse', () => {
    const hash = withStepParam(formatHash({ seq: 12, sel: 3 }), { turn: 3, step: 1 })
    expect(hash).toBe('#seq=12&sel=3&step=3.1')
    expect(parseHash(hash)).toEqual({ seq: 12, sel: 3 })
    expect(parseStepParam(hash)).toEqual({ turn: 3, step: 1 })
    expect(parseStepParam('#step=10.20')).toEqual({ turn: 10, step: 20 })
  })

  it('writes nothing without a cursor or a step, and refuses what is not T.S', () => {
    expect(withStepParam('', { turn: 1, step: 1 })).toBe('')
    expect(withStepParam('#seq=4', null)).toBe('#seq=4')
    for (const bad of ['#step=1', '#step=1.2.3', '#step=-1.2', '#step=a.b', '#step=1.', '#seq=1'])
      expect(parseStepParam(bad)).toBeNull()
  })
})
