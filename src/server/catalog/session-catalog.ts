/**
 * The sessions below the served paths, as a list that is instant and then fills in:
 * - `refresh()` finds the logs (log-discovery.ts), stats them and reads each new file's header (cached per file
 *   identity): enough for a row per session (id, project, created, updated, size, kind, parent; catalog-rows.ts);
 * - a background scan reads each log once for its digest (title, first prompt, event count, open turn;
 *   digest-scan.ts), in the order scan-queue.ts keeps; a grown log is read on from where its last scan stopped;
 * - while someone watches, catalog-watchers.ts polls and tells the watchers only what changed.
 * Nothing here writes.
 */

import type { Stats } from 'node:fs'
import type { ContentChecksum } from '../../core/index.ts'
import type { CatalogRoot, ScanProgress, SessionListItem } from '../../live/protocol.ts'
import type { PathGuard } from '../path-guard.ts'
import { childrenById, idOf, isScanned, rowOf, type CatalogEntry } from './catalog-rows.ts'
import { CatalogWatchers, type CatalogUpdate } from './catalog-watchers.ts'
import { sameFile, type FileIdentity } from './digest-scan.ts'
import { inParallel, logsBelow } from './log-discovery.ts'
import { readLogHeader, type HeaderFacts } from './log-header.ts'
import { ScanQueue, type ScanStats } from './scan-queue.ts'

export interface CatalogOptions {
  /** How often watchers get the stat poll (default 1000 ms). */
  readonly pollMs?: number
  /** Changes are sent to watchers at most this often (default 200 ms). */
  readonly flushMs?: number
  /** Logs up to this size are scanned first, newest first; bigger ones after, smallest first (default 8 MiB). */
  readonly smallBytes?: number
  readonly now?: () => number
}

function identityOf(st: Stats): FileIdentity {
  return {
    dev: Number(st.dev),
    ino: Number(st.ino),
    birthtimeMs: Number(st.birthtimeMs),
    size: Number(st.size),
    mtimeMs: Number(st.mtimeMs),
  }
}

export class SessionCatalog {
  private readonly entries = new Map<string, CatalogEntry>()
  private roots: CatalogRoot[] = []
  private readonly queue: ScanQueue
  private readonly watchers: CatalogWatchers
  private refreshing: Promise<void> | undefined
  private refreshAgain = false
  private closed = false
  /** Whether a refresh has completed: a watcher is answered from what is known, then told what a new one finds. */
  private refreshed = false
  private readonly now: () => number

  constructor(
    private readonly guard: PathGuard,
    private readonly checksum: ContentChecksum | undefined,
    options: CatalogOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.watchers = new CatalogWatchers(
      {
        poll: () => this.refresh().then(() => this.queue.kick()),
        items: () => this.items(),
        progress: () => this.progress(),
        rootsInfo: () => this.rootsInfo(),
      },
      { pollMs: options.pollMs ?? 1000, flushMs: options.flushMs ?? 200 },
    )
    this.queue = new ScanQueue(this.entries, {
      checksum,
      smallBytes: options.smallBytes ?? 8 * 1024 * 1024,
      watched: () => this.watchers.active,
      scanned: () => this.watchers.scheduleFlush(),
    })
  }

  /** Find the logs again, stat them, read new headers; queue scans for what changed. Concurrent calls share one run. */
  async refresh(): Promise<void> {
    if (this.refreshing !== undefined) {
      this.refreshAgain = true
      return this.refreshing
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false
        await this.refreshOnce()
      } while (this.refreshAgain && !this.closed)
    })().finally(() => {
      this.refreshing = undefined
    })
    return this.refreshing
  }

  /**
   * Start the background scan without a watcher (the server does at start-up, while the browser opens): titles are
   * then in by the time the page asks. It stops when the queue is empty; watchers restart it as logs change.
   */
  prescan(): void {
    this.queue.prescan()
  }

  /** Whether the catalog has been refreshed at least once (its rows can be listed as they are). */
  get ready(): boolean {
    return this.refreshed
  }

  /** Every row, newest session first. */
  items(): SessionListItem[] {
    const children = childrenById(this.entries.values())
    const now = this.now()
    const items = [...this.entries.values()].map((e) => rowOf(e, children, now))
    items.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0) || a.path.localeCompare(b.path))
    return items
  }

  progress(): ScanProgress {
    let scanned = 0
    for (const entry of this.entries.values()) if (isScanned(entry)) scanned++
    return { scanned, total: this.entries.size }
  }

  /** Scans done so far (from the start, or read on from where the last stopped) and the bytes they read. */
  stats(): ScanStats {
    return this.queue.stats()
  }

  rootsInfo(): readonly CatalogRoot[] {
    return this.roots
  }

  /** Scan what is queued now (logs up to `maxBytes` only), and wait for it: `list` answers with turn facts. */
  scanNow(maxBytes: number): Promise<void> {
    return this.queue.scanNow(maxBytes)
  }

  /** The listed path for an id (from the last refresh): the first by path when two logs carry the same id. */
  pathOf(sessionId: string): string | undefined {
    let found: string | undefined
    for (const entry of this.entries.values()) {
      if (idOf(entry) === sessionId && (found === undefined || entry.path < found)) found = entry.path
    }
    return found
  }

  /**
   * Watch the catalog: the stat poll and directory watchers run while anyone watches, the background scan fills in
   * digests, and `listener` gets what changed. Returns the unwatch function.
   */
  watch(listener: (update: CatalogUpdate) => void): () => void {
    const unwatch = this.watchers.add(listener)
    this.queue.kick()
    return unwatch
  }

  close(): void {
    this.closed = true
    this.queue.close()
    this.watchers.close()
  }

  private async refreshOnce(): Promise<void> {
    const found = new Map<string, FileIdentity>()
    const roots: CatalogRoot[] = []
    const dirs: string[] = []
    for (const root of this.guard.roots) {
      const below = await logsBelow(root, this.guard)
      roots.push({ path: root, exists: below.exists })
      for (const log of below.logs) if (!found.has(log.path)) found.set(log.path, identityOf(log.stats))
      dirs.push(...below.dirs)
    }
    this.roots = roots
    for (const path of this.entries.keys()) {
      if (!found.has(path)) {
        this.entries.delete(path)
        this.queue.delete(path)
        this.watchers.gone(path)
      }
    }
    await inParallel([...found], 16, ([path, identity]) => this.refreshEntry(path, identity))
    this.refreshed = true
    this.watchers.refreshed(dirs)
  }

  private async refreshEntry(path: string, identity: FileIdentity): Promise<void> {
    const known = this.entries.get(path)
    if (known !== undefined && sameFile(known.identity, identity) && identity.size >= known.identity.size) {
      const changed = known.identity.size !== identity.size || known.identity.mtimeMs !== identity.mtimeMs
      known.identity = identity
      // A header still being written (or unreadable) is read again when the file changes.
      if (changed && known.header.header === null) known.header = await this.header(path)
      if (changed) this.queue.add(path)
      return
    }
    // New, replaced (another inode) or shrunk: everything known about it is void.
    const header = await this.header(path)
    this.entries.set(path, { path, identity, header, digest: undefined, scan: undefined })
    this.queue.add(path)
  }

  private async header(path: string): Promise<HeaderFacts> {
    try {
      return await readLogHeader(path, this.checksum)
    } catch (error) {
      return { encoding: 'jsonl', header: null, error: `unreadable: ${(error as Error).message}` }
    }
  }
}
