/**
 * The incremental surface fold: one event at a time, never refolding, with the
 * harness's verdict kept apart from the debugger's.
 *
 * - Strict: exactly `foldSurface`. It stops at the first violation; its results
 *   are the state after every event before that one.
 * - Continued: the violation is recorded and the offending event skipped, so the
 *   rest of the log stays inspectable. One refinement: after a forward seq gap
 *   the fold re-synchronises on the event's own seq (the gap is the defect, not
 *   every later event), and an event whose seq does not move forward is skipped.
 *
 * Until the first violation both are the same state, so one structure serves both.
 */

import { isEventSeq } from '../model/log-event.ts'
import { FOLD } from '../model/harness-messages.ts'
import { planSurfaceEvent, type SurfaceEventLookup, type SurfacePlan } from './surface-checks.ts'
import { SurfaceTimeline } from './surface-timeline.ts'

export interface FoldViolation {
  /** Position of the offending event in the decoded event list. */
  readonly index: number
  /** Its seq as decoded (any JSON value). */
  readonly seq: unknown
  /** The harness's message (an Error's text, or the TypeError it would throw). */
  readonly message: string
  /** Whether the fold skipped the event (false: it re-synchronised on a seq gap and folded it). */
  readonly skipped: boolean
}

/** Reads an event by its position in the decoded list. */
export type EventByIndex = (index: number) => unknown

export class SurfaceFold {
  readonly timeline = new SurfaceTimeline()
  readonly violations: FoldViolation[] = []
  /** Event count folded (including skipped ones). */
  count = 0
  private expectedSeq = 0
  private readonly lookup: SurfaceEventLookup

  constructor(eventAt: EventByIndex) {
    this.lookup = (seq) => {
      const node = this.timeline.findNode(seq)
      return node === -1 ? undefined : eventAt(this.timeline.indexOf(node))
    }
  }

  /** The first violation: where the harness rejects the log. */
  get firstViolation(): FoldViolation | undefined {
    return this.violations[0]
  }

  /** Events the strict fold accepted (everything before the first violation). */
  get strictCount(): number {
    return this.violations[0]?.index ?? this.count
  }

  /** Fold the next event. Never throws. */
  push(event: unknown): SurfacePlan | undefined {
    const index = this.count++
    let plan: SurfacePlan | undefined
    try {
      plan = planSurfaceEvent(this.timeline, event, this.expectedSeq, this.lookup)
    } catch (error) {
      const seq = (event as { seq?: unknown } | null | undefined)?.seq
      const message = error instanceof Error ? error.message : String(error)
      if (!(isEventSeq(seq) && seq > this.expectedSeq && message === FOLD.notContiguous(seq, this.expectedSeq))) {
        this.violations.push({ index, seq, message, skipped: true })
        if (isEventSeq(seq) && seq >= this.expectedSeq) this.expectedSeq = seq + 1
        return undefined
      }
      // A forward gap: record it, then judge the event as if the gap were not there.
      this.violations.push({ index, seq, message, skipped: false })
      this.expectedSeq = seq
      try {
        plan = planSurfaceEvent(this.timeline, event, seq, this.lookup)
      } catch (again) {
        this.violations.push({ index, seq, message: again instanceof Error ? again.message : String(again), skipped: true })
        this.expectedSeq = seq + 1
        return undefined
      }
    }
    this.expectedSeq++
    if (plan?.kind === 'append') this.timeline.append(plan.seq, index)
    else if (plan?.kind === 'replace') {
      this.timeline.replace(plan.seq, index, plan.first, plan.last, plan.start, plan.end, plan.sources)
    }
    return plan
  }

  /**
   * Fold `size` consecutive `assistant/chunk` events from a packed row without
   * materialising them: they are never surface-eligible and carry no surface
   * markers, so the only check that can fail is seq contiguity, on the first.
   */
  pushChunkRun(seq0: number, size: number, memberAt: (k: number) => unknown): void {
    if (seq0 === this.expectedSeq) {
      this.count += size
      this.expectedSeq += size
      return
    }
    // Off the fast path: fold the first member properly, the rest follow it.
    this.push(memberAt(0))
    for (let k = 1; k < size; k++) this.push(memberAt(k))
  }
}
