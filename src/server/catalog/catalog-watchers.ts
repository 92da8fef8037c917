/**
 * The catalog's watchers (`watch-sessions`): while anyone watches, a stat poll (the truth) and directory watchers (a
 * hint that hurries it) look for new sessions, grown logs and new titles, and each watcher gets only the rows that
 * changed and the paths that are gone, at most every `flushMs`. Nothing runs while nobody watches.
 */

import { watch, type FSWatcher } from 'node:fs'
import type { CatalogRoot, ScanProgress, SessionListItem } from '../../live/protocol.ts'

export interface CatalogUpdate {
  /** New or changed rows. */
  readonly items: readonly SessionListItem[]
  /** Paths of rows that are gone. */
  readonly removed: readonly string[]
  readonly scan: ScanProgress
  readonly roots: readonly CatalogRoot[]
}

/** What the watchers ask of the catalog they watch. */
export interface WatchedCatalog {
  /** Find the logs again (the poll), then scan what changed. */
  poll(): Promise<void>
  items(): SessionListItem[]
  progress(): ScanProgress
  rootsInfo(): readonly CatalogRoot[]
}

export interface WatchTiming {
  /** How often watchers get the stat poll. */
  readonly pollMs: number
  /** Changes are sent to watchers at most this often. */
  readonly flushMs: number
}

export class CatalogWatchers {
  private readonly listeners = new Set<(update: CatalogUpdate) => void>()
  /** Each row as last sent, by path (to tell what changed). */
  private readonly sent = new Map<string, string>()
  private readonly removed = new Set<string>()
  private readonly dirs = new Map<string, FSWatcher>()
  private pollTimer: NodeJS.Timeout | undefined
  private flushTimer: NodeJS.Timeout | undefined
  private hurry: NodeJS.Timeout | undefined

  constructor(
    private readonly catalog: WatchedCatalog,
    private readonly timing: WatchTiming,
  ) {}

  /** Whether anyone watches. */
  get active(): boolean {
    return this.listeners.size > 0
  }

  /** Add a watcher; the first starts the poll. Returns the unwatch function. */
  add(listener: (update: CatalogUpdate) => void): () => void {
    this.listeners.add(listener)
    if (this.listeners.size === 1) this.start()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) this.stop()
    }
  }

  /** A row left the list: news only to watchers (without any, the next watcher's first list says it all). */
  gone(path: string): void {
    this.sent.delete(path)
    if (this.active) this.removed.add(path)
  }

  /** A refresh found the logs below these directories: watch them, and send what changed. */
  refreshed(dirs: readonly string[]): void {
    if (!this.active) return
    this.watchDirs(dirs)
    this.scheduleFlush()
  }

  scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined
      this.flush()
    }, this.timing.flushMs)
  }

  close(): void {
    this.listeners.clear()
    this.stop()
  }

  private start(): void {
    this.sent.clear()
    this.removed.clear()
    for (const item of this.catalog.items()) this.sent.set(item.path, JSON.stringify(item))
    this.pollTimer = setInterval(() => void this.catalog.poll(), this.timing.pollMs)
    this.pollTimer.unref()
  }

  private stop(): void {
    clearInterval(this.pollTimer)
    clearTimeout(this.flushTimer)
    clearTimeout(this.hurry)
    this.flushTimer = undefined
    this.hurry = undefined
    for (const watcher of this.dirs.values()) watcher.close()
    this.dirs.clear()
  }

  private watchDirs(dirs: readonly string[]): void {
    const wanted = new Set(dirs)
    for (const [dir, watcher] of this.dirs) {
      if (wanted.has(dir)) continue
      watcher.close()
      this.dirs.delete(dir)
    }
    for (const dir of wanted) {
      if (this.dirs.has(dir)) continue
      try {
        // A hint only (inotify misses network mounts): the poll is the truth. It hurries a refresh when a project or
        // session directory appears.
        const watcher = watch(dir, { persistent: false }, () => this.hurryPoll())
        watcher.on('error', () => watcher.close())
        this.dirs.set(dir, watcher)
      } catch {
        // Gone already, or out of watches: the poll still finds what arrives.
      }
    }
  }

  private hurryPoll(): void {
    this.hurry ??= setTimeout(() => {
      this.hurry = undefined
      if (this.active) void this.catalog.poll()
    }, 50)
  }

  private flush(): void {
    if (!this.active) return
    const items: SessionListItem[] = []
    for (const item of this.catalog.items()) {
      const text = JSON.stringify(item)
      if (text === this.sent.get(item.path)) continue
      this.sent.set(item.path, text)
      items.push(item)
    }
    const removed = [...this.removed]
    this.removed.clear()
    // The poll flushes every round: a session stops "running" a minute after its last write with nothing written.
    if (items.length === 0 && removed.length === 0) return
    const update: CatalogUpdate = { items, removed, scan: this.catalog.progress(), roots: this.catalog.rootsInfo() }
    for (const listener of this.listeners) listener(update)
  }
}
