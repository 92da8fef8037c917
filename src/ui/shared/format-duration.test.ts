import { describe, expect, it } from 'vitest'
import { formatDuration, formatRate, formatShare } from './format-duration.ts'

describe('formatDuration', () => {
  it('reads as ms, seconds, minutes, hours', () => {
    expect([0, 999, 1_000, 59_949, 61_000, 3_725_000].map(formatDuration)).toStrictEqual([
      '0 ms',
      '999 ms',
      '1.0 s',
      '59.9 s',
      '1 min 1 s',
      '1 h 2 min',
    ])
    expect([formatRate(null), formatRate(12.345), formatShare(null), formatShare(0.4567)]).toStrictEqual([
      '—',
      '12.3 tok/s',
      '—',
      '45.7%',
    ])
  })
})
