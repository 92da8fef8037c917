/** JSONL serialization exactly as raw mode writes it: header line, then each batch's records, '\n' after each. */

import type { GeneratedBatch, GeneratedHeader, GeneratedSession } from './types.ts'

export function headerLine(header: GeneratedHeader): string {
  return JSON.stringify(header) + '\n'
}

/** One batch's plaintext: also the content of its zstd frame. */
export function batchText(batch: GeneratedBatch): string {
  let out = ''
  for (const record of batch) out += JSON.stringify(record) + '\n'
  return out
}

export function toJsonl(session: GeneratedSession): string {
  const parts = [headerLine(session.header)]
  for (const batch of session.batches) parts.push(batchText(batch))
  return parts.join('')
}
