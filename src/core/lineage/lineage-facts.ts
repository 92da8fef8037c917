/**
 * The cheap facts a session log holds about the sessions it started or was started by (format reference 5): read
 * event by event while the log is decoded, kept as a few small lists. Chunk events carry none of them, so packed
 * rows are never expanded for this.
 */

import { isRecord, type LogEvent } from '../model/log-event.ts'

/** A tool call in an `assistant/message`, with its `description` argument (the label a one-shot child carries). */
export interface ToolCallFact {
  readonly seq: number
  readonly time: number | null
  readonly callId: string
  readonly name: string
  readonly description: string | null
}

export interface LineageFacts {
  /** `tool-workflow/agent-start`: the event that started child `childId`. */
  readonly agentStarts: ReadonlyArray<{ readonly seq: number; readonly childId: string; readonly label: string | null }>
  /** A continuable start's `tool/result` whose text is `started subagent <id>`. */
  readonly startedSubagents: ReadonlyArray<{ readonly seq: number; readonly callId: string | null; readonly childId: string }>
  /** The parent's `user/message` from a child: source `subagent-settled` / `subagent-report` with `senderSessionId`. */
  readonly reports: ReadonlyArray<{ readonly seq: number; readonly kind: string; readonly senderSessionId: string }>
  /** In a child: `user/message` source `coordinator` with the parent's `senderSessionId`. */
  readonly coordinatorMessages: ReadonlyArray<{ readonly seq: number; readonly senderSessionId: string }>
  /** The child's own `subagent/descriptor` (the first one). */
  readonly descriptor: {
    readonly seq: number
    readonly label: string | null
    readonly mode: string | null
    readonly provider: string | null
  } | null
  readonly toolCalls: readonly ToolCallFact[]
  /** Seqs of every `session/end-seed` (a viewer must look for the last one). */
  readonly endSeeds: readonly number[]
}

const STARTED = /^started subagent (\S+)/

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function description(part: Record<string, unknown>): string | null {
  const input = part['input'] ?? part['args']
  if (isRecord(input)) return str(input['description'])
  const args = part['arguments']
  if (typeof args !== 'string') return null
  try {
    const parsed: unknown = JSON.parse(args)
    return isRecord(parsed) ? str(parsed['description']) : null
  } catch {
    return null
  }
}

/** Collects `LineageFacts` from events fed in log order; malformed events are skipped, never thrown on. */
export class LineageFactCollector {
  private readonly agentStarts: Array<LineageFacts['agentStarts'][number]> = []
  private readonly startedSubagents: Array<LineageFacts['startedSubagents'][number]> = []
  private readonly reports: Array<LineageFacts['reports'][number]> = []
  private readonly coordinatorMessages: Array<LineageFacts['coordinatorMessages'][number]> = []
  private readonly toolCalls: ToolCallFact[] = []
  private readonly endSeeds: number[] = []
  private descriptor: LineageFacts['descriptor'] = null

  observe(event: LogEvent | null | undefined): void {
    if (!isRecord(event) || typeof event.seq !== 'number' || !isRecord(event.data)) return
    const { seq, data } = event
    switch (event.type) {
      case 'tool-workflow/agent-start': {
        const childId = str(data['childId'])
        if (childId !== null) this.agentStarts.push({ seq, childId, label: str(data['label']) })
        return
      }
      case 'subagent/descriptor':
        this.descriptor ??= { seq, label: str(data['label']), mode: str(data['mode']), provider: str(data['provider']) }
        return
      case 'session/end-seed':
        this.endSeeds.push(seq)
        return
      case 'user/message': {
        const source = isRecord(data['source']) ? data['source'] : isRecord(data['message']) ? data['message']['source'] : null
        if (!isRecord(source)) return
        const sender = str(source['senderSessionId'])
        if (sender === null) return
        const kind = str(source['kind']) ?? ''
        if (kind === 'coordinator') this.coordinatorMessages.push({ seq, senderSessionId: sender })
        else if (kind.startsWith('subagent-')) this.reports.push({ seq, kind, senderSessionId: sender })
        return
      }
      case 'tool/result': {
        const message = data['message']
        const first = isRecord(message) && Array.isArray(message['content']) ? message['content'][0] : undefined
        if (!isRecord(first) || !Array.isArray(first['content'])) return
        for (const part of first['content']) {
          const match = isRecord(part) && typeof part['text'] === 'string' ? STARTED.exec(part['text']) : null
          if (match !== null) {
            this.startedSubagents.push({ seq, callId: str(first['toolCallId']), childId: match[1] as string })
            return
          }
        }
        return
      }
      case 'assistant/message': {
        const message = data['message']
        const content = isRecord(message) ? message['content'] : data['content']
        if (!Array.isArray(content)) return
        const time = typeof event.time === 'number' ? event.time : null
        for (const part of content) {
          if (!isRecord(part) || part['type'] !== 'tool-call') continue
          const callId = str(part['id']) ?? str(part['toolCallId'])
          if (callId === null) continue
          this.toolCalls.push({
            seq,
            time,
            callId,
            name: str(part['name']) ?? str(part['toolName']) ?? '',
            description: description(part),
          })
        }
        return
      }
    }
  }

  facts(): LineageFacts {
    return {
      agentStarts: [...this.agentStarts],
      startedSubagents: [...this.startedSubagents],
      reports: [...this.reports],
      coordinatorMessages: [...this.coordinatorMessages],
      descriptor: this.descriptor,
      toolCalls: [...this.toolCalls],
      endSeeds: [...this.endSeeds],
    }
  }
}

/** The facts of a whole event list (tests, the CLI). */
export function collectLineageFacts(events: Iterable<LogEvent | null | undefined>): LineageFacts {
  const collector = new LineageFactCollector()
  for (const event of events) collector.observe(event)
  return collector.facts()
}
