/**
 * The follow contract: what a page subscription (stream/subscription.ts) follows, in one place. Two sources implement
 * it: a log file on disk (`SessionTail`, this room) and a session of a dsh web host (`HostSession`, dsh-web/). Both tell
 * their listeners when they grew, were reset or changed status, and hand out cursors by seq, so a subscription cannot
 * tell them apart. Types only: every room that follows or is followed imports this file and nothing else of the other.
 */

import type { ContentChecksum, DiagnosticCode } from '../../core/index.ts'
import type { ResetReason, UpstreamState } from '../../live/protocol.ts'

/** A defect stepped over (or the one that stopped reading), where it is and what it is. */
export interface Defect {
  readonly diagnostic: DiagnosticCode
  readonly message: string
  /** File offset of the defective line (JSONL) or frame (zstd). */
  readonly offset: number
  /** 1-based plaintext line (header = 1), when the defect is a line (a lost zstd frame has none). */
  readonly line?: number
  /** Last seq accepted before the defect (-1 before the first record). */
  readonly afterSeq: number
}

/** Records for a page, `fromSeq..toSeq` (seqs lost to a defect included), as the lines to send. */
export interface Batch {
  readonly fromSeq: number
  readonly toSeq: number
  readonly lines: string[]
  readonly bytes: number
}

/** A read position in a followed log: batches of record lines from `nextSeq` on. */
export interface LogCursor {
  readonly nextSeq: number
  /** Up to `maxEvents` events and about `maxBytes` of text; null when at the head (or the log was reset). */
  next(maxEvents: number, maxBytes: number): Promise<Batch | null>
}

/** What a followed log tells the subscriptions that listen to it. */
export interface FollowListener {
  /** New complete records (or the header) arrived. */
  grew(): void
  /** The source's identity changed or it shrank: everything known is void. */
  reset(reason: ResetReason): void
  /** Writer presence, open turn, corruption or the host's status changed. */
  status(): void
}

/** The dsh web host's extra status of a session it runs (a file has none). */
export interface HostStatus {
  readonly running: boolean
  readonly upstream: UpstreamState
  readonly title: string | null
}

export interface FollowedLog {
  /** Names one reading of the source: a resume must name the same epoch. Null until the header is known. */
  readonly epoch: string | null
  readonly headerLine: string | null
  readonly encoding: 'zstd' | 'jsonl' | 'dsh-web' | null
  readonly headSeq: number
  readonly turnOpen: boolean
  readonly missing: boolean
  /** Set when reading stopped at a defect that loses the framing. */
  readonly corrupt: string | undefined
  /** Defects stepped over, in order (the first ones: later ones are only counted). */
  readonly defects: readonly Defect[]
  /** The defect that stopped reading, with its offset and code. */
  readonly halt: Defect | undefined
  readonly sizeBytes: number
  readonly mtimeMs: number
  readonly host?: HostStatus
  addListener(listener: FollowListener): void
  removeListener(listener: FollowListener): void
  openCursor(fromSeq: number, checksum: ContentChecksum | undefined): LogCursor
}
