/**
 * Every invariant a provider (or the harness's invariant companions) enforces that the surface
 * fold does not, over a log as it streams in: one `observe` per decoded event, in log order,
 * with what the fold did with it. Findings are warnings; nothing here feeds back into the fold.
 */

import { CompactionCompanion } from './compaction-companion.ts'
import { prop, type FindingSink } from './finding.ts'
import { checkLoneSurrogates } from './lone-surrogate.ts'
import { SessionCompanion } from './session-companion.ts'
import { ToolPairing, type SurfaceChange } from './tool-pairing.ts'

export class InvariantChecker {
  private readonly session: SessionCompanion
  private readonly compaction: CompactionCompanion
  private readonly tools: ToolPairing

  constructor(private readonly sink: FindingSink) {
    this.session = new SessionCompanion(sink)
    this.compaction = new CompactionCompanion(sink)
    this.tools = new ToolPairing(sink)
  }

  /**
   * One event that is not a packed row. `change`: how the fold put it on the surface (undefined
   * when it is not a surface event or the fold refused it). `mayHoldSurrogate`: whether the record's
   * JSON text can hold a lone surrogate (`textMayHoldSurrogate`), when known, so the surrogate walk runs
   * only on the events that can hold one.
   */
  observe(event: unknown, index: number, change: SurfaceChange | undefined, mayHoldSurrogate?: boolean): void {
    // The harness's companion reads any value's fields (`[].seq` is undefined) but throws on null.
    if (event === null || event === undefined) return
    this.session.observe(event, index)
    if (typeof event !== 'object' || Array.isArray(event)) return
    this.compaction.observe(event, index)
    this.tools.observe(event, index, change)
    if (change !== undefined && mayHoldSurrogate !== false) {
      checkLoneSurrogates(event as { type: unknown; seq: unknown; data?: unknown }, index, this.sink)
    }
  }

  /** A packed row of `size` chunk deltas starting at `seq0`, the first at event `index`. */
  observeChunkRun(row: unknown, index: number, size: number): void {
    const data = prop(row, 'data')
    this.session.observeChunkRun(prop(row, 'seq0') as number, size, prop(data, 'turn'), prop(data, 'step'), index)
  }

  /** End of input: report what waited for the rest of the log. */
  finish(): void {
    this.compaction.finish()
  }
}
