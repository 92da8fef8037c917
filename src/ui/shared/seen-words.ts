/**
 * Pure: whether and when the model was sent a secret, in one sentence, from a place's spans (the worker's answer:
 * the core's visible ranges and `stepsInRanges`). "The model was sent your AWS secret access key at steps 2.1–4.3
 * (#12–#40)"; "…at steps 2.1–4.3 and 6.1"; "On the model surface during #12–#40, in no request the harness built";
 * "Never sent to the model: …". Which steps carried it is the core's answer; only words happen here.
 */

import type { SpanSteps, StepMark } from '../../core/index.ts'
import { stepsLabel } from '../../core/request/steps-label.ts'

export type SeenPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'step'; readonly step: StepMark }
  | { readonly kind: 'span'; readonly span: SpanSteps }

/** Spans spelled out; the rest are counted. */
export const SEEN_SAID = 4

/** `data-seen-ranges`: each span's seqs, `from-to`, in order (`secrets --json`'s `seenByModel` from/to). */
export function seenRanges(seen: readonly SpanSteps[]): string {
  return seen.map((s) => `${s.fromSeq}-${s.toSeq}`).join(',')
}

/** `data-seen-steps`: each span's steps as `secrets --json` names them (`2.1–4.3`), `-` for none. */
export function seenSteps(seen: readonly SpanSteps[]): string {
  return seen.map((s) => stepsLabel(s.firstStep, s.lastStep) ?? '-').join(',')
}

function joined(parts: SeenPart[][], more: number): SeenPart[] {
  const out: SeenPart[] = []
  parts.forEach((p, k) => {
    if (k > 0) out.push({ kind: 'text', text: k === parts.length - 1 && more === 0 ? ' and ' : ', ' })
    out.push(...p)
  })
  if (more > 0) out.push({ kind: 'text', text: ` and ${more} more` })
  return out
}

const stepParts = (s: SpanSteps): SeenPart[] => {
  const first = s.firstStep as StepMark
  const last = s.lastStep as StepMark
  return first.turn === last.turn && first.step === last.step
    ? [{ kind: 'step', step: first }]
    : [
        { kind: 'step', step: first },
        { kind: 'text', text: '–' },
        { kind: 'step', step: last },
      ]
}

/** The sentence for a place at event `index` (-1: the session header) of a secret named `label`. */
export function seenWords(label: string, index: number, seen: readonly SpanSteps[]): SeenPart[] {
  if (index < 0) return [{ kind: 'text', text: 'In the session header: never sent to the model.' }]
  if (seen.length === 0)
    return [{ kind: 'text', text: 'Never sent to the model: the event holding it was never on the model surface.' }]
  const carried = seen.filter((s) => s.firstStep !== null && s.lastStep !== null)
  const spans = joined(
    seen.slice(0, SEEN_SAID).map((span) => [{ kind: 'span', span }]),
    Math.max(0, seen.length - SEEN_SAID),
  )
  if (carried.length === 0)
    return [
      { kind: 'text', text: 'On the model surface during ' },
      ...spans,
      { kind: 'text', text: ', in no request the harness built.' },
    ]
  // One step, or several: as the labels read (a step's request can be built twice, a retry: still one step).
  const many = carried.length > 1 || (stepsLabel(carried[0]?.firstStep ?? null, carried[0]?.lastStep ?? null) ?? '').includes('–')
  return [
    { kind: 'text', text: `The model was sent your ${label} at ${many ? 'steps' : 'step'} ` },
    ...joined(carried.slice(0, SEEN_SAID).map(stepParts), Math.max(0, carried.length - SEEN_SAID)),
    { kind: 'text', text: ' (' },
    ...spans,
    { kind: 'text', text: ').' },
  ]
}

/** The same sentence as plain text (tests, titles). */
export function seenText(parts: readonly SeenPart[]): string {
  return parts
    .map((p) =>
      p.kind === 'text' ? p.text : p.kind === 'step' ? `${p.step.turn}.${p.step.step}` : `#${p.span.fromSeq}–#${p.span.toSeq}`,
    )
    .join('')
}
