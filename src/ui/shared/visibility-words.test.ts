import { describe, expect, it } from 'vitest'
import type { SpanSteps, StepMark } from '../../core/index.ts'
import { SPANS_SAID, rangesAttribute, visibilityText, visibilityWords } from './visibility-words.ts'

const mark = (turn: number, step: number, atIndex: number): StepMark => ({ turn, step, atIndex, atSeq: atIndex })
const span = (from: number, to: number, steps: StepMark[]): SpanSteps => ({
  from,
  to,
  fromSeq: from,
  toSeq: to,
  firstStep: steps[0] ?? null,
  lastStep: steps.at(-1) ?? null,
  stepCount: steps.length,
})

describe('visibilityWords', () => {
  const spans = [span(5, 16, [mark(1, 1, 6), mark(1, 2, 9), mark(1, 3, 12)]), span(23, 44, [mark(2, 1, 30)])]

  it('says the spans with their steps, and the cursor inside one', () => {
    expect(visibilityText(visibilityWords(spans, 30))).toBe(
      'visible to the model during #5–#16 (steps 1.1–1.3) and #23–#44 (step 2.1); still visible at the cursor',
    )
    expect(rangesAttribute(spans)).toBe('5-16,23-44')
  })

  it('names the last request that carried it when the cursor is past it', () => {
    expect(visibilityText(visibilityWords(spans, 50))).toBe(
      'visible to the model during #5–#16 (steps 1.1–1.3) and #23–#44 (step 2.1); last in the request of step 2.1 (#30)',
    )
    expect(visibilityText(visibilityWords(spans, 20))).toContain('last in the request of step 1.3 (#12)')
    expect(visibilityText(visibilityWords(spans, 2))).toContain('; not yet visible at the cursor')
  })

  it('a span no request carried, no span at all, and many spans', () => {
    expect(visibilityText(visibilityWords([span(3, 4, [])], 9))).toBe(
      "visible to the model during #3–#4; last visible at #4, in no step's request",
    )
    expect(visibilityText(visibilityWords([], 9))).toBe('never visible to the model')
    const many = Array.from({ length: SPANS_SAID + 3 }, (_, k) => span(k * 10, k * 10 + 2, []))
    const text = visibilityText(visibilityWords(many, 1))
    expect(text).toContain(', #50–#52 and 3 more; still visible at the cursor')
    expect(visibilityWords(many, 1).filter((p) => p.kind === 'span')).toHaveLength(SPANS_SAID)
  })
})
