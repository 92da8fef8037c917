/**
 * One pass over a log's bytes for the sessions tree: the header, the event count, the lineage facts, and the first
 * `keep` events (for checking a fork's seed against its parent). Decodes with the core's `SessionDecoder` but does not
 * fold: a directory or a zip of many logs is scanned once, and only the log the user opens is folded.
 */

import { SessionDecoder } from '../decode/session-decoder.ts'
import { expandPackedMember } from '../decode/packed-rows.ts'
import type { ContentChecksum } from '../decode/zstd-container.ts'
import type { SessionHeader } from '../model/log-event.ts'
import { LineageFactCollector, type LineageFacts } from './lineage-facts.ts'

export class LineageScanner {
  header: SessionHeader | null = null
  /** Whether the first line has been judged (then `header` is final: the session header, or null). */
  headerSeen = false
  /** The header's defect, when it has one. */
  headerError: string | null = null
  eventCount = 0
  /** The first `keep` events, as decoded (packed members expanded). */
  readonly kept: unknown[] = []
  private readonly collector = new LineageFactCollector()
  private readonly decoder: SessionDecoder

  constructor(
    private readonly keep: number,
    checksum?: ContentChecksum,
  ) {
    this.decoder = new SessionDecoder(
      {
        header: (header, line) => {
          this.header = header
          this.headerSeen = true
          void line
        },
        record: (record) => {
          if (record.kind === 'row') {
            for (let k = 0; k < record.size && this.kept.length < this.keep; k++)
              this.kept.push(expandPackedMember(record.row, k))
            this.eventCount += record.size
            return
          }
          if (this.kept.length < this.keep) this.kept.push(record.event)
          this.eventCount++
          this.collector.observe(record.event)
        },
        diagnostic: (d) => {
          if (d.line === 1 && this.headerError === null && d.severity === 'error') this.headerError = d.message
        },
      },
      checksum === undefined ? {} : { checksum },
    )
  }

  push(bytes: Uint8Array): void {
    this.decoder.push(bytes)
  }

  finish(): void {
    this.decoder.finish()
  }

  facts(): LineageFacts {
    return this.collector.facts()
  }
}
