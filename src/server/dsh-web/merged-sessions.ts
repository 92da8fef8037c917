/**
 * The sessions list a page sees when the server is attached to a dsh web host: the file catalog's rows and the host's,
 * a session in both listed once, from the host (mergeSessionLists). A page that watches the list gets what changed in
 * the merged list, by path, whichever side changed it: a session the host starts is upserted at once, and when it is
 * also on disk its file row is removed in the same update.
 */

import type { SessionListItem } from '../../live/protocol.ts'
import type { CatalogUpdate } from '../catalog/catalog-watchers.ts'
import type { SessionCatalog } from '../catalog/session-catalog.ts'
import type { DshWebUpstream } from './dsh-web-upstream.ts'
import { mergeSessionLists } from './host-catalog.ts'

export interface MergedWatch {
  /** The whole list now; what `listener` gets from here on are the changes since this. */
  snapshot(): SessionListItem[]
  stop(): void
}

export class MergedSessions {
  constructor(
    private readonly files: SessionCatalog,
    private readonly host: DshWebUpstream,
  ) {}

  items(): SessionListItem[] {
    return mergeSessionLists(this.files.items(), this.host.currentItems())
  }

  watch(listener: (update: CatalogUpdate) => void): MergedWatch {
    let sent = new Map<string, string>()
    const take = (): { items: SessionListItem[]; next: Map<string, string> } => {
      const items = this.items()
      return { items, next: new Map(items.map((i) => [i.path, JSON.stringify(i)])) }
    }
    const changed = (): void => {
      const { items, next } = take()
      const upserts = items.filter((i) => sent.get(i.path) !== next.get(i.path))
      const removed = [...sent.keys()].filter((path) => !next.has(path))
      sent = next
      if (upserts.length === 0 && removed.length === 0) return
      listener({ items: upserts, removed, scan: this.files.progress(), roots: this.files.rootsInfo() })
    }
    const stopFiles = this.files.watch(changed)
    const stopHost = this.host.onChange(changed)
    return {
      snapshot: () => {
        const { items, next } = take()
        sent = next
        return items
      },
      stop: () => {
        stopFiles()
        stopHost()
      },
    }
  }
}
