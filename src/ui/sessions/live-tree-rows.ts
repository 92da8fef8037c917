/**
 * The live Connect flow's session list (`sessions` message: parentSession, origin, children per item) as rows of the
 * same sessions tree the file bundles use, via the core's `buildSessionTree` on header-shaped inputs. The live list
 * carries no log facts, so start links and seed checks are absent here. Keys are the sessions' paths.
 */

import { buildSessionTree } from '../../core/lineage/session-tree.ts'
import type { SessionHeader } from '../../core/index.ts'
import type { SessionListItem } from '../../live/protocol.ts'
import type { TreeRow } from './SessionTree.tsx'
import { treeRows } from './SessionTree.tsx'

export function liveTreeRows(items: readonly SessionListItem[]): Array<TreeRow & { readonly item: SessionListItem }> {
  const tree = buildSessionTree(
    items.map((item) => ({
      key: item.path,
      header: {
        type: 'session',
        version: 0,
        id: item.sessionId,
        createdAt: item.createdAt ?? 0,
        ...(item.parentSession !== undefined ? { parentSession: item.parentSession } : {}),
        ...(item.origin === 'subagent' ? { origin: 'subagent' } : {}),
      } as SessionHeader,
      eventCount: item.lastSeq === null ? null : item.lastSeq + 1,
      facts: null,
    })),
  )
  const byPath = new Map(items.map((i) => [i.path, i]))
  // The live list does not know every parent's log: a missing parent is normal there, not a defect worth a note.
  return treeRows(tree).map((row) => ({
    ...row,
    notes: row.notes.filter((n) => !n.startsWith('parent session')),
    item: byPath.get(row.key) as SessionListItem,
  }))
}
