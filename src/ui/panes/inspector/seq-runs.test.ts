import { expect, it } from 'vitest'
import { seqRuns } from './seq-runs.ts'

it('folds consecutive seqs into runs, keeping order', () => {
  expect(seqRuns([19, 20, 4, 5, 6, 9])).toEqual([
    { first: 19, last: 20 },
    { first: 4, last: 6 },
    { first: 9, last: 9 },
  ])
  expect(seqRuns([])).toEqual([])
})
