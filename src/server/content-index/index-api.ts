/** The content index's Node API: what `open` and `refresh` take, and what `refresh` and `status` answer. */

export interface ContentIndexOptions {
  /**
   * The sessions root (or a project or session directory, or one log): what `logsBelow` finds there is indexed. A
   * server serving several paths gives them all: one index holds them (named by all of them).
   */
  readonly root: string | readonly string[]
  /**
   * Where the index lives: dsh-lens's folder in the user's cache directory (`userCacheDir()` of src/cli, which the
   * command or server that opens the index passes in); never under the dsh home.
   */
  readonly cacheDir: string
  /** One-line notices (a rebuilt index), without the `dsh-lens: ` prefix. */
  readonly notice?: (line: string) => void
}

export interface IndexProgress {
  /** Sessions looked at so far, of `total`. */
  readonly done: number
  readonly total: number
  /** Log bytes read so far, of `totalBytes` (the bytes still to read when the refresh started). */
  readonly bytes: number
  readonly totalBytes: number
}

export interface SkippedFile {
  readonly path: string
  readonly reason: string
}

export interface IndexStatus {
  /** Sessions indexed (files that are session logs). */
  readonly sessions: number
  /** Their events, as the logs hold them (a packed row counts as its members). */
  readonly events: number
  /** Documents: events with searchable text. */
  readonly documents: number
  /** Files found that are not indexed, with the reason. */
  readonly skipped: readonly SkippedFile[]
  /** The index file and its size in bytes (with its write-ahead log). */
  readonly path: string
}

export interface RefreshOptions {
  /** Read on worker threads from this many bytes to read on (default 16 MiB; 0: always, tests). */
  readonly poolBytes?: number
  /** How long to wait for another process writing the index (0: do not wait; return `upToDate: false`). */
  readonly waitMs?: number
  /** Drop everything and index every file again. */
  readonly rebuild?: boolean
  readonly onProgress?: (progress: IndexProgress) => void
  /** Only these files (a watcher saw them change); default: everything below the root. */
  readonly paths?: readonly string[]
}

export interface RefreshReport {
  /** False when another process holds the index (this one read what is there) or the refresh stopped early. */
  readonly upToDate: boolean
  readonly indexed: number
  /** Files that only grew: their new events were added. */
  readonly appended: number
  readonly removed: number
  readonly unchanged: number
  readonly skipped: readonly SkippedFile[]
  readonly bytesRead: number
}
