/**
 * The open log's replacements in the protocol's shape (`ReplacementInfo`, with their compaction links), mirrored from
 * the core once each as the log grows, looked up by seq and by index, and laid out for the replace graph. The summary
 * and the answers (a row's summary, an event's detail) read the same mirror.
 */

import type { LensLog } from '../core/index.ts'
import type { ReplacementInfo } from '../protocol/log-summary.ts'
import { EMPTY_LAYOUT, type ReplaceLayout } from '../protocol/replace-layout.ts'
import { extendLayout, layoutReplacements } from './replace-layout.ts'

/** While a live log grows, the full graph layout is redone at most this often; in between, appended
 * replacements are placed cheaply (`extendLayout`). */
const FULL_LAYOUT_INTERVAL_MS = 1000

export class ReplacementIndex {
  private readonly infos: ReplacementInfo[] = []
  private readonly bySeq = new Map<number, number>()
  private readonly byIndex = new Map<number, number>()
  private layout: ReplaceLayout = EMPTY_LAYOUT
  private layoutIsFull = true
  private fullLayoutAt = 0

  /** Mirror new core replacements (with their links) into protocol objects, once each. */
  sync(log: LensLog): void {
    const all = log.fold.timeline.replacements
    for (let k = this.infos.length; k < all.length; k++) {
      const r = all[k]
      if (r === undefined) break
      const link = log.replacementLinks[k]
      this.infos.push({
        seq: r.seq,
        index: r.index,
        start: r.start,
        end: r.end,
        shadowedSeqs: r.shadowedSeqs,
        sourceEventSeqs: r.sourceEventSeqs,
        kind: link?.kind ?? 'other',
        compactionId: link?.compactionId ?? null,
        shadowedIsReplacement: r.shadowedSeqs.map((s) => this.bySeq.has(s)),
      })
      this.bySeq.set(r.seq, k)
      this.byIndex.set(r.index, k)
    }
  }

  /** Every replacement so far, in log order (a copy). */
  all(): ReplacementInfo[] {
    return this.infos.slice()
  }

  /** The replacement event `seq` made, if it is one. */
  atSeq(seq: number): ReplacementInfo | undefined {
    const k = this.bySeq.get(seq)
    return k === undefined ? undefined : this.infos[k]
  }

  /** The replacement event `index` made, if it is one. */
  atIndex(index: number): ReplacementInfo | undefined {
    const k = this.byIndex.get(index)
    return k === undefined ? undefined : this.infos[k]
  }

  /** The graph layout for every replacement so far: redone only when replacements were added (or at the end). */
  graphLayout(final: boolean): ReplaceLayout {
    const infos = this.infos
    const stale = infos.length !== this.layout.count || (final && !this.layoutIsFull)
    if (!stale) return this.layout
    const now = Date.now()
    if (final || now - this.fullLayoutAt >= FULL_LAYOUT_INTERVAL_MS) {
      this.layout = layoutReplacements(infos)
      this.layoutIsFull = true
      this.fullLayoutAt = now
    } else {
      this.layout = extendLayout(this.layout, infos)
      this.layoutIsFull = false
    }
    return this.layout
  }
}
