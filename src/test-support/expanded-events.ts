/** Test helpers that turn a log into its expanded event list (packed rows as their member events), as the harness reads it. */

import { expandPackedRow, isPackedRowTag, validatePackedRow, type PackedRow } from '../core/index.ts'
import type { GeneratedEvent, GeneratedSession } from '../generate/index.ts'

/** The body lines of a JSONL log (header dropped), packed rows expanded. */
export function eventsOfJsonl(jsonl: string): unknown[] {
  return jsonl
    .trimEnd()
    .split('\n')
    .slice(1)
    .flatMap((line): unknown[] => {
      const v = JSON.parse(line) as Record<string, unknown>
      return isPackedRowTag(v['type']) ? expandPackedRow(validatePackedRow(v, v['type'])) : [v]
    })
}

/** Every event of a generated session, packed rows expanded. */
export function expandGeneratedSession(session: GeneratedSession): GeneratedEvent[] {
  const out: GeneratedEvent[] = []
  for (const batch of session.batches) {
    for (const record of batch) {
      if ('seq0' in record) out.push(...(expandPackedRow(record as PackedRow) as unknown as GeneratedEvent[]))
      else out.push(record)
    }
  }
  return out
}
