/**
 * The banner's sentence for a load that read no event at all: the first error says why. Input that is no session
 * log (the core's `not-a-log`: an image, an archive, binary data) is said in that one sentence alone; a ZIP archive
 * is a session bundle, which "Open sessions…" reads.
 */

import type { Diagnostic } from '../core/model/diagnostic.ts'
import { ZIP_ARCHIVE, notALogMessage } from '../core/model/not-a-log-message.ts'

export const BUNDLE_HINT = 'A session bundle (.zip) opens with Open sessions…'

export function noEventsError(diagnostics: readonly Diagnostic[]): string {
  const first = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0]
  if (first === undefined) return 'No events could be read.'
  if (first.code !== 'not-a-log') return `No events could be read: ${first.message}`
  const sentence = first.message.charAt(0).toUpperCase() + first.message.slice(1)
  return first.message === notALogMessage(ZIP_ARCHIVE) ? `${sentence}. ${BUNDLE_HINT}` : sentence
}
