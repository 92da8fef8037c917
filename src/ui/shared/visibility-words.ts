/**
 * Pure: "when did the model see it", said in words, from the spans the worker sent (the core's `stepsInRanges`:
 * each span's seqs and the steps whose request was built in it) and the cursor. Only index comparisons against the
 * cursor happen here; which steps carried it is the core's answer.
 *
 * "visible to the model during #5–#16 (steps 1.1–1.3) and #23–#44 (step 2.1); still visible at the cursor", or
 * "…; last in the request of step 4.2 (#2693)".
 */

import type { SpanSteps, StepMark } from '../../core/index.ts'

/** Spans spelled out; the rest are counted ("and 12 more"). */
export const SPANS_SAID = 6

export type WordPart =
  | { readonly kind: 'text'; readonly text: string }
  /** A span of events: `#from–#to` (a link to its first event). */
  | { readonly kind: 'span'; readonly span: SpanSteps }
  /** A step (a link that opens its request). */
  | { readonly kind: 'step'; readonly step: StepMark }

/** `data-ranges`: the spans' seq ranges, `from-to` joined by commas (the CLI's `visible`, in the same order). */
export function rangesAttribute(spans: readonly SpanSteps[]): string {
  return spans.map((s) => `${s.fromSeq}-${s.toSeq}`).join(',')
}

const stepName = (s: StepMark): string => `${s.turn}.${s.step}`

/** The sentence as parts, for `spans` (in log order) and the cursor (an event index). */
export function visibilityWords(spans: readonly SpanSteps[], cursor: number): WordPart[] {
  if (spans.length === 0) return [{ kind: 'text', text: 'never visible to the model' }]
  const parts: WordPart[] = [{ kind: 'text', text: 'visible to the model during ' }]
  const said = spans.slice(0, SPANS_SAID)
  said.forEach((span, k) => {
    if (k > 0) parts.push({ kind: 'text', text: k === said.length - 1 && spans.length <= SPANS_SAID ? ' and ' : ', ' })
    parts.push({ kind: 'span', span })
    if (span.firstStep !== null && span.lastStep !== null) {
      if (span.stepCount === 1) {
        parts.push({ kind: 'text', text: ' (step ' }, { kind: 'step', step: span.firstStep }, { kind: 'text', text: ')' })
      } else {
        parts.push(
          { kind: 'text', text: ' (steps ' },
          { kind: 'step', step: span.firstStep },
          { kind: 'text', text: '–' },
          { kind: 'step', step: span.lastStep },
          { kind: 'text', text: ')' },
        )
      }
    }
  })
  if (spans.length > SPANS_SAID) parts.push({ kind: 'text', text: ` and ${spans.length - SPANS_SAID} more` })
  parts.push({ kind: 'text', text: '; ' })
  if (spans.some((s) => s.from <= cursor && cursor <= s.to)) {
    parts.push({ kind: 'text', text: 'still visible at the cursor' })
    return parts
  }
  const before = spans.filter((s) => s.to < cursor)
  const carried = [...before].reverse().find((s) => s.lastStep !== null)
  if (carried?.lastStep != null) {
    parts.push(
      { kind: 'text', text: 'last in the request of step ' },
      { kind: 'step', step: carried.lastStep },
      { kind: 'text', text: ` (#${carried.lastStep.atSeq})` },
    )
  } else if (before.length > 0) {
    parts.push({ kind: 'text', text: `last visible at #${(before.at(-1) as SpanSteps).toSeq}, in no step's request` })
  } else parts.push({ kind: 'text', text: 'not yet visible at the cursor' })
  return parts
}

/** The same sentence as plain text (tests, titles). */
export function visibilityText(parts: readonly WordPart[]): string {
  return parts
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'step' ? stepName(p.step) : `#${p.span.fromSeq}–#${p.span.toSeq}`))
    .join('')
}
