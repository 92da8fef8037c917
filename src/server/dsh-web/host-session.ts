/**
 * One dsh web session followed by the server, shared by every page subscription to it (reference-counted by the
 * upstream): the §4.2 merge (follow-merge.ts) fed by the mux and by `session.history` pages, the events it emitted
 * kept in memory by seq, and the same listener interface a file tail offers, so a page subscription cannot tell the
 * two sources apart. A divergence (the host came back with another log) is a `reset` with a new epoch.
 */

import { createHash } from 'node:crypto'
import type { ContentChecksum } from '../../core/index.ts'
import type { ResetReason, UpstreamState } from '../../live/protocol.ts'
import type { Batch, Defect, FollowListener, FollowedLog, HostStatus, LogCursor } from '../tail/followed-log.ts'
import { FollowMerge, type MergeAction } from './follow-merge.ts'
import type { HostRpc } from './host-rpc.ts'
import { parseHistoryPage, type HostEvent } from './host-wire.ts'
import { packLines } from './pack-lines.ts'

export interface HostSessionDeps {
  readonly rpc: HostRpc
  /** `maxMessages` per history page (pages are counted in messages, not events). */
  readonly pageMessages: number
  /** The upstream's base URL: part of the epoch, so another host's session of the same id is another epoch. */
  readonly base: string
  /** The session header: the file's own when the server also serves it, else one built from the host's list. */
  headerLine(sessionId: string, firstEventTime: number | undefined): Promise<string>
  upstream(): UpstreamState
  running(sessionId: string): boolean
  title(sessionId: string): string | null
  note(what: string): void
  /** Delay before asking the host again after an unusable answer. */
  retryMs(attempt: number): number
}

const NO_DEFECTS: readonly Defect[] = []

export class HostSession implements FollowedLog {
  readonly encoding = 'dsh-web' as const
  epoch: string | null = null
  headerLine: string | null = null
  missing = false
  readonly corrupt = undefined
  readonly defects = NO_DEFECTS
  readonly halt = undefined
  sizeBytes = 0
  mtimeMs = 0
  /** Bumped on every divergence: cursors of the old log stop. */
  generation = 0
  readonly merge = new FollowMerge()
  /** Pages asked for, for tests and diagnostics. */
  pulls = 0
  /** The last history pages: when asked, answered and parsed (epoch ms) and their size (diagnostics, the bench). */
  readonly pullLog: Array<{ asked: number; answered: number; parsed: number; events: number }> = []
  private readonly listeners = new Set<FollowListener>()
  private wanted: Extract<MergeAction, { kind: 'pull' }> | null = null
  private pulling = false
  private closed = false
  private retryTimer: NodeJS.Timeout | undefined
  private retries = 0
  /** The generation whose header is being made (-1: none). */
  private headerFor = -1
  private lastStatus = ''

  constructor(
    readonly sessionId: string,
    private readonly deps: HostSessionDeps,
  ) {}

  get headSeq(): number {
    return this.headerLine === null ? -1 : this.merge.tail
  }

  get turnOpen(): boolean {
    return this.deps.running(this.sessionId)
  }

  get host(): HostStatus {
    return { running: this.turnOpen, upstream: this.deps.upstream(), title: this.deps.title(this.sessionId) }
  }

  addListener(listener: FollowListener): void {
    this.listeners.add(listener)
  }

  removeListener(listener: FollowListener): void {
    this.listeners.delete(listener)
  }

  openCursor(fromSeq: number, _checksum?: ContentChecksum): LogCursor {
    return new MemoryCursor(this, fromSeq)
  }

  /** Both host sockets are open (again): take a snapshot. */
  connected(): void {
    if (this.closed) return
    this.run(this.merge.connected())
  }

  disconnected(): void {
    this.merge.disconnected()
    this.wanted = null
    clearTimeout(this.retryTimer)
    this.statusChanged()
  }

  event(event: HostEvent): void {
    this.run(this.merge.frame(event))
  }

  subscribed(lastSeq: number): void {
    this.run(this.merge.subscribed(lastSeq))
  }

  /** Running flag, title or the upstream's state changed: tell subscriptions that care. */
  statusChanged(): void {
    const key = JSON.stringify([this.missing, this.host])
    if (key === this.lastStatus) return
    this.lastStatus = key
    for (const l of [...this.listeners]) l.status()
  }

  close(): void {
    this.closed = true
    this.merge.disconnected()
    clearTimeout(this.retryTimer)
    this.listeners.clear()
  }

  private run(actions: readonly MergeAction[]): void {
    let grew = false
    for (const action of actions) {
      switch (action.kind) {
        case 'emit':
          for (const e of action.events) this.sizeBytes += e.line.length + 1
          this.mtimeMs = Date.now()
          this.retries = 0
          if (this.headerLine === null) this.settleHeader(action.events[0])
          else grew = true
          break
        case 'diverged':
          this.deps.note(`dsh-web ${this.sessionId}: ${action.why}; showing the host's log from seq 0 again`)
          this.generation++
          this.epoch = null
          this.headerLine = null
          this.sizeBytes = 0
          for (const l of [...this.listeners]) l.reset('upstream-restart' satisfies ResetReason)
          break
        case 'pull':
          this.want(action)
          break
        case 'retry': {
          this.deps.note(`dsh-web ${this.sessionId}: ${action.why}`)
          this.retryLater()
          break
        }
      }
    }
    if (grew) for (const l of [...this.listeners]) l.grew()
  }

  /** The header (and so the epoch) once the first events are in: the synthesized header needs seq 0's time. */
  private settleHeader(first: HostEvent | undefined): void {
    const generation = this.generation
    if (this.headerFor === generation) return
    this.headerFor = generation
    const time = first === undefined || first.seq !== 0 ? undefined : timeOf(first.line)
    void this.deps.headerLine(this.sessionId, time).then((line) => {
      if (this.closed || generation !== this.generation) return
      this.headerLine = line
      const digest = createHash('sha256').update(`${this.deps.base}\n${this.sessionId}`).digest('base64url').slice(0, 16)
      this.epoch = `d:${digest}${this.generation === 0 ? '' : `.${this.generation}`}`
      for (const l of [...this.listeners]) l.grew()
    })
  }

  private retryLater(): void {
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => {
      if (!this.closed && this.deps.upstream() === 'connected') this.run(this.merge.retry())
    }, this.deps.retryMs(this.retries++))
    this.retryTimer.unref()
  }

  private want(pull: Extract<MergeAction, { kind: 'pull' }>): void {
    this.wanted = pull
    if (!this.pulling) void this.pullLoop()
  }

  /** One history call at a time; the newest wish wins (an older snapshot's answer would be stale anyway). */
  private async pullLoop(): Promise<void> {
    this.pulling = true
    try {
      while (this.wanted !== null && !this.closed) {
        const want = this.wanted
        this.wanted = null
        this.pulls++
        const asked = Date.now()
        const result = await this.deps.rpc.call('session.history', {
          sessionId: this.sessionId,
          maxMessages: this.deps.pageMessages,
          ...(want.beforeSeq === undefined ? {} : { beforeSeq: want.beforeSeq }),
        })
        if (this.closed) return
        if (!result.ok) {
          const missing = result.code === 'session-not-found'
          if (missing !== this.missing) {
            this.missing = missing
            this.statusChanged()
          }
          // Not found: the host will say when it has the session (session-added, subscribed); anything else is retried.
          if (!missing) {
            this.deps.note(`dsh-web ${this.sessionId}: ${result.why}`)
            if (this.deps.upstream() === 'connected') this.retryLater()
          }
          continue
        }
        if (this.missing) {
          this.missing = false
          this.statusChanged()
        }
        const answered = Date.now()
        const page = parseHistoryPage(result.value)
        if (page.ok) {
          this.pullLog.push({ asked, answered, parsed: Date.now(), events: page.value.events.length })
          if (this.pullLog.length > 20) this.pullLog.shift()
        }
        if (!page.ok) {
          this.deps.note(`dsh-web ${this.sessionId}: ${page.why}`)
          this.retryLater()
          continue
        }
        this.run(this.merge.page(want.sync, page.value.events, page.value.hasMore, want.beforeSeq))
      }
    } finally {
      this.pulling = false
    }
  }
}

function timeOf(line: string): number | undefined {
  try {
    const time = (JSON.parse(line) as { time?: unknown }).time
    return typeof time === 'number' && Number.isFinite(time) ? time : undefined
  } catch {
    return undefined
  }
}

/**
 * A subscription's read position: batches straight from the session's emitted events, runs of deltas packed into rows
 * (pack-lines.ts: the same events in fewer lines for a page catching up; a live append of one event stays as it is).
 */
class MemoryCursor implements LogCursor {
  private readonly generation: number

  constructor(
    private readonly session: HostSession,
    public nextSeq: number,
  ) {
    this.generation = session.generation
  }

  next(maxEvents: number, maxBytes: number): Promise<Batch | null> {
    const s = this.session
    if (s.generation !== this.generation || this.nextSeq > s.headSeq || maxEvents <= 0) return Promise.resolve(null)
    const fromSeq = this.nextSeq
    const events: string[] = []
    let size = 0
    for (let seq = fromSeq; seq <= s.headSeq && events.length < maxEvents; seq++) {
      const line = s.merge.line(seq) as string
      if (events.length > 0 && size + line.length > maxBytes) break
      events.push(line)
      size += line.length + 1
    }
    this.nextSeq = fromSeq + events.length
    const lines = packLines(events)
    return Promise.resolve({ fromSeq, toSeq: this.nextSeq - 1, lines, bytes: lines.reduce((n, l) => n + l.length + 1, 0) })
  }
}
