/**
 * What a document says about its event beyond the text, read as the log streams by: the tool (a call's name; for a
 * result, the name of the call it answers: calls are remembered by id), whether a result is an error, the turn and
 * step brackets it lies in, and the session's title as the sessions list has it.
 */

import { SessionDigestCollector } from '../lineage/session-digest.ts'
import { isRecord, type LogEvent } from '../model/log-event.ts'
import type { TurnStructure } from '../projection/turn-structure.ts'

export class EventFacts {
  private readonly callNames = new Map<string, string>()
  private titleText: string | null = null
  private promptText: string | null = null

  /** The session's title as the sessions list has it (the latest `session/title`, else the first prompt's line). */
  get title(): string | null {
    return this.titleText ?? this.promptText
  }

  /** Takes in one event, in log order, before its document is made. */
  observe(event: LogEvent): void {
    this.observeTitle(event)
    this.observeCall(event)
  }

  toolOf(event: LogEvent): string | null {
    const data = event.data as Record<string, unknown>
    if (event.type === 'tool/call') return typeof data['name'] === 'string' ? data['name'] : null
    if (event.type !== 'tool/result') return null
    const callId = resultCallId(data)
    return callId === null ? null : (this.callNames.get(callId) ?? null)
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
}

/**
 * The turn and step event `index` lies in: its `turn/start` / `step/start` brackets as observed so far (asked as the
 * event is read: a bracket closing later ends at or after it, so the answer is the same at the log's end), else the
 * event's own `data.turn` / `data.step`.
 */
export function bracketsOf(turns: TurnStructure, event: LogEvent, index: number): { turn: number | null; step: number | null } {
  const span = turns.turnAt(index)
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

/** The call a tool result answers: its source's `callId`, else its first result block's `toolCallId`. */
function resultCallId(data: Record<string, unknown>): string | null {
  const message = isRecord(data['message']) ? data['message'] : undefined
  const source = isRecord(message?.['source']) ? message['source'] : undefined
  if (typeof source?.['callId'] === 'string') return source['callId']
  const content = message?.['content']
  const first = Array.isArray(content) && isRecord(content[0]) ? content[0] : undefined
  return typeof first?.['toolCallId'] === 'string' ? first['toolCallId'] : null
}

export function isErrorResult(event: LogEvent): boolean {
  if (event.type !== 'tool/result') return false
  const data = event.data as Record<string, unknown>
  if (data['error'] !== undefined && data['error'] !== null) return true
  const message = isRecord(data['message']) ? data['message'] : undefined
  const content = message?.['content']
  return Array.isArray(content) && content.some((block) => isRecord(block) && block['isError'] === true)
}
