/**
 * The catalog's digest scans (digest-scan.ts), one log at a time in the order that fills the list fastest: small logs
 * newest first, then big ones smallest first, so one big log never holds the others back. Without a watcher only the
 * small logs are read ahead (the server's prescan at start-up); a watcher has everything read.
 */

import type { ContentChecksum } from '../../core/index.ts'
import type { CatalogEntry } from './catalog-rows.ts'
import { scanDigest } from './digest-scan.ts'

export interface ScanQueueOptions {
  readonly checksum: ContentChecksum | undefined
  /** Logs up to this size are scanned first, newest first; bigger ones after, smallest first. */
  readonly smallBytes: number
  /** Whether someone watches the list (then every queued log is scanned). */
  readonly watched: () => boolean
  /** A scan finished: the list has news for its watchers. */
  readonly scanned: () => void
}

/** Scans done so far (from the start, or read on from where the last stopped) and the bytes they read. */
export interface ScanStats {
  readonly full: number
  readonly resumed: number
  readonly bytesRead: number
}

export class ScanQueue {
  private readonly pending = new Set<string>()
  private running: Promise<void> | undefined
  private prescanning = false
  private closed = false
  private readonly counters = { full: 0, resumed: 0, bytesRead: 0 }

  constructor(
    private readonly entries: ReadonlyMap<string, CatalogEntry>,
    private readonly options: ScanQueueOptions,
  ) {}

  /** Queue the log at `path` for a scan (it is new, or changed). */
  add(path: string): void {
    this.pending.add(path)
  }

  /** The log is gone from the list. */
  delete(path: string): void {
    this.pending.delete(path)
  }

  stats(): ScanStats {
    return { ...this.counters }
  }

  /** Scan without a watcher (the small logs only) until the queue is empty. */
  prescan(): void {
    this.prescanning = true
    this.kick()
  }

  close(): void {
    this.closed = true
  }

  /** Start scanning what is queued, if nothing is scanning already. */
  kick(): void {
    if (this.running !== undefined || this.closed || (!this.options.watched() && !this.prescanning)) return
    this.running = (async () => {
      for (;;) {
        const [next] = this.order()
        const entry = next === undefined ? undefined : this.entries.get(next)
        const watched = this.options.watched()
        // Without a watcher only the small logs are read ahead: a big one waits until someone looks.
        const wanted = watched || (this.prescanning && entry !== undefined && entry.identity.size <= this.options.smallBytes)
        if (next === undefined || this.closed || !wanted) {
          this.prescanning = false
          return
        }
        if (entry !== undefined) await this.scan(entry)
        else this.pending.delete(next)
        this.options.scanned()
      }
    })().finally(() => {
      this.running = undefined
    })
  }

  /** Scan what is queued now (logs up to `maxBytes` only), and wait for it: `list` answers with turn facts. */
  async scanNow(maxBytes: number): Promise<void> {
    for (const path of this.order()) {
      const entry = this.entries.get(path)
      if (entry === undefined || entry.identity.size > maxBytes) continue
      await this.scan(entry)
    }
    // Scans the background started (and took off the queue) are waited for too.
    for (const entry of this.entries.values()) if (entry.scan !== undefined && entry.identity.size <= maxBytes) await entry.scan
  }

  /** Paths to scan, in the order that fills the list fastest: small logs newest first, then big ones smallest first. */
  private order(): string[] {
    const queued = [...this.pending].map((p) => this.entries.get(p)).filter((e): e is CatalogEntry => e !== undefined)
    const small = queued.filter((e) => e.identity.size <= this.options.smallBytes)
    const big = queued.filter((e) => e.identity.size > this.options.smallBytes)
    small.sort((a, b) => b.identity.mtimeMs - a.identity.mtimeMs)
    big.sort((a, b) => a.identity.size - b.identity.size)
    return [...small, ...big].map((e) => e.path)
  }

  private async scan(entry: CatalogEntry): Promise<void> {
    if (entry.scan !== undefined) return entry.scan
    this.pending.delete(entry.path)
    entry.scan = (async () => {
      try {
        const digest = await scanDigest(entry.path, entry.identity, entry.digest, { checksum: this.options.checksum })
        entry.digest = digest
        if (digest.how !== 'cached') this.counters[digest.how]++
        this.counters.bytesRead += digest.bytesRead
      } catch {
        // Gone or unreadable since the stat: the next refresh says which; a half-read collector is not kept.
        entry.digest = undefined
      }
    })().finally(() => {
      entry.scan = undefined
    })
    return entry.scan
  }
}
