/**
 * Flattens a harness message (the `content` blocks the model receives) and log-only events into short
 * plain-text previews for the panes. Runs in the worker: the main thread never sees whole events for rows.
 */

import { isRecord, type LogEvent } from '../core/index.ts'
import { PREVIEW_MAX_CHARS, type ToolCallPreview } from '../protocol/event-views.ts'
import { safeStringify } from './safe-json.ts'

export interface MessagePreview {
  text: string
  reasoning: string
  toolCalls: ToolCallPreview[]
  truncated: boolean
}

/** Appends with a hard cap so a multi-megabyte tool result costs a few KB to preview. */
class Capped {
  value = ''
  truncated = false
  add(part: string): void {
    if (part === '') return
    const room = PREVIEW_MAX_CHARS - this.value.length
    if (room <= 0) {
      this.truncated = true
      return
    }
    const sep = this.value === '' ? '' : '\n'
    const piece = sep + part
    if (piece.length > room) {
      this.value += piece.slice(0, room)
      this.truncated = true
    } else this.value += piece
  }
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

function nestedText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return content === undefined ? '' : cap(safeStringify(content) ?? '', PREVIEW_MAX_CHARS)
  return content
    .map((block) => {
      if (!isRecord(block)) return ''
      if (typeof block['text'] === 'string') return block['text']
      return `[${String(block['type'])}]`
    })
    .join('\n')
}

/** Preview of a message's content blocks: text, reasoning (shown collapsed), tool calls, tool results. */
export function previewMessage(message: unknown): MessagePreview {
  const text = new Capped()
  const reasoning = new Capped()
  const toolCalls: ToolCallPreview[] = []
  const content = isRecord(message) ? message['content'] : undefined
  if (typeof content === 'string') text.add(content)
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isRecord(block)) continue
      const type = block['type']
      if (type === 'text' && typeof block['text'] === 'string') text.add(block['text'])
      else if (type === 'reasoning' && typeof block['text'] === 'string') reasoning.add(block['text'])
      else if (type === 'tool-call') {
        if (toolCalls.length < 32)
          toolCalls.push({ name: String(block['name']), args: cap(String(block['arguments'] ?? ''), 1024) })
      } else if (type === 'tool-result') {
        text.add((block['isError'] === true ? '[error] ' : '') + nestedText(block['content']))
      } else text.add(`[${String(type)}]`)
    }
  }
  return { text: text.value, reasoning: reasoning.value, toolCalls, truncated: text.truncated || reasoning.truncated }
}

/** One line describing a log-only event (turn boundaries, headers, titles, todos, compaction markers). */
export function describeLogOnly(event: LogEvent): string {
  const data = isRecord(event.data) ? event.data : {}
  switch (event.type) {
    case 'turn/start':
      return `turn ${String(data['turn'])} starts`
    case 'turn/end':
      return `turn ${String(data['turn'])} ends: ${isRecord(data['reason']) ? String(data['reason']['kind']) : '?'}`
    case 'step/start':
    case 'step/end':
      return `turn ${String(data['turn'])} · step ${String(data['step'])}`
    case 'request/header': {
      const header = isRecord(data['header']) ? data['header'] : {}
      const config = isRecord(header['config']) ? header['config'] : {}
      return `${String(data['reason'])}: ${String(config['provider'])} / ${String(config['model'])}`
    }
    case 'session/title':
      return String(data['title'])
    case 'todo/write':
      return Array.isArray(data['todos']) ? `${data['todos'].length} todos` : 'todos'
    case 'tool/call':
      return `${String(data['name'])}(${cap(String(data['arguments'] ?? ''), 200)})`
    case 'compaction/start':
    case 'compaction/summary':
    case 'compaction/end':
      return `compaction ${String(data['compactionId'])}${typeof data['error'] === 'string' ? ` failed: ${data['error']}` : ''}`
    case 'compaction/prune':
      return `prune ${safeStringify(data['shadowedSeqs'] ?? [])}`
    default:
      return cap(safeStringify(event.data) ?? '', 300)
  }
}

/** Text carried by one `assistant/chunk` delta, for chunk-run previews. */
export function chunkText(event: LogEvent | undefined): string {
  const data = isRecord(event?.data) ? event.data : undefined
  const chunk = isRecord(data?.['chunk']) ? data['chunk'] : undefined
  if (chunk === undefined) return ''
  if (typeof chunk['text'] === 'string') return chunk['text']
  if (typeof chunk['argumentsDelta'] === 'string') return chunk['argumentsDelta']
  return ''
}
