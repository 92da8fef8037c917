/**
 * A document's text read again from its log, for an index that keeps only the words (a contentless FTS5 table): the
 * record at its `RecordPlace`, parsed and checked to be the same event (its seq and type), then `eventText`. A record
 * that is no longer there (the file was rewritten since it was indexed) gives null: a snippet is never made from
 * another event's text.
 */

import { ZstdContainer, type ContentChecksum } from '../decode/zstd-container.ts'
import { isRecord, type LogEvent } from '../model/log-event.ts'
import { eventText } from './event-text.ts'

const utf8 = new TextDecoder('utf-8')

/** The plaintext of one complete zstd frame (`bytes` is exactly the frame), or null when it does not decode. */
export function framePlaintext(bytes: Uint8Array, checksum?: ContentChecksum): Uint8Array | null {
  let plaintext: Uint8Array | null = null
  let failed = false
  const container = new ZstdContainer(
    {
      frame: (decoded) => {
        plaintext ??= decoded
      },
      tornFrame: () => undefined,
      diagnostic: (d) => {
        if (d.severity === 'error') failed = true
      },
    },
    checksum,
  )
  container.push(bytes)
  return failed ? null : plaintext
}

/**
 * The text of the event whose record starts at byte `lineAt` of `plaintext` (a frame's, or a JSONL file's bytes from
 * there on), if that record is still the event `expected` names; else null.
 */
export function documentTextAt(
  plaintext: Uint8Array,
  lineAt: number,
  expected: { readonly seq: number; readonly type: string },
): string | null {
  if (lineAt < 0 || lineAt >= plaintext.length) return null
  let end = plaintext.indexOf(0x0a, lineAt)
  if (end === -1) end = plaintext.length
  let value: unknown
  try {
    value = JSON.parse(utf8.decode(plaintext.subarray(lineAt, end)))
  } catch {
    return null
  }
  if (!isRecord(value) || value['seq'] !== expected.seq || value['type'] !== expected.type) return null
  const text = eventText(value as unknown as LogEvent)
  return text === '' ? null : text
}
