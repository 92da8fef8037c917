/**
 * What the harness would append when it next opens a log that ends inside a turn
 * (`interruptedTurnClosers`, reference 3.4): a `tool/result` per call still pending
 * (TOOL_OUTCOME_UNKNOWN when its `tool/call` was logged, TOOL_NOT_STARTED when
 * not), then `step/end` if a step is open, then `turn/end {interrupted}`. Tracked
 * incrementally; a viewer shows these as "would be synthesized", like `inspect()`.
 */

import { isRecord, type LogEvent } from '../model/log-event.ts'

export interface WouldSynthesize {
  readonly type: 'tool/result' | 'step/end' | 'turn/end'
  readonly seq: number
  readonly callId?: string
  readonly code?: 'TOOL_OUTCOME_UNKNOWN' | 'TOOL_NOT_STARTED'
}

export class RepairTracker {
  private openTurn: unknown = null
  private openStep: unknown = null
  private readonly pending = new Map<unknown, { callSeq?: unknown }>()

  observe(event: LogEvent): void {
    const data = isRecord(event.data) ? event.data : undefined
    switch (event.type) {
      case 'turn/start':
        this.openTurn = data?.['turn']
        this.openStep = null
        this.pending.clear()
        return
      case 'turn/end':
        this.openTurn = null
        this.openStep = null
        this.pending.clear()
        return
      case 'step/start':
        this.openStep = data?.['step']
        return
      case 'step/end':
        this.pending.clear()
        this.openStep = null
        return
      case 'assistant/message': {
        const message = isRecord(data?.['message']) ? data['message'] : undefined
        const content = Array.isArray(message?.['content']) ? (message['content'] as unknown[]) : []
        for (const block of content) if (isRecord(block) && block['type'] === 'tool-call') this.pending.set(block['id'], {})
        return
      }
      case 'tool/call': {
        const entry = this.pending.get(data?.['callId'])
        if (entry !== undefined) entry.callSeq = event.seq
        return
      }
      case 'tool/result': {
        const message = isRecord(data?.['message']) ? data['message'] : undefined
        const source = isRecord(message?.['source']) ? message['source'] : undefined
        this.pending.delete(source?.['callId'])
        return
      }
      default:
        return
    }
  }

  /** The closers for a log whose last event has seq `lastSeq`; empty when no turn is open. */
  closers(lastSeq: number): WouldSynthesize[] {
    if (this.openTurn === null) return []
    let seq = lastSeq + 1
    const out: WouldSynthesize[] = []
    for (const [callId, { callSeq }] of this.pending) {
      out.push({
        type: 'tool/result',
        seq: seq++,
        callId: String(callId),
        code: callSeq !== undefined ? 'TOOL_OUTCOME_UNKNOWN' : 'TOOL_NOT_STARTED',
      })
    }
    if (this.openStep !== null) out.push({ type: 'step/end', seq: seq++ })
    out.push({ type: 'turn/end', seq: seq++ })
    return out
  }

  get turnOpen(): boolean {
    return this.openTurn !== null
  }
}
