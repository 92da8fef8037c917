/**
 * Pure: the `step=T.S` parameter of the location hash (`#seq=N&sel=M&step=T.S`), which opens the Request view on
 * step T.S. It sits after `seq` and `sel`, which keep their meaning; it is written only while a picked step is shown.
 */

import type { StepRef } from '../../../store/slices/request-slice.ts'

/** `T.S` as two non-negative integers (the CLI's `--step` syntax), or null. */
export function parseStepRef(text: string | null): StepRef | null {
  const match = /^(\d{1,9})\.(\d{1,9})$/.exec(text ?? '')
  return match === null ? null : { turn: Number(match[1]), step: Number(match[2]) }
}

export function parseStepParam(hash: string): StepRef | null {
  return parseStepRef(new URLSearchParams(hash.replace(/^#/, '')).get('step'))
}

export const stepName = (ref: StepRef): string => `${ref.turn}.${ref.step}`

/** `hash` (as `formatHash` writes it, or '') with `&step=T.S` added; '' stays '' (nothing to write yet). */
export function withStepParam(hash: string, step: StepRef | null): string {
  if (hash === '' || step === null) return hash
  return `${hash}&step=${stepName(step)}`
}
