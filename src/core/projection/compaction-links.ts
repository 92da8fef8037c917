/**
 * Links each replacement to the log events that explain it (reference 4.4):
 * a summary checkpoint to its `compaction/start|summary|end` by `compactionId`,
 * a pruned tool result to the `compaction/prune` right before it (adjacency, as
 * the pruner writes them; there is no id).
 */

import { isRecord, type LogEvent } from '../model/log-event.ts'

export type ReplacementKind = 'summary' | 'prune' | 'other'

export interface CompactionGroup {
  readonly compactionId: string
  start?: number
  summary?: number
  end?: number
  /** Index of the checkpoint `user/message` that landed the summary. */
  checkpoint?: number
  /** `end.data.error` when the compaction failed. */
  error?: string
}

export interface ReplacementLink {
  readonly kind: ReplacementKind
  readonly compactionId?: string
  /** Index of the `compaction/prune` that announced a prune. */
  readonly pruneIndex?: number
}

export class CompactionIndex {
  readonly groups = new Map<string, CompactionGroup>()

  private group(id: string): CompactionGroup {
    let group = this.groups.get(id)
    if (group === undefined) this.groups.set(id, (group = { compactionId: id }))
    return group
  }

  /** Record a `compaction/*` event. */
  observe(event: LogEvent, index: number): void {
    if (typeof event.type !== 'string' || !event.type.startsWith('compaction/')) return
    const data = isRecord(event.data) ? event.data : undefined
    const id = data?.['compactionId']
    if (typeof id !== 'string') return
    const group = this.group(id)
    if (event.type === 'compaction/start') group.start = index
    else if (event.type === 'compaction/summary') group.summary = index
    else if (event.type === 'compaction/end') {
      group.end = index
      if (typeof data?.['error'] === 'string') group.error = data['error']
    }
  }

  /** Classify a replacement event and link it. `previous` is the event just before it. */
  link(event: LogEvent, index: number, previous: LogEvent | undefined, previousIndex: number): ReplacementLink {
    const data = isRecord(event.data) ? event.data : undefined
    if (event.type === 'user/message') {
      const source = isRecord(data?.['source']) ? data['source'] : undefined
      const id = source?.['compactionId']
      if (source?.['plugin'] === 'compact' || typeof id === 'string') {
        if (typeof id === 'string') this.group(id).checkpoint = index
        return typeof id === 'string' ? { kind: 'summary', compactionId: id } : { kind: 'summary' }
      }
    }
    if (event.type === 'tool/result' && previous?.type === 'compaction/prune') {
      return { kind: 'prune', pruneIndex: previousIndex }
    }
    return { kind: 'other' }
  }
}
