/**
 * What a redacted log must be, checked against its original: the same session (the same events in the same order,
 * with the same types, seqs, surface operations and shape, strings aside; the same number of lines, packed rows
 * still packed; the same fold under the harness's own `foldSurface`, the test oracle) and none of the given secrets
 * left, in any JSON-escaped form, in the decoded text or in the file's raw bytes.
 */

import { LensLog, loadContentChecksum } from '../core/index.ts'
import { escapedForms } from '../core/secrets/index.ts'
import { harnessVerdict } from './harness-oracle.ts'

const checksum = await loadContentChecksum()

export function decodeLog(bytes: Uint8Array): LensLog {
  const log = new LensLog({ checksum, upgradeLegacy: false })
  log.push(bytes)
  log.finish()
  return log
}

/** Every event as read (packed rows expanded), and the decoded text of every record. */
function readBack(bytes: Uint8Array): { log: LensLog; events: unknown[]; text: string; rows: number } {
  const log = decodeLog(bytes)
  const events = Array.from({ length: log.length }, (_, i) => log.rawEvent(i))
  const texts = log.recordTexts
  let rows = 0
  const parts: string[] = []
  for (let r = 0; r < texts.length; r++) {
    if (texts.isRow(r)) rows++
    parts.push(texts.text(r))
  }
  return { log, events, text: parts.join('\n'), rows }
}

/** The event with every string emptied: what must not change. */
function shape(value: unknown): unknown {
  if (typeof value === 'string') return ''
  if (Array.isArray(value)) return value.map(shape)
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
  return value
}

/** A problem in words (never quoting a secret), or null when the redacted log is what it must be. */
export function redactionProblem(original: Uint8Array, redacted: Uint8Array, secrets: readonly string[]): string | null {
  const a = readBack(original)
  const b = readBack(redacted)
  if (a.events.length !== b.events.length) return `${b.events.length} events after redaction, ${a.events.length} before`
  if (a.rows !== b.rows) return `${b.rows} packed rows after redaction, ${a.rows} before`
  if (a.log.diagnostics.length !== b.log.diagnostics.length)
    return `${b.log.diagnostics.length} diagnostics after redaction, ${a.log.diagnostics.length} before: ${b.log.diagnostics.map((d) => d.code).join(', ')}`
  for (let i = 0; i < a.events.length; i++) {
    if (JSON.stringify(shape(a.events[i])) !== JSON.stringify(shape(b.events[i]))) return `event ${i} changed more than its text`
  }
  const before = harnessVerdict(a.events)
  const after = harnessVerdict(b.events)
  if (JSON.stringify(before) !== JSON.stringify(after)) return 'the harness folds the redacted log differently'
  const raw = Buffer.from(redacted).toString('latin1')
  const decoded = b.text + JSON.stringify(b.log.header)
  for (const [k, secret] of secrets.entries()) {
    for (const form of escapedForms(secret)) {
      if (decoded.includes(form)) return `secret #${k} (${secret.length} chars) is still in the decoded text`
      if (raw.includes(Buffer.from(form).toString('latin1')))
        return `secret #${k} (${secret.length} chars) is still in the raw bytes`
    }
  }
  return null
}
