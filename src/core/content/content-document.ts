/**
 * A searchable document: one semantic event's text (`eventText`) with what a search filters and shows, and where the
 * event's record lies in its log file, so an index may keep only the words and read the text back for a snippet.
 */

export type SurfaceClass = 'current' | 'shadowed' | 'log-only'

export const SURFACE_CLASSES: readonly SurfaceClass[] = ['current', 'shadowed', 'log-only']

export interface SurfaceStanding {
  readonly surface: SurfaceClass
  /** The seq of the replacement that shadowed the event, or null. */
  readonly shadowedBy: number | null
}

/**
 * Where an event's record is in its file: for a zstd log the frame holding it (its first byte and the byte after it)
 * and the record's first byte in the frame's plaintext; for JSONL the record's first byte in the file (`frameAt` -1).
 */
export interface RecordPlace {
  readonly frameAt: number
  readonly frameEnd: number
  readonly lineAt: number
}

export interface ContentDocument extends SurfaceStanding {
  readonly seq: number
  /** Position in the decoded event list (= seq in a valid log). */
  readonly index: number
  readonly type: string
  /** The event's `time` (epoch ms), or null when it has none. */
  readonly time: number | null
  /** The turn and step brackets the event lies in (`turn/start`, `step/start`), else its own `data.turn`/`data.step`. */
  readonly turn: number | null
  readonly step: number | null
  /** A tool call's name, or for a tool result the name of the call it answers. */
  readonly tool: string | null
  /** A tool result that is an error (`isError` on a result block, or `data.error`). */
  readonly isError: boolean
  readonly text: string
  /**
   * Where to read the record again, or null when reading it again would not give this text: the reader upgraded it
   * from a legacy shape, or it runs from one zstd frame into the next.
   */
  readonly place: RecordPlace | null
}

export interface Reclassified extends SurfaceStanding {
  readonly seq: number
}
