/**
 * What a sessions list shows about one log besides its header: its title (the latest `session/title`), the first line
 * of the user's first prompt (the fallback when there is no title), how many events it holds and whether its last turn
 * is still open. Read line by line from the plaintext records in log order, so a log that grows is read on from where
 * the last read stopped (the collector keeps its state between pushes) instead of from the start.
 *
 * Cheap on purpose: most records are recognized from their first characters (the harness writes `type` then `seq`
 * first) and never parsed; only the few types the digest reads (titles, the first user prompt, turn boundaries) and
 * packed rows (whose size is in their body) go through `JSON.parse`. A record the peek does not recognize is parsed.
 * Malformed records are counted as skipped, never thrown on.
 */

import { isPackedRowTag } from '../decode/packed-rows.ts'
import { isRecord } from '../model/log-event.ts'

export interface SessionDigest {
  /** The latest `session/title` event's `data.title` (trimmed), or null when the log has none. */
  readonly title: string | null
  /** The first line of the first `user/message` the user wrote (source kind `user`), or null. */
  readonly prompt: string | null
  /** Events in the log (a packed row counts as its members). */
  readonly eventCount: number
  /** The highest seq read, -1 before any event. */
  readonly lastSeq: number
  /** A `turn/start` without its `turn/end` so far. */
  readonly turnOpen: boolean
  /** Body lines that were not a readable record (bad JSON, no seq). */
  readonly skippedLines: number
}

/** `{"type":"<type>","seq":<n>` or `{"type":"<type>","seq0":<n>` at a record's start: the harness's key order. */
const PEEK = /^\{"type":"([A-Za-z0-9/_-]{1,64})","seq(0?)":(\d{1,15})[,}]/

/**
 * `,"dt":[…]` in a packed row's line: structural wherever it appears (a `"` inside a string is always escaped), and a
 * row's `data` is flat, so the first one is `data.dt`. Null when it is not there or holds anything but integers.
 */
const DT = /,"dt":\[(-?\d{1,16}(?:,-?\d{1,16})*)?\]/

function membersOf(text: string): number | null {
  const match = DT.exec(text)
  if (match === null) return null
  const gaps = match[1]
  return gaps === undefined ? 1 : gaps.split(',').length + 1
}

/** Longest prompt line kept (a list shows one line; the rest is never displayed). */
const PROMPT_MAX = 200

function firstLine(text: string): string | null {
  const line = text.trimStart().split('\n', 1)[0]?.trim() ?? ''
  if (line === '') return null
  return line.length > PROMPT_MAX ? line.slice(0, PROMPT_MAX) : line
}

/** The user's own text in a `user/message` (`data.content` or, in legacy logs, `data.message.content`). */
function userPromptText(data: Record<string, unknown>): string | null {
  const message = isRecord(data['message']) ? data['message'] : data
  const source = isRecord(message['source']) ? message['source'] : isRecord(data['source']) ? data['source'] : null
  if (source === null || source['kind'] !== 'user') return null
  const content = message['content']
  if (typeof content === 'string') return firstLine(content)
  if (!Array.isArray(content)) return null
  for (const part of content) {
    if (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string') {
      const line = firstLine(part['text'])
      if (line !== null) return line
    }
  }
  return null
}

export class SessionDigestCollector {
  private title: string | null = null
  private prompt: string | null = null
  private eventCount = 0
  private lastSeq = -1
  private turnOpen = false
  private skipped = 0

  /** One body record's text (a JSONL line without its newline; the header line is not a body record). */
  observeLine(text: string): void {
    const peek = PEEK.exec(text.length > 200 ? text.slice(0, 200) : text)
    if (peek !== null) {
      const type = peek[1] as string
      const packed = peek[2] === '0'
      if (!packed && !this.interesting(type)) {
        this.count(Number(peek[3]), 1)
        return
      }
      // A packed row in the harness's key order counts its members from `dt` (one gap between each two members),
      // the only array of numbers in it: parsing every row's texts would cost most of a big log's scan.
      const members = packed && isPackedRowTag(type) ? membersOf(text) : null
      if (members !== null) {
        this.count(Number(peek[3]) + members - 1, members)
        return
      }
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      this.skipped++
      return
    }
    this.observeRecord(value)
  }

  /** One parsed body record (an event or a packed row). */
  observeRecord(value: unknown): void {
    if (!isRecord(value)) {
      this.skipped++
      return
    }
    const type = value['type']
    if (isPackedRowTag(type)) {
      const seq0 = value['seq0']
      const data = value['data']
      const members = isRecord(data) ? (type === 'tool-call-chunks' ? data['args'] : data['texts']) : undefined
      if (typeof seq0 !== 'number' || !Number.isSafeInteger(seq0) || !Array.isArray(members)) {
        this.skipped++
        return
      }
      this.count(seq0 + Math.max(members.length, 1) - 1, members.length)
      return
    }
    const seq = value['seq']
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
      this.skipped++
      return
    }
    this.count(seq, 1)
    const data = value['data']
    if (!isRecord(data)) return
    switch (type) {
      case 'session/title': {
        const title = typeof data['title'] === 'string' ? data['title'].trim() : ''
        if (title !== '') this.title = title
        return
      }
      case 'user/message':
        this.prompt ??= userPromptText(data)
        return
      case 'turn/start':
        this.turnOpen = true
        return
      case 'turn/end':
        this.turnOpen = false
        return
    }
  }

  digest(): SessionDigest {
    return {
      title: this.title,
      prompt: this.prompt,
      eventCount: this.eventCount,
      lastSeq: this.lastSeq,
      turnOpen: this.turnOpen,
      skippedLines: this.skipped,
    }
  }

  private interesting(type: string): boolean {
    return (
      type === 'session/title' ||
      type === 'turn/start' ||
      type === 'turn/end' ||
      (type === 'user/message' && this.prompt === null) ||
      isPackedRowTag(type)
    )
  }

  private count(lastSeq: number, events: number): void {
    this.eventCount += events
    if (lastSeq > this.lastSeq) this.lastSeq = lastSeq
  }
}

/** The digest of a whole list of body lines (tests, one-off reads). */
export function digestLines(lines: Iterable<string>): SessionDigest {
  const collector = new SessionDigestCollector()
  for (const line of lines) collector.observeLine(line)
  return collector.digest()
}
