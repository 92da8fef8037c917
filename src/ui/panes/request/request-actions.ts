/**
 * "Copy as JSON" and "Save JSON" for a step's request: the worker's `step-request-json`, byte for byte what
 * `lens request FILE --step T.S --json` prints (the main thread only hands the text on).
 */

import type { LensClient } from '../../../protocol/lens-client.ts'
import type { StepRef } from '../../../store/slices/request-slice.ts'
import { formatCount } from '../../shared/format-count.ts'

export async function copyRequestJson(client: LensClient, step: StepRef): Promise<string> {
  const { text } = await client.query('step-request-json', step)
  try {
    await navigator.clipboard.writeText(text)
    return `Copied ${formatCount(text.length)} characters of JSON`
  } catch {
    // No clipboard permission (an insecure origin, a denied prompt): saving still works.
    return 'The clipboard is not available here: use Save JSON'
  }
}

export async function saveRequestJson(client: LensClient, step: StepRef): Promise<string> {
  const { text, fileName } = await client.query('step-request-json', step)
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
  return `Saved ${fileName}`
}
