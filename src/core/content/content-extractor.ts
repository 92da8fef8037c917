/**
 * A log's searchable documents, one per semantic event (`eventText`), with what a search filters and shows: seq,
 * type, time, turn and step, the tool (a call's name; a result's call's name), whether a result is an error, and the
 * event's standing on the model surface at the end of the log as our fold has it: `current`, `shadowed` (and by which
 * replacement: the one that swapped it out, so a summary later swallowed by another summary still names the first) or
 * `log-only` (it never entered the surface). That is the harness's classification (`buildSessionEventSearchDocuments`:
 * the fold's nodes current, every replacement's `shadowedSeqs` shadowed, the rest log-only), read from our fold.
 *
 * Resumable, for a log that grows: `next()` gives the documents of the events read since the last call, and the
 * earlier events a new replacement took off the surface since. Packed chunk rows are stream deltas and are skipped
 * without being expanded.
 */

import type { LensLog } from '../log/lens-log.ts'
import { isEventSeq, isRecord, type LogEvent } from '../model/log-event.ts'
import { SessionDigestCollector } from '../lineage/session-digest.ts'
import type { RecordTextView } from '../log/record-store.ts'
import { eventText } from './event-text.ts'

export type SurfaceClass = 'current' | 'shadowed' | 'log-only'

export const SURFACE_CLASSES: readonly SurfaceClass[] = ['current', 'shadowed', 'log-only']

export interface SurfaceStanding {
  readonly surface: SurfaceClass
  /** The seq of the replacement that shadowed the event, or null. */
  readonly shadowedBy: number | null
}

export interface ContentDocument extends SurfaceStanding {
  readonly seq: number
  /** Position in the decoded event list (= seq in a valid log). */
  readonly index: number
  readonly type: string
  /** The event's `time` (epoch ms), or null when it has none. */
  readonly time: number | null
  /** The turn and step brackets the event lies in (`turn/start`, `step/start`), else its own `data.turn`/`data.step`. */
  readonly turn: number | null
  readonly step: number | null
  /** A tool call's name, or for a tool result the name of the call it answers. */
  readonly tool: string | null
  /** A tool result that is an error (`isError` on a result block, or `data.error`). */
  readonly isError: boolean
  readonly text: string
}

export interface Reclassified extends SurfaceStanding {
  readonly seq: number
}

export class ContentExtractor {
  private cursor = 0
  private replacementsSeen = 0
  private readonly callNames = new Map<string, string>()
  private titleText: string | null = null
  private promptText: string | null = null

  constructor(private readonly log: LensLog) {}

  /** Events read so far (the next document comes from this index on). */
  get extractedThrough(): number {
    return this.cursor
  }

  /** The session's title as the sessions list has it (the latest `session/title`, else the first prompt's line). */
  get title(): string | null {
    return this.titleText ?? this.promptText
  }

  private observeTitle(event: LogEvent): void {
    if (event.type !== 'session/title' && !(event.type === 'user/message' && this.promptText === null)) return
    // The digest's own reading of the two records, so the list and the index name a session alike.
    const digest = new SessionDigestCollector()
    digest.observeRecord(event)
    const { title, prompt } = digest.digest()
    if (title !== null) this.titleText = title
    if (prompt !== null) this.promptText = prompt
  }

  /**
   * The documents of the events read since the last call, in log order, classified as of the log's end now; and the
   * documents of earlier calls that a replacement folded since took off the surface (each once, with the replacement
   * that shadowed it: shadowing is final), which an index made earlier must update.
   */
  next(): { documents: ContentDocument[]; reclassified: Reclassified[] } {
    const log = this.log
    const texts = log.recordTexts
    const before = this.cursor
    const out: ContentDocument[] = []
    // By record, not by event: a packed row (stream deltas, no text) is skipped whole, and a record whose type gives
    // no text and says nothing of the title is recognized from its first characters and never parsed again.
    let r = before === 0 ? 0 : texts.length === 0 ? 0 : Math.max(0, recordAt(texts, before))
    for (; r < texts.length; r++) {
      const index = texts.firstIndexOf(r)
      if (index < before || texts.isRow(r)) continue
      const peeked = peekType(texts.blockText(texts.blockOf(r)), texts.startOf(r))
      if (peeked !== null && !READ_TYPES.has(peeked) && !log.isUpgraded(index)) continue
      const event = log.event(index)
      if (!isRecord(event)) continue
      this.observeTitle(event)
      this.observeCall(event)
      const text = eventText(event)
      if (text === '' || !isEventSeq(event.seq) || typeof event.type !== 'string') continue
      out.push({
        seq: event.seq,
        index,
        type: event.type,
        time: typeof event.time === 'number' && Number.isFinite(event.time) ? event.time : null,
        ...this.bracketsOf(event, index),
        tool: this.toolOf(event),
        isError: isErrorResult(event),
        text,
        ...this.standingOf(index, event.seq),
      })
    }
    this.cursor = log.length
    return { documents: out, reclassified: this.shadowedSince(before) }
  }

  /** Events before index `before` shadowed by the replacements folded since the last call. */
  private shadowedSince(before: number): Reclassified[] {
    const timeline = this.log.fold.timeline
    const replacements = timeline.replacements
    const out: Reclassified[] = []
    for (let r = this.replacementsSeen; r < replacements.length; r++) {
      const replacement = replacements[r] as (typeof replacements)[number]
      for (const seq of replacement.shadowedSeqs) {
        const node = timeline.findNode(seq)
        if (node !== -1 && timeline.indexOf(node) < before) out.push({ seq, surface: 'shadowed', shadowedBy: replacement.seq })
      }
    }
    this.replacementsSeen = replacements.length
    return out
  }

  /** The surface standing of event `index` (whose seq is `seq`) at the end of the log read so far. */
  standingOf(index: number, seq: number): SurfaceStanding {
    const timeline = this.log.fold.timeline
    const node = timeline.findNode(seq)
    if (node === -1 || timeline.indexOf(node) !== index) return LOG_ONLY
    const by = timeline.shadowedBy(node)
    return by === -1 ? CURRENT : { surface: 'shadowed', shadowedBy: timeline.seqOf(by) }
  }

  private observeCall(event: LogEvent): void {
    if (event.type !== 'tool/call' && event.type !== 'assistant/message') return
    const data = event.data as Record<string, unknown>
    if (event.type === 'tool/call') {
      if (typeof data['callId'] === 'string' && typeof data['name'] === 'string') this.callNames.set(data['callId'], data['name'])
      return
    }
    const content = isRecord(data['message']) ? data['message']['content'] : undefined
    if (!Array.isArray(content)) return
    for (const block of content) {
      if (
        isRecord(block) &&
        block['type'] === 'tool-call' &&
        typeof block['id'] === 'string' &&
        typeof block['name'] === 'string'
      )
        this.callNames.set(block['id'], block['name'])
    }
  }

  private toolOf(event: LogEvent): string | null {
    const data = event.data as Record<string, unknown>
    if (event.type === 'tool/call') return typeof data['name'] === 'string' ? data['name'] : null
    if (event.type !== 'tool/result') return null
    const callId = resultCallId(data)
    return callId === null ? null : (this.callNames.get(callId) ?? null)
  }

  private bracketsOf(event: LogEvent, index: number): { turn: number | null; step: number | null } {
    const span = this.log.turns.turnAt(index)
    if (span !== undefined) {
      let step: number | null = null
      for (let k = span.steps.length - 1; k >= 0; k--) {
        const s = span.steps[k]
        if (s !== undefined && s.start <= index) {
          if (s.end === null || s.end >= index) step = s.step
          break
        }
      }
      return { turn: span.turn, step }
    }
    const data = event.data as Record<string, unknown>
    const number = (key: string): number | null => (Number.isSafeInteger(data[key]) ? (data[key] as number) : null)
    return { turn: number('turn'), step: number('step') }
  }
}

/** The event types read: those with searchable text, and those that name the session. */
const READ_TYPES = new Set([
  'user/message',
  'assistant/message',
  'tool/call',
  'tool/result',
  'todo/write',
  'turn/end',
  'session/title',
])

/** `{"type":"<type>"` at a record's start (the harness's key order), or null when the record does not start so. */
const PEEK = /\{"type":"([A-Za-z0-9/_-]{1,64})"/y

function peekType(block: string, start: number): string | null {
  PEEK.lastIndex = start
  return PEEK.exec(block)?.[1] ?? null
}

/** The record holding event `index`. */
function recordAt(texts: RecordTextView, index: number): number {
  let lo = 0
  let hi = texts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (texts.firstIndexOf(mid) <= index) lo = mid
    else hi = mid - 1
  }
  return lo
}

const CURRENT: SurfaceStanding = { surface: 'current', shadowedBy: null }
const LOG_ONLY: SurfaceStanding = { surface: 'log-only', shadowedBy: null }

/** The call a tool result answers: its source's `callId`, else its first result block's `toolCallId`. */
function resultCallId(data: Record<string, unknown>): string | null {
  const message = isRecord(data['message']) ? data['message'] : undefined
  const source = isRecord(message?.['source']) ? message['source'] : undefined
  if (typeof source?.['callId'] === 'string') return source['callId']
  const content = message?.['content']
  const first = Array.isArray(content) && isRecord(content[0]) ? content[0] : undefined
  return typeof first?.['toolCallId'] === 'string' ? first['toolCallId'] : null
}

function isErrorResult(event: LogEvent): boolean {
  if (event.type !== 'tool/result') return false
  const data = event.data as Record<string, unknown>
  if (data['error'] !== undefined && data['error'] !== null) return true
  const message = isRecord(data['message']) ? data['message'] : undefined
  const content = message?.['content']
  return Array.isArray(content) && content.some((block) => isRecord(block) && block['isError'] === true)
}
