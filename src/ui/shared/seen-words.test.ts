/** Whether and when the model was sent a secret, in words: from the core's spans, never re-derived. */

import { describe, expect, it } from 'vitest'
import type { SpanSteps, StepMark } from '../../core/index.ts'
import { seenRanges, seenSteps, seenText, seenWords } from './seen-words.ts'

const mark = (turn: number, step: number, atSeq: number): StepMark => ({ turn, step, atIndex: atSeq, atSeq })
const span = (from: number, to: number, first: StepMark | null, last: StepMark | null, stepCount: number): SpanSteps => ({
  from,
  to,
  fromSeq: from,
  toSeq: to,
  firstStep: first,
  lastStep: last,
  stepCount,
})

describe('seenWords', () => {
  it('names the steps whose requests carried it, then the spans', () => {
    const seen = [span(12, 40, mark(2, 1, 13), mark(4, 3, 39), 7)]
    expect(seenText(seenWords('AWS secret access key', 12, seen))).toBe(
      'The model was sent your AWS secret access key at steps 2.1–4.3 (#12–#40).',
    )
    expect(seenRanges(seen)).toBe('12-40')
    expect(seenSteps(seen)).toBe('2.1–4.3')
  })

  it('says one step, several spans, and spans that no request carried', () => {
    const seen = [
      span(5, 9, mark(1, 1, 6), mark(1, 1, 6), 1),
      span(20, 22, null, null, 0),
      span(30, 35, mark(3, 1, 31), mark(3, 2, 34), 2),
    ]
    expect(seenText(seenWords('GitHub token', 5, [seen[0] as SpanSteps]))).toBe(
      'The model was sent your GitHub token at step 1.1 (#5–#9).',
    )
    expect(seenText(seenWords('GitHub token', 5, seen))).toBe(
      'The model was sent your GitHub token at steps 1.1 and 3.1–3.2 (#5–#9, #20–#22 and #30–#35).',
    )
    expect(seenSteps(seen)).toBe('1.1,-,3.1–3.2')
    expect(seenText(seenWords('JSON Web Token', 20, [seen[1] as SpanSteps]))).toBe(
      'On the model surface during #20–#22, in no request the harness built.',
    )
  })

  it('says never, and the header', () => {
    expect(seenText(seenWords('npm token', 3, []))).toBe(
      'Never sent to the model: the event holding it was never on the model surface.',
    )
    expect(seenText(seenWords('npm token', -1, []))).toBe('In the session header: never sent to the model.')
  })

  it('says one step when a span carried the same step twice (a retried request)', () => {
    const twice = [span(18, 45, mark(2, 1, 19), mark(2, 1, 30), 2)]
    expect(seenText(seenWords('OpenAI API key', 18, twice))).toBe('The model was sent your OpenAI API key at step 2.1 (#18–#45).')
  })

  it('counts spans past the ones it spells out', () => {
    const seen = Array.from({ length: 6 }, (_, k) => span(k * 10, k * 10 + 5, mark(k + 1, 1, k * 10), mark(k + 1, 1, k * 10), 1))
    expect(seenText(seenWords('Stripe key', 0, seen))).toBe(
      'The model was sent your Stripe key at steps 1.1, 2.1, 3.1, 4.1 and 2 more (#0–#5, #10–#15, #20–#25, #30–#35 and 2 more).',
    )
  })
})
