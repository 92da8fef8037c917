/**
 * The sessions below the served paths, as a list that is instant and then fills in:
 * - `refresh()` finds the logs (log-discovery.ts), stats them and reads each new file's header (cached per file
 *   identity): enough for a row per session (id, project, created, updated, size, kind, parent);
 * - a background scan reads each log once for its digest (title, first prompt, event count, open turn;
 *   digest-scan.ts), small and recent logs first, so one big log never holds the others back; a grown log is read on
 *   from where its last scan stopped;
 * - while someone watches, a stat poll (the truth) and directory watchers (a hint that hurries it) find new sessions,
 *   grown logs and new titles, and the watchers get only what changed, at most every `flushMs`.
 * Nothing here writes.
 */

import { watch, type FSWatcher, type Stats } from 'node:fs'
import { sessionKindOf, type ContentChecksum, type SessionHeader } from '../../core/index.ts'
import type { CatalogRoot, ScanProgress, SessionListItem } from '../../live/protocol.ts'
import { scanDigest, sameFile, type DigestState, type FileIdentity } from './digest-scan.ts'
import { inParallel, logsBelow } from './log-discovery.ts'
import { readLogHeader, type HeaderFacts } from './log-header.ts'
import type { PathGuard } from '../path-guard.ts'

/** A session is "running" while its last turn is open and its log changed this recently. */
export const RUNNING_WINDOW_MS = 60_000

export interface CatalogUpdate {
  /** New or changed rows. */
  readonly items: readonly SessionListItem[]
  /** Paths of rows that are gone. */
  readonly removed: readonly string[]
  readonly scan: ScanProgress
  readonly roots: readonly CatalogRoot[]
}

export interface CatalogOptions {
  /** How often watchers get the stat poll (default 1000 ms). */
  readonly pollMs?: number
  /** Changes are sent to watchers at most this often (default 200 ms). */
  readonly flushMs?: number
  /** Logs up to this size are scanned first, newest first; bigger ones after, smallest first (default 8 MiB). */
  readonly smallBytes?: number
  readonly now?: () => number
}

interface Entry {
  readonly path: string
  identity: FileIdentity
  header: HeaderFacts
  digest: DigestState | undefined
  /** The scan under way, if any: two scans of one file at once would both read on into the same collector. */
  scan: Promise<void> | undefined
  /** The row as last sent to watchers (to tell what changed). */
  sent: string | undefined
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
  private readonly entries = new Map<string, Entry>()
  private roots: CatalogRoot[] = []
  private watchedDirs = new Map<string, FSWatcher>()
  private readonly listeners = new Set<(update: CatalogUpdate) => void>()
  private readonly pending = new Set<string>()
  private readonly removed = new Set<string>()
  private scanning: Promise<void> | undefined
  private refreshing: Promise<void> | undefined
  private refreshAgain = false
  private pollTimer: NodeJS.Timeout | undefined
  private flushTimer: NodeJS.Timeout | undefined
  private hurry: NodeJS.Timeout | undefined
  private closed = false
  /** Whether a refresh has completed: a watcher is answered from what is known, then told what a new one finds. */
  private refreshed = false
  private prescanning = false
  private readonly pollMs: number
  private readonly flushMs: number
  private readonly smallBytes: number
  private readonly now: () => number
  private readonly counters = { full: 0, resumed: 0, bytesRead: 0 }

  constructor(
    private readonly guard: PathGuard,
    private readonly checksum: ContentChecksum | undefined,
    options: CatalogOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000
    this.flushMs = options.flushMs ?? 200
    this.smallBytes = options.smallBytes ?? 8 * 1024 * 1024
    this.now = options.now ?? Date.now
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
    this.prescanning = true
    this.kickScan()
  }

  /** Whether the catalog has been refreshed at least once (its rows can be listed as they are). */
  get ready(): boolean {
    return this.refreshed
  }

  /** Every row, newest session first. */
  items(): SessionListItem[] {
    const children = this.childrenById()
    const items = [...this.entries.values()].map((e) => this.itemOf(e, children))
    items.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0) || a.path.localeCompare(b.path))
    return items
  }

  progress(): ScanProgress {
    let scanned = 0
    for (const entry of this.entries.values()) if (this.isScanned(entry)) scanned++
    return { scanned, total: this.entries.size }
  }

  /** Scans done so far (from the start, or read on from where the last stopped) and the bytes they read. */
  stats(): { readonly full: number; readonly resumed: number; readonly bytesRead: number } {
    return { ...this.counters }
  }

  rootsInfo(): readonly CatalogRoot[] {
    return this.roots
  }

  /** Scan what is queued now (logs up to `maxBytes` only), and wait for it: `list` answers with turn facts. */
  async scanNow(maxBytes: number): Promise<void> {
    for (const path of this.order()) {
      const entry = this.entries.get(path)
      if (entry === undefined || entry.identity.size > maxBytes) continue
      await this.scanEntry(entry)
    }
    // Scans the background started (and took off the queue) are waited for too.
    for (const entry of this.entries.values()) if (entry.scan !== undefined && entry.identity.size <= maxBytes) await entry.scan
  }

  /** The listed path for an id (from the last refresh): the first by path when two logs carry the same id. */
  pathOf(sessionId: string): string | undefined {
    let found: string | undefined
    for (const entry of this.entries.values()) {
      if (this.idOf(entry) === sessionId && (found === undefined || entry.path < found)) found = entry.path
    }
    return found
  }

  /**
   * Watch the catalog: the stat poll and directory watchers run while anyone watches, the background scan fills in
   * digests, and `listener` gets what changed. Returns the unwatch function.
   */
  watch(listener: (update: CatalogUpdate) => void): () => void {
    this.listeners.add(listener)
    if (this.listeners.size === 1) this.startWatching()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) this.stopWatching()
    }
  }

  close(): void {
    this.closed = true
    this.listeners.clear()
    this.stopWatching()
  }

  private startWatching(): void {
    const children = this.childrenById()
    for (const entry of this.entries.values()) entry.sent = JSON.stringify(this.itemOf(entry, children))
    this.pollTimer = setInterval(() => void this.refresh().then(() => this.kickScan()), this.pollMs)
    this.pollTimer.unref()
    this.kickScan()
  }

  private stopWatching(): void {
    clearInterval(this.pollTimer)
    clearTimeout(this.flushTimer)
    clearTimeout(this.hurry)
    this.flushTimer = undefined
    for (const watcher of this.watchedDirs.values()) watcher.close()
    this.watchedDirs.clear()
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
    // Removals are news only to watchers; without any, the next watcher's first list says it all.
    if (this.listeners.size === 0) this.removed.clear()
    for (const path of this.entries.keys()) {
      if (!found.has(path)) {
        this.entries.delete(path)
        this.pending.delete(path)
        this.removed.add(path)
      }
    }
    await inParallel([...found], 16, ([path, identity]) => this.refreshEntry(path, identity))
    this.refreshed = true
    if (this.listeners.size > 0) {
      this.watchDirs(dirs)
      this.scheduleFlush()
    }
  }

  private async refreshEntry(path: string, identity: FileIdentity): Promise<void> {
    const known = this.entries.get(path)
    if (known !== undefined && sameFile(known.identity, identity) && identity.size >= known.identity.size) {
      const changed = known.identity.size !== identity.size || known.identity.mtimeMs !== identity.mtimeMs
      known.identity = identity
      // A header still being written (or unreadable) is read again when the file changes.
      if (changed && known.header.header === null) known.header = await this.header(path)
      if (changed) this.pending.add(path)
      return
    }
    // New, replaced (another inode) or shrunk: everything known about it is void.
    const header = await this.header(path)
    this.entries.set(path, { path, identity, header, digest: undefined, scan: undefined, sent: known?.sent })
    this.pending.add(path)
  }

  private async header(path: string): Promise<HeaderFacts> {
    try {
      return await readLogHeader(path, this.checksum)
    } catch (error) {
      return { encoding: 'jsonl', header: null, error: `unreadable: ${(error as Error).message}` }
    }
  }

  private idOf(entry: Entry): string {
    const id = entry.header.header?.['id']
    return typeof id === 'string' ? id : entry.path
  }

  private isScanned(entry: Entry): boolean {
    const d = entry.digest?.identity
    return d !== undefined && d.size === entry.identity.size && d.mtimeMs === entry.identity.mtimeMs
  }

  /** Ids of the listed sessions whose header names each id as `parentSession`. */
  private childrenById(): Map<string, string[]> {
    const children = new Map<string, string[]>()
    for (const entry of this.entries.values()) {
      const parent = entry.header.header?.['parentSession']
      if (typeof parent !== 'string') continue
      const list = children.get(parent)
      if (list === undefined) children.set(parent, [this.idOf(entry)])
      else list.push(this.idOf(entry))
    }
    return children
  }

  private itemOf(entry: Entry, childrenById: ReadonlyMap<string, readonly string[]>): SessionListItem {
    const h = entry.header.header
    const str = (key: string): string | undefined => (typeof h?.[key] === 'string' ? (h[key] as string) : undefined)
    const scanned = entry.digest !== undefined
    const digest = entry.digest?.digest
    const turnOpen = digest?.turnOpen ?? null
    const parentSession = str('parentSession')
    const origin = str('origin')
    const children = (childrenById.get(this.idOf(entry)) ?? []).filter((id) => id !== this.idOf(entry))
    return {
      sessionId: this.idOf(entry),
      path: entry.path,
      encoding: entry.header.encoding,
      ...(str('cwd') === undefined ? {} : { cwd: str('cwd') as string }),
      ...(typeof h?.['createdAt'] === 'number' ? { createdAt: h['createdAt'] } : {}),
      ...(parentSession === undefined ? {} : { parentSession }),
      ...(origin === undefined ? {} : { origin }),
      ...(str('agentPreset') === undefined ? {} : { agentPreset: str('agentPreset') as string }),
      children,
      sizeBytes: entry.identity.size,
      mtimeMs: entry.identity.mtimeMs,
      turnOpen,
      lastSeq: digest?.lastSeq ?? null,
      ...(entry.header.error === undefined ? {} : { headerError: entry.header.error }),
      ...(entry.header.warning === undefined ? {} : { warning: entry.header.warning }),
      kind: sessionKindOf(h === null ? null : (h as Partial<SessionHeader>)),
      scanned,
      ...(digest?.title == null ? {} : { title: digest.title }),
      ...(digest?.prompt == null ? {} : { prompt: digest.prompt }),
      ...(digest === undefined ? {} : { eventCount: digest.eventCount }),
      running: turnOpen === true && this.now() - entry.identity.mtimeMs < RUNNING_WINDOW_MS,
    }
  }

  /** Paths to scan, in the order that fills the list fastest: small logs newest first, then big ones smallest first. */
  private order(): string[] {
    const queued = [...this.pending].map((p) => this.entries.get(p)).filter((e): e is Entry => e !== undefined)
    const small = queued.filter((e) => e.identity.size <= this.smallBytes)
    const big = queued.filter((e) => e.identity.size > this.smallBytes)
    small.sort((a, b) => b.identity.mtimeMs - a.identity.mtimeMs)
    big.sort((a, b) => a.identity.size - b.identity.size)
    return [...small, ...big].map((e) => e.path)
  }

  private kickScan(): void {
    if (this.scanning !== undefined || this.closed || (this.listeners.size === 0 && !this.prescanning)) return
    this.scanning = (async () => {
      for (;;) {
        const [next] = this.order()
        const entry = next === undefined ? undefined : this.entries.get(next)
        const watched = this.listeners.size > 0
        // Without a watcher only the small logs are read ahead: a big one waits until someone looks.
        const wanted = watched || (this.prescanning && entry !== undefined && entry.identity.size <= this.smallBytes)
        if (next === undefined || this.closed || !wanted) {
          this.prescanning = false
          return
        }
        if (entry !== undefined) await this.scanEntry(entry)
        else this.pending.delete(next)
        this.scheduleFlush()
      }
    })().finally(() => {
      this.scanning = undefined
    })
  }

  private async scanEntry(entry: Entry): Promise<void> {
    if (entry.scan !== undefined) return entry.scan
    this.pending.delete(entry.path)
    entry.scan = (async () => {
      try {
        const digest = await scanDigest(entry.path, entry.identity, entry.digest, { checksum: this.checksum })
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

  private watchDirs(dirs: readonly string[]): void {
    const wanted = new Set(dirs)
    for (const [dir, watcher] of this.watchedDirs) {
      if (wanted.has(dir)) continue
      watcher.close()
      this.watchedDirs.delete(dir)
    }
    for (const dir of wanted) {
      if (this.watchedDirs.has(dir)) continue
      try {
        // A hint only (inotify misses network mounts): the poll is the truth. It hurries a refresh when a project or
        // session directory appears.
        const watcher = watch(dir, { persistent: false }, () => this.hurryRefresh())
        watcher.on('error', () => watcher.close())
        this.watchedDirs.set(dir, watcher)
      } catch {
        // Gone already, or out of watches: the poll still finds what arrives.
      }
    }
  }

  private hurryRefresh(): void {
    this.hurry ??= setTimeout(() => {
      this.hurry = undefined
      if (this.listeners.size > 0) void this.refresh().then(() => this.kickScan())
    }, 50)
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined
      this.flush()
    }, this.flushMs)
  }

  private flush(): void {
    if (this.listeners.size === 0) return
    const items: SessionListItem[] = []
    const children = this.childrenById()
    for (const entry of this.entries.values()) {
      const item = this.itemOf(entry, children)
      const text = JSON.stringify(item)
      if (text === entry.sent) continue
      entry.sent = text
      items.push(item)
    }
    const removed = [...this.removed]
    this.removed.clear()
    // The poll flushes every round: a session stops "running" a minute after its last write with nothing written.
    if (items.length === 0 && removed.length === 0) return
    const update: CatalogUpdate = { items, removed, scan: this.progress(), roots: this.roots }
    for (const listener of this.listeners) listener(update)
  }
}
