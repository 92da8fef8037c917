/**
 * The searchable text of one event, exactly as the harness's session search extracts it (`extractSessionEventText`
 * of `@deepseek-ai/dsh-session-query`, read at the reference commit): message text (never reasoning), a tool call's
 * name and arguments, a result's content and its error's name and code, todo items with their status, a failed or
 * cut-short turn's ending. Structural events, stream chunks and request envelopes give no text; so do event types and
 * content blocks the harness does not know. Parts are trimmed, empty parts dropped, the rest joined by newlines.
 *
 * The harness reads events it has validated; a log here is untrusted, so every field is checked and a malformed one
 * contributes nothing (never a throw).
 */

import { isRecord, type LogEvent } from '../model/log-event.ts'

export function eventText(event: LogEvent): string {
  const data = isRecord(event.data) ? event.data : undefined
  if (data === undefined) return ''
  switch (event.type) {
    case 'user/message':
      return contentText(data['content'])
    case 'assistant/message':
      return contentText(isRecord(data['message']) ? data['message']['content'] : undefined)
    case 'tool/call':
      return joinText([data['name'], data['arguments']])
    case 'tool/result': {
      const error = isRecord(data['error']) ? data['error'] : undefined
      return joinText([
        contentText(isRecord(data['message']) ? data['message']['content'] : undefined),
        error?.['name'],
        error?.['code'],
      ])
    }
    case 'todo/write': {
      const todos = Array.isArray(data['todos']) ? data['todos'] : []
      return joinText(todos.flatMap((todo) => (isRecord(todo) ? [todo['status'], todo['content']] : [])))
    }
    case 'turn/end':
      return turnEndText(data['reason'])
    default:
      return ''
  }
}

function turnEndText(reason: unknown): string {
  if (!isRecord(reason)) return ''
  switch (reason['kind']) {
    case 'error':
      return joinText(['error', isRecord(reason['error']) ? reason['error']['message'] : undefined])
    case 'aborted':
      return 'aborted'
    case 'max-tokens':
    case 'interrupted':
      return reason['kind']
    default:
      return ''
  }
}

function contentText(content: unknown): string {
  return Array.isArray(content) ? joinText(content.flatMap(blockText)) : ''
}

function blockText(block: unknown): unknown[] {
  if (!isRecord(block)) return []
  switch (block['type']) {
    case 'text':
      return [block['text']]
    case 'tool-call':
      return [block['name'], block['arguments']]
    case 'tool-result':
      return Array.isArray(block['content']) ? block['content'].flatMap(blockText) : []
    // Reasoning is not searchable in the harness, and blocks it does not know are not either.
    default:
      return []
  }
}

/** The harness's `joinText`: each part trimmed, empty parts dropped, newline-joined. Non-strings count as empty. */
function joinText(parts: readonly unknown[]): string {
  let out = ''
  for (const part of parts) {
    if (typeof part !== 'string') continue
    const trimmed = part.trim()
    if (trimmed === '') continue
    out = out === '' ? trimmed : `${out}\n${trimmed}`
  }
  return out
}
