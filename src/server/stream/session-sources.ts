/**
 * Where a connection's sessions come from, asked in one place: the files below the served paths (`FileSources`), or
 * those and a dsh web host's sessions as one list (`HostAndFileSources`, `--dsh`). The server picks one at start-up;
 * a connection lists, watches and follows through it without asking whether a host is attached.
 */

import type { CatalogRoot, ErrorCode, ScanProgress, SessionListItem, SourceRef } from '../../live/protocol.ts'
import type { CatalogUpdate } from '../catalog/catalog-watchers.ts'
import type { SessionCatalog } from '../catalog/session-catalog.ts'
import type { DshWebUpstream } from '../dsh-web/dsh-web-upstream.ts'
import { mergeSessionLists } from '../dsh-web/host-catalog.ts'
import type { MergedSessions } from '../dsh-web/merged-sessions.ts'
import type { PathGuard } from '../path-guard.ts'
import type { FollowedLog } from '../tail/followed-log.ts'
import type { TailRegistry } from '../tail/tail-registry.ts'

/** The list as `sessions` sends it. */
export interface SessionsList {
  readonly items: readonly SessionListItem[]
  readonly scan: ScanProgress
  readonly roots: readonly CatalogRoot[]
}

/** A `watch-sessions`: its first answer, then `changed` calls until stopped. */
export interface SessionsWatch {
  /** The list as it is now, once the catalog has been read at least once. */
  first(): Promise<SessionsList>
  stop(): void
}

/** A followed log and how to let go of it, or why there is none. */
export type Followed = { readonly log: FollowedLog; release(): void } | { readonly code: ErrorCode; readonly missing: string }

export interface SessionSources {
  /** `list`: every row, with the turn facts of each log small enough to read now. */
  list(): Promise<SessionsList>
  watch(changed: (update: CatalogUpdate) => void): SessionsWatch
  follow(source: SourceRef): Promise<Followed>
}

/** Logs up to this size are scanned before `list` answers (bigger ones say `turnOpen: null` until scanned). */
const LIST_SCAN_BYTES = 32 * 1024 * 1024

export class FileSources implements SessionSources {
  constructor(
    readonly catalog: SessionCatalog,
    private readonly guard: PathGuard,
    private readonly registry: TailRegistry,
  ) {}

  async list(): Promise<SessionsList> {
    await this.catalog.refresh()
    // A list answers with the turn facts of every log small enough to read now (cached per file).
    await this.catalog.scanNow(LIST_SCAN_BYTES)
    return this.listed(this.catalog.items())
  }

  watch(changed: (update: CatalogUpdate) => void): SessionsWatch {
    const stop = this.catalog.watch(changed)
    return { first: () => this.firstList(() => this.catalog.items()), stop }
  }

  async follow(source: SourceRef): Promise<Followed> {
    if (source.kind === 'dsh-web')
      return { code: 'not-found', missing: 'this server is not attached to a dsh web host (start it with --dsh)' }
    const path = await this.resolve(source)
    if (path === undefined) {
      const what = 'path' in source ? `path "${source.path}"` : `session "${source.sessionId}"`
      return { code: 'not-found', missing: `${what} is not a session log below the served paths` }
    }
    const tail = this.registry.acquire(path)
    return { log: tail, release: () => this.registry.release(tail) }
  }

  listed(items: readonly SessionListItem[]): SessionsList {
    return { items, scan: this.catalog.progress(), roots: this.catalog.rootsInfo() }
  }

  /**
   * A watch's first answer is the catalog as it is (the server refreshed it at start-up); what a refresh finds since
   * comes as changes. Only a catalog never refreshed is waited for.
   */
  async firstList(items: () => readonly SessionListItem[]): Promise<SessionsList> {
    const refreshing = this.catalog.refresh().catch(() => undefined)
    if (!this.catalog.ready) await refreshing
    return this.listed(items())
  }

  private async resolve(source: Extract<SourceRef, { kind: 'file' }>): Promise<string | undefined> {
    if ('path' in source) return this.guard.resolveFile(source.path)
    let path = this.catalog.pathOf(source.sessionId)
    if (path === undefined) {
      await this.catalog.refresh()
      path = this.catalog.pathOf(source.sessionId)
    }
    // The catalog only lists fenced paths, but re-check: the file may have been swapped for a symlink since.
    return path === undefined ? undefined : this.guard.resolveFile(path)
  }
}

/** The files and a dsh web host's sessions as one list (a session in both, once, from the host). */
export class HostAndFileSources implements SessionSources {
  constructor(
    private readonly files: FileSources,
    private readonly upstream: DshWebUpstream,
    private readonly merged: MergedSessions,
  ) {}

  async list(): Promise<SessionsList> {
    const files = await this.files.list()
    return { ...files, items: mergeSessionLists(files.items, await this.upstream.items()) }
  }

  watch(changed: (update: CatalogUpdate) => void): SessionsWatch {
    const watch = this.merged.watch(changed)
    return { first: () => this.files.firstList(() => watch.snapshot()), stop: () => watch.stop() }
  }

  async follow(source: SourceRef): Promise<Followed> {
    if (source.kind !== 'dsh-web') return this.files.follow(source)
    const upstream = this.upstream
    if (!(await upstream.knows(source.sessionId))) {
      const why = upstream.state === 'connected' ? 'does not list' : `cannot be asked (${upstream.state})`
      return { code: 'upstream-unavailable', missing: `the dsh web host ${why} session "${source.sessionId}"` }
    }
    const session = upstream.acquire(source.sessionId)
    return { log: session, release: () => upstream.release(session) }
  }
}
