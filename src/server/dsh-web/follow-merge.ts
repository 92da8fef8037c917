/**
 * How one session is followed through the dsh web host, as a pure state machine (no I/O, no clock): the algorithm of
 * `dsh-live-transport.md` §4.2, which is also what the harness's own client does (§1.6). The host has no resume and no
 * heartbeat, and its mux carries every attached session, so:
 *
 * - from the moment the mux is open, this session's frames are buffered;
 * - a history snapshot is taken (the tail page, then older pages with `beforeSeq` until it overlaps what was already
 *   emitted by one seq at least, or reaches seq 0), the buffer is drained dropping `seq <= tail`, and a frame past `tail + 1` is a gap: the tail
 *   page is pulled again;
 * - a `session/subscribed` baseline past the tail, seen after the snapshot, means frames were missed: pull again.
 *
 * Invariant: `emit` actions are contiguous, each starting at the previous tail + 1, so no seq is ever emitted twice or
 * skipped. Seqs are durable in the harness, so after a reconnect (even to a restarted host) the overlap between what was
 * emitted and the host's history is compared: a host killed mid-turn loses the events it had not written yet and
 * repairs its log with synthetic closers at those seqs, so the same seq can now hold another event. That is a
 * divergence: everything emitted is void, and the merge starts over from seq 0 (`diverged`, then a fresh snapshot).
 */

import type { HostEvent } from './host-wire.ts'

export type MergeAction =
  /** Contiguous events, the first at the previous tail + 1. */
  | { readonly kind: 'emit'; readonly events: readonly HostEvent[] }
  /** Ask `session.history` for a page (the tail page when `beforeSeq` is absent) and hand it to `page(sync, …)`. */
  | { readonly kind: 'pull'; readonly sync: number; readonly beforeSeq?: number }
  /** What was emitted is no longer what the host holds, from `seq` on: drop it all; a full snapshot follows. */
  | { readonly kind: 'diverged'; readonly seq: number; readonly why: string }
  /** The host answered something unusable (a page that does not join): ask again later, not at once. */
  | { readonly kind: 'retry'; readonly why: string }

export type MergePhase = 'detached' | 'syncing' | 'live'

/** Frames kept while a snapshot is taken; past this the buffer is dropped and the snapshot taken again. */
const DEFAULT_MAX_BUFFER = 50_000

/** Key-order-independent JSON, used only when two texts of the same seq differ byte for byte. */
function canonical(text: string): string {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort)
    if (typeof value !== 'object' || value === null) return value
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) out[key] = sort((value as Record<string, unknown>)[key])
    return out
  }
  try {
    return JSON.stringify(sort(JSON.parse(text)))
  } catch {
    return text
  }
}

function sameEvent(a: string, b: string): boolean {
  return a === b || canonical(a) === canonical(b)
}

export class FollowMerge {
  private phaseValue: MergePhase = 'detached'
  /** Emitted events' JSON texts, indexed by seq. */
  private readonly lines: string[] = []
  private buffer: HostEvent[] = []
  private overflowed = false
  private subscribedLastSeq = -1
  /** Pages of the snapshot being taken, oldest first, contiguous. */
  private collected: HostEvent[] = []
  /** Id of the snapshot being taken: an answer to an older pull is stale. */
  private sync = 0
  /** Times the host's history no longer matched what was emitted. */
  divergences = 0

  constructor(private readonly maxBuffer = DEFAULT_MAX_BUFFER) {}

  get phase(): MergePhase {
    return this.phaseValue
  }

  /** Last emitted seq, -1 before any. */
  get tail(): number {
    return this.lines.length - 1
  }

  /** The JSON text emitted at `seq`. */
  line(seq: number): string | undefined {
    return this.lines[seq]
  }

  /** Emitted texts for seqs `from..to` inclusive. */
  slice(from: number, to: number): string[] {
    return this.lines.slice(from, to + 1)
  }

  /** Both host sockets are open: buffer from now on and take a snapshot. */
  connected(): MergeAction[] {
    this.buffer = []
    this.overflowed = false
    this.subscribedLastSeq = -1
    return [this.startSnapshot()]
  }

  /** A socket closed: frames are meaningless until the next `connected`, and any pull in flight is stale. */
  disconnected(): void {
    this.phaseValue = 'detached'
    this.buffer = []
    this.collected = []
    this.sync++
  }

  /** Take the snapshot again after an unusable answer (the buffered frames are kept). */
  retry(): MergeAction[] {
    return this.phaseValue === 'syncing' ? [this.startSnapshot()] : []
  }

  /** A `session/event` frame of this session. */
  frame(event: HostEvent): MergeAction[] {
    switch (this.phaseValue) {
      case 'detached':
        return []
      case 'syncing':
        if (this.buffer.length >= this.maxBuffer) {
          this.buffer = []
          this.overflowed = true
        } else if (!this.overflowed) this.buffer.push(event)
        return []
      case 'live': {
        const tail = this.tail
        if (event.seq <= tail) return this.check(event)
        if (event.seq === tail + 1) {
          this.lines.push(event.line)
          return [{ kind: 'emit', events: [event] }]
        }
        // A gap: keep what came and ask the host for the tail again.
        this.buffer = [event]
        return [this.startSnapshot()]
      }
    }
  }

  /** A `session/subscribed {lastSeq}` baseline: the first live frame after it is `lastSeq + 1`. */
  subscribed(lastSeq: number): MergeAction[] {
    if (this.phaseValue === 'detached') return []
    this.subscribedLastSeq = Math.max(this.subscribedLastSeq, lastSeq)
    // Past the tail: frames were missed. Behind it: the host re-attached a shorter log; the snapshot will say how.
    if (this.phaseValue === 'live' && lastSeq !== this.tail) return [this.startSnapshot()]
    return []
  }

  /**
   * The answer to `pull {sync, beforeSeq}`: one history page (contiguous seqs), newest-first paging. Stale answers
   * (another snapshot started since, or the sockets closed) are ignored.
   */
  page(sync: number, events: readonly HostEvent[], hasMore: boolean, beforeSeq?: number): MergeAction[] {
    if (sync !== this.sync || this.phaseValue !== 'syncing') return []
    const newest = events[events.length - 1]
    if (beforeSeq !== undefined && (newest === undefined || newest.seq !== beforeSeq - 1)) {
      this.collected = []
      return [{ kind: 'retry', why: `a history page before seq ${beforeSeq} ended at ${newest?.seq ?? 'nothing'}` }]
    }
    this.collected = [...events, ...this.collected]
    const first = this.collected[0]
    const tail = this.tail
    if (first === undefined) {
      // The host holds no event at all.
      if (tail >= 0) return this.diverge(0, `the host's log is empty, yet seqs 0..${tail} were shown`)
      return this.install()
    }
    // The snapshot must reach back to seq 0, or overlap at least the last seq shown: a page that only joins at tail + 1
    // could hide that the host changed the events before it (a restart that repaired its log).
    if (first.seq > Math.max(0, tail)) {
      if (hasMore) return [{ kind: 'pull', sync: this.sync, beforeSeq: first.seq }]
      this.collected = []
      return [{ kind: 'retry', why: `the host's history starts at seq ${first.seq}, not 0` }]
    }
    const last = (this.collected[this.collected.length - 1] as HostEvent).seq
    if (last < tail) return this.diverge(last + 1, `the host's log ends at seq ${last}, yet seqs up to ${tail} were shown`)
    for (let seq = Math.max(first.seq, 0); seq <= tail; seq++) {
      const theirs = (this.collected[seq - first.seq] as HostEvent).line
      if (!sameEvent(theirs, this.lines[seq] as string)) return this.diverge(seq, `the host's event at seq ${seq} changed`)
    }
    return this.install()
  }

  private check(event: HostEvent): MergeAction[] {
    const mine = this.lines[event.seq] as string
    return sameEvent(mine, event.line) ? [] : this.diverge(event.seq, `the host sent another event at seq ${event.seq}`)
  }

  private diverge(seq: number, why: string): MergeAction[] {
    this.divergences++
    this.lines.length = 0
    this.collected = []
    return [{ kind: 'diverged', seq, why }, this.startSnapshot()]
  }

  private startSnapshot(): MergeAction {
    this.phaseValue = 'syncing'
    this.collected = []
    this.sync++
    return { kind: 'pull', sync: this.sync }
  }

  /** Emit the collected snapshot past the tail, then the buffered frames; pull again on a gap or a missed baseline. */
  private install(): MergeAction[] {
    const actions: MergeAction[] = []
    const fresh: HostEvent[] = []
    for (const event of this.collected) {
      if (event.seq === this.tail + 1) {
        this.lines.push(event.line)
        fresh.push(event)
      }
    }
    this.collected = []
    const buffered = this.buffer
    this.buffer = []
    let gapAt = -1
    for (let i = 0; i < buffered.length; i++) {
      const event = buffered[i] as HostEvent
      if (event.seq <= this.tail) {
        const mine = this.lines[event.seq] as string
        if (!sameEvent(mine, event.line)) {
          if (fresh.length > 0) actions.push({ kind: 'emit', events: fresh })
          return [...actions, ...this.diverge(event.seq, `the host sent another event at seq ${event.seq}`)]
        }
      } else if (event.seq === this.tail + 1) {
        this.lines.push(event.line)
        fresh.push(event)
      } else {
        gapAt = i
        break
      }
    }
    if (fresh.length > 0) actions.push({ kind: 'emit', events: fresh })
    if (gapAt >= 0 || this.overflowed || this.subscribedLastSeq > this.tail) {
      const rest = gapAt >= 0 ? buffered.slice(gapAt) : []
      this.overflowed = false
      actions.push(this.startSnapshot())
      this.buffer = rest
      return actions
    }
    this.phaseValue = 'live'
    return actions
  }
}
