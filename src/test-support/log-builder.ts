/**
 * Builds realistic, valid harness event logs from a list of abstract steps, the
 * way the harness's producers write them (agent loop, compaction-basic, the
 * tool-result pruner). It tracks the surface as it goes, so every compaction
 * replaces a contiguous run of *current* nodes (possibly earlier summaries) and
 * every prune targets a current tool result. Used by property tests (extended by
 * RequestLogBuilder, hence the protected state).
 */

export type TestEvent = Record<string, unknown>

export type BuildStep =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; chunks: number; reasoning: boolean }
  | { kind: 'empty-assistant' }
  | { kind: 'tools'; calls: number; resultSize: number }
  | { kind: 'log-only'; which: number }
  | { kind: 'compact'; from: number; length: number }
  | { kind: 'prune'; pick: number }
  | { kind: 'turn-boundary' }

const MODEL = { kind: 'model', provider: 'deepseek', model: 'deepseek-chat' }

export class LogBuilder {
  readonly events: TestEvent[] = []
  /** Current surface, seqs in model order, with a role tag to keep tool pairs balanced. */
  protected surface: { seq: number; tool: boolean }[] = []
  protected turn = 0
  protected step = 0
  private time = 1_700_000_000_000
  private ids = 0

  protected add(type: string, data: unknown, surface?: { op: unknown; sources?: number[] }): number {
    const seq = this.events.length
    this.time += 7
    const event: TestEvent = { type, seq, time: this.time, data }
    if (surface?.sources !== undefined) event['sourceEventSeqs'] = surface.sources
    if (surface !== undefined) event['surfaceOp'] = surface.op
    this.events.push(event)
    return seq
  }

  /** A `tool/result` event's data answering `callId` with `size` characters of text. */
  protected toolResultData(callId: string, size: number): Record<string, unknown> {
    return {
      turn: this.turn,
      step: this.step,
      message: {
        id: this.id('t'),
        role: 'user',
        content: [
          { type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: 'x'.repeat(size) }], isError: false },
        ],
        source: { kind: 'tool', callId },
      },
    }
  }

  protected id(prefix: string): string {
    return `${prefix}-${++this.ids}`
  }

  private ensureTurn(): void {
    if (this.turn === 0 || this.step === 0) {
      if (this.turn === 0) {
        this.turn = 1
        this.add('turn/start', { turn: this.turn })
      }
      this.step++
      this.add('step/start', { turn: this.turn, step: this.step })
    }
  }

  /** A summarizing compaction of the current surface nodes `from..to` (positions), as compaction-basic writes it. */
  protected compactRange(from: number, to: number): void {
    const range = this.surface.slice(from, to + 1)
    const compactionId = this.id('compaction')
    const startSeq = this.add('compaction/start', { compactionId, turn: this.turn === 0 ? null : this.turn })
    const shadowedSeqs = range.map((n) => n.seq)
    const summarySeq = this.add('compaction/summary', {
      compactionId,
      summary: [{ type: 'text', text: 'summary' }],
      shadowedRange: { start: shadowedSeqs[0], end: shadowedSeqs.at(-1) },
      shadowedSeqs,
      shadowedTokenCount: 100,
      provider: 'deepseek',
      model: 'deepseek-chat',
    })
    const seq = this.add(
      'user/message',
      {
        id: this.id('checkpoint'),
        role: 'user',
        content: [{ type: 'text', text: 'summary' }],
        source: { kind: 'plugin', plugin: 'compact', compactionId },
      },
      {
        op: { op: 'replace', start: shadowedSeqs[0], end: shadowedSeqs.at(-1) },
        sources: [startSeq, summarySeq, ...shadowedSeqs],
      },
    )
    this.add('compaction/end', { compactionId, turn: this.turn === 0 ? null : this.turn })
    this.surface.splice(from, to - from + 1, { seq, tool: false })
  }

  apply(step: BuildStep): void {
    switch (step.kind) {
      case 'user': {
        const seq = this.add(
          'user/message',
          { id: this.id('u'), role: 'user', content: [{ type: 'text', text: step.text }], source: { kind: 'user' } },
          { op: 'append' },
        )
        this.surface.push({ seq, tool: false })
        return
      }
      case 'assistant': {
        this.ensureTurn()
        const chunkSeqs: number[] = []
        for (let i = 0; i < step.chunks; i++) {
          chunkSeqs.push(
            this.add('assistant/chunk', {
              turn: this.turn,
              step: this.step,
              chunk: {
                type: step.reasoning && i % 2 === 0 ? 'reasoning-delta' : 'text-delta',
                index: 0,
                text: `${step.text}${i}`,
              },
            }),
          )
        }
        const seq = this.add(
          'assistant/message',
          {
            turn: this.turn,
            step: this.step,
            message: { id: this.id('a'), role: 'assistant', content: [{ type: 'text', text: step.text }], source: MODEL },
            usage: { inputTokens: 10, outputTokens: 5 },
          },
          { op: 'append', sources: chunkSeqs },
        )
        this.surface.push({ seq, tool: false })
        return
      }
      case 'empty-assistant': {
        this.ensureTurn()
        const seq = this.add(
          'assistant/message',
          { turn: this.turn, step: this.step, message: { id: this.id('a'), role: 'assistant', content: [], source: MODEL } },
          { op: 'append', sources: [] },
        )
        this.surface.push({ seq, tool: false })
        return
      }
      case 'tools': {
        this.ensureTurn()
        const calls = Array.from({ length: step.calls }, () => this.id('call'))
        const seq = this.add(
          'assistant/message',
          {
            turn: this.turn,
            step: this.step,
            message: {
              id: this.id('a'),
              role: 'assistant',
              content: calls.map((id) => ({ type: 'tool-call', id, name: 'bash', arguments: '{"command":"ls"}' })),
              source: MODEL,
            },
          },
          { op: 'append' },
        )
        this.surface.push({ seq, tool: true })
        for (const callId of calls) {
          const callSeq = this.add('tool/call', { turn: this.turn, step: this.step, callId, name: 'bash', arguments: '{}' })
          const result = this.add('tool/result', this.toolResultData(callId, step.resultSize), {
            op: 'append',
            sources: [callSeq],
          })
          this.surface.push({ seq: result, tool: true })
        }
        this.add('step/end', { turn: this.turn, step: this.step })
        this.step = 0
        return
      }
      case 'log-only': {
        const which = step.which % 4
        if (which === 0) this.add('todo/write', { todos: [{ content: 'do it', status: 'pending' }] })
        else if (which === 1) this.add('session/title', { title: 'T', messageSeqs: [], source: { kind: 'fallback' } })
        else if (which === 2) this.add('request/context', { provider: 'deepseek', model: 'deepseek-chat' })
        else this.add('llm/retry-started', { retryId: 'r', turn: this.turn, step: this.step, retry: 1 })
        return
      }
      case 'turn-boundary': {
        if (this.turn === 0) return
        if (this.step !== 0) this.add('step/end', { turn: this.turn, step: this.step })
        this.add('turn/end', { turn: this.turn, reason: { kind: 'completed' } })
        this.turn++
        this.step = 0
        this.add('turn/start', { turn: this.turn })
        return
      }
      case 'compact': {
        if (this.surface.length === 0) return
        const from = step.from % this.surface.length
        this.compactRange(from, Math.min(this.surface.length - 1, from + (step.length % 6)))
        return
      }
      case 'prune': {
        const results = this.surface.filter((n) => n.tool && this.events[n.seq]?.['type'] === 'tool/result')
        if (results.length === 0) return
        const target = results[step.pick % results.length] as { seq: number; tool: boolean }
        const original = this.events[target.seq] as { data: { message: { content: Record<string, unknown>[] } } }
        this.add('compaction/prune', {
          shadowedRange: { start: target.seq, end: target.seq },
          shadowedSeqs: [target.seq],
          shadowedTokenCount: 50,
        })
        const data = structuredClone(original.data)
        data.message.content = [{ ...data.message.content[0], content: [{ type: 'text', text: '[pruned]' }] }]
        const seq = this.add('tool/result', data, {
          op: { op: 'replace', start: target.seq, end: target.seq },
          sources: [target.seq],
        })
        this.surface.splice(this.surface.indexOf(target), 1, { seq, tool: true })
        return
      }
    }
  }
}

/** Pack runs of >= 3 text/reasoning deltas into storage rows, as the harness writes them. */
export function packRecords(events: readonly TestEvent[]): unknown[] {
  const out: unknown[] = []
  let run: TestEvent[] = []
  const flush = () => {
    if (run.length >= 3) {
      const first = run[0] as {
        seq: number
        time: number
        data: { turn: number; step: number; chunk: { type: string; index: number } }
      }
      out.push({
        type: first.data.chunk.type === 'text-delta' ? 'text-chunks' : 'reasoning-chunks',
        seq0: first.seq,
        time0: first.time,
        data: {
          turn: first.data.turn,
          step: first.data.step,
          index: first.data.chunk.index,
          dt: run.slice(1).map((e, i) => (e['time'] as number) - ((run[i] as TestEvent)['time'] as number)),
          texts: run.map((e) => (e['data'] as { chunk: { text: string } }).chunk.text),
        },
      })
    } else out.push(...run)
    run = []
  }
  for (const event of events) {
    const chunk = event['type'] === 'assistant/chunk' ? (event['data'] as { chunk: { type: string } }).chunk : undefined
    const kind = chunk?.type
    const last = run.at(-1)
    const lastKind = last === undefined ? undefined : (last['data'] as { chunk: { type: string } }).chunk.type
    if (kind !== 'text-delta' && kind !== 'reasoning-delta') {
      flush()
      out.push(event)
      continue
    }
    if (last !== undefined && lastKind !== kind) flush()
    run.push(event)
  }
  flush()
  return out
}

/** Serialize a log as JSONL bytes: header line then one record per line. */
export function toJsonlBytes(
  records: readonly unknown[],
  header: unknown = { type: 'session', version: 0, id: 's', createdAt: 0, delegationDepth: 0 },
): Uint8Array {
  return new TextEncoder().encode([header, ...records].map((r) => JSON.stringify(r)).join('\n') + '\n')
}
