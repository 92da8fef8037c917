/**
 * "Copy as JSON" and "Save JSON" for a step's request: the worker's `step-request-json`, byte for byte what
 * `lens request FILE --step T.S --json` prints (the main thread only hands the text on).
 */

import type { LensState } from '../../../store/create-lens-store.ts'
import type { StepRef } from '../../../store/slices/request-slice.ts'
import { formatCount } from '../../shared/format-count.ts'

export async function copyRequestJson(state: LensState, step: StepRef): Promise<string> {
  const { text } = await state.stepRequestJson(step)
  try {
    await navigator.clipboard.writeText(text)
    return `Copied ${formatCount(text.length)} characters of JSON`
  } catch {
    // No clipboard permission (an insecure origin, a denied prompt): saving still works.
    return 'The clipboard is not available here: use Save JSON'
  }
}

export async function saveRequestJson(state: LensState, step: StepRef): Promise<string> {
  const { text, fileName } = await state.stepRequestJson(step)
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
  return `Saved ${fileName}`
}
