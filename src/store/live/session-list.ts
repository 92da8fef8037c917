/**
 * The live page's sessions list, kept once: `watch-sessions` answers with the whole list on every (re)connect and then
 * with what changed, merged here by path; `list` (the picker's refresh) replaces it. The picker, the status line's
 * parent and subagent links and the sessions home all read this one map (`liveView.list`).
 */

import type { CatalogRoot, ScanProgress, SessionListItem } from '../../live/protocol.ts'
import type { TailClient } from '../../live/tail-client.ts'
import { patchLive, type LiveStoreApi, type SessionsView } from './live-view.ts'

export class SessionList {
  private unwatch: (() => void) | undefined

  constructor(
    private readonly store: LiveStoreApi,
    private readonly client: TailClient,
    /** The list changed (or failed): a session asked for before it arrived may be opened now. */
    private readonly changed: () => void,
  ) {}

  /** Keep the list current across reconnects. */
  watch(): void {
    this.unwatch ??= this.client.watchSessions({
      onList: (items, scan, roots) => {
        // For the bench: when the list arrived, apart from when it was drawn.
        if (this.store.getState().liveView.list.items === null) performance.mark('dsh-lens:sessions-listed')
        this.set(new Map(items.map((i) => [i.path, i])), scan, roots)
      },
      onChange: (items, removed, scan, roots) => {
        const next = new Map(this.store.getState().liveView.list.items ?? [])
        for (const path of removed) next.delete(path)
        for (const item of items) next.set(item.path, item)
        this.set(next, scan, roots)
      },
    })
  }

  stop(): void {
    this.unwatch?.()
    this.unwatch = undefined
  }

  /** Ask the server for the whole list again (`list`): the picker's Refresh, and when it opens. */
  async refresh(): Promise<void> {
    try {
      const items = await this.client.list()
      const { scan, roots } = this.store.getState().liveView.list
      this.set(new Map(items.map((i) => [i.path, i])), scan, roots)
    } catch (error) {
      patchLive(this.store, { listError: error instanceof Error ? error.message : String(error) })
      this.changed()
    }
  }

  private set(items: ReadonlyMap<string, SessionListItem>, scan: ScanProgress | null, roots: readonly CatalogRoot[]): void {
    const list: SessionsView = { items, scan, roots }
    patchLive(this.store, { list, listError: null })
    this.changed()
  }
}
