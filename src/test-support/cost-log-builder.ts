/**
 * Session logs for the cost tests, written as the harness writes them (envelope keys in its order: type, seq, time,
 * data, sourceEventSeqs, surfaceOp; a step's `step/start`, user messages, `request/header`, chunks, a usage chunk,
 * the `assistant/message` carrying the usage, tool calls and results, `step/end`; a compaction's start, summary with
 * its own call's usage, checkpoint replacing a range, end; a prune before the tool result it rewrites), with the
 * times, models and usage a test chooses, so what each step and compaction cost is known by construction.
 */

export interface Usage {
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cacheReadTokens?: number
  readonly cacheWriteTokens?: number
  readonly reasoningTokens?: number
}

export interface HeaderSpec {
  readonly provider: string
  readonly model: string
  readonly system?: string
  readonly tools?: readonly { name: string; description?: string }[]
}

type Event = Record<string, unknown>

export class CostLogBuilder {
  readonly events: Event[] = []
  /** Node seqs of the current surface, in model order. */
  readonly surface: number[] = []
  private time: number
  private turnNo = 0
  private stepNo = 0
  private calls = 0
  private compactions = 0

  constructor(
    start: number,
    private readonly header: Record<string, unknown> = { id: 'session-cost-test', cwd: '/w/project' },
  ) {
    this.time = start
  }

  /** The next events are written at this instant (ms), each 1 ms after the one before. */
  at(time: number): this {
    this.time = time
    return this
  }

  private add(type: string, data: unknown, surface?: { op: unknown; sources?: number[] }): number {
    const seq = this.events.length
    const event: Event = { type, seq, time: this.time++, data }
    if (surface?.sources !== undefined) event['sourceEventSeqs'] = surface.sources
    if (surface !== undefined) event['surfaceOp'] = surface.op
    this.events.push(event)
    if (surface?.op === 'append') this.surface.push(seq)
    return seq
  }

  turnStart(): this {
    this.add('turn/start', { turn: ++this.turnNo })
    this.stepNo = 0
    return this
  }

  turnEnd(): this {
    this.add('turn/end', { turn: this.turnNo, reason: { kind: 'completed' } })
    return this
  }

  user(text: string): number {
    return this.add(
      'user/message',
      { content: [{ type: 'text', text }], source: { kind: 'user' }, role: 'user', id: `u-${this.events.length}` },
      { op: 'append' },
    )
  }

  requestHeader(h: HeaderSpec): this {
    this.add('request/header', {
      header: {
        config: { provider: h.provider, model: h.model },
        system: h.system ?? 'You are a coding agent.',
        tools: h.tools ?? [{ name: 'bash', description: 'run a command' }],
      },
    })
    return this
  }

  /**
   * One model step: its request (after `prompt` user text and `header` when given), streamed chunks, the usage, the
   * message, and a tool call answered by a `resultSize`-character result (0: no tool call). `retries`: usages of
   * attempts that failed after reporting usage, each followed by an `llm/retry`.
   */
  step(
    usage: Usage | null,
    options: {
      header?: HeaderSpec
      prompt?: string
      resultSize?: number
      retries?: readonly Usage[]
      model?: { provider: string; model: string }
    } = {},
  ): { label: string; requestSeq: number } {
    const step = ++this.stepNo
    const turn = this.turnNo
    this.add('step/start', { turn, step })
    if (options.prompt !== undefined) this.user(options.prompt)
    if (options.header !== undefined) this.requestHeader(options.header)
    const requestSeq = this.add('request/context', {
      provider: options.header?.provider ?? 'p',
      model: options.header?.model ?? 'm',
      contextWindow: 128000,
    })
    for (const failed of options.retries ?? []) {
      this.add('assistant/chunk', { turn, step, chunk: { type: 'usage', usage: failed } })
      this.add('llm/retry', { turn, step, retry: 1, delayMs: 10 })
    }
    this.add('assistant/chunk', { turn, step, chunk: { type: 'block-start', index: 0, kind: 'text' } })
    this.add('assistant/chunk', { turn, step, chunk: { type: 'text-delta', index: 0, text: 'Working on it.' } })
    if (usage !== null) this.add('assistant/chunk', { turn, step, chunk: { type: 'usage', usage } })
    const call = options.resultSize !== undefined && options.resultSize > 0 ? `call-${++this.calls}` : null
    const content: unknown[] = [{ type: 'text', text: 'Working on it.' }]
    if (call !== null) content.push({ type: 'tool-call', id: call, name: 'bash', arguments: '{"command":"ls"}' })
    this.add(
      'assistant/message',
      {
        turn,
        step,
        message: {
          role: 'assistant',
          content,
          source: { kind: 'model', provider: options.model?.provider ?? 'p', model: options.model?.model ?? 'm' },
          id: `a-${this.events.length}`,
        },
        ...(usage === null ? {} : { usage }),
      },
      { op: 'append', sources: [] },
    )
    if (call !== null) {
      this.add('tool/call', { turn, step, callId: call, name: 'bash' })
      this.add(
        'tool/result',
        {
          turn,
          step,
          message: {
            id: `t-${this.events.length}`,
            role: 'user',
            source: { kind: 'tool', callId: call },
            content: [
              {
                type: 'tool-result',
                toolCallId: call,
                content: [{ type: 'text', text: 'x'.repeat(options.resultSize as number) }],
              },
            ],
          },
        },
        { op: 'append' },
      )
    }
    this.add('step/end', { turn, step })
    return { label: `${turn}.${step}`, requestSeq }
  }

  /** A compaction replacing the surface nodes at positions `from..to` (inclusive), its summary call logged with `usage`. */
  compaction(
    from: number,
    to: number,
    shadowedTokenCount: number,
    usage: Usage | null,
    model = { provider: 'p', model: 'm' },
  ): number {
    const compactionId = `compaction-${++this.compactions}`
    const shadowed = this.surface.slice(from, to + 1)
    const start = this.add('compaction/start', { compactionId, turn: this.turnNo })
    const summarySeq = this.add('compaction/summary', {
      compactionId,
      summary: [{ type: 'text', text: 'SUMMARY' }],
      shadowedRange: { start: shadowed[0], end: shadowed.at(-1) },
      shadowedSeqs: shadowed,
      shadowedTokenCount,
      provider: model.provider,
      model: model.model,
      ...(usage === null ? {} : { usage }),
    })
    const checkpoint = this.add(
      'user/message',
      {
        content: [{ type: 'text', text: 'Checkpoint: SUMMARY' }],
        source: { kind: 'plugin', plugin: 'compact', compactionId },
        role: 'user',
        id: `c-${compactionId}`,
      },
      { op: { op: 'replace', start: shadowed[0], end: shadowed.at(-1) }, sources: [start, summarySeq, ...shadowed] },
    )
    this.surface.splice(from, to - from + 1, checkpoint)
    this.add('compaction/end', { compactionId, turn: this.turnNo })
    return checkpoint
  }

  /** The pruner rewriting the tool result at surface position `at` to a short stub. */
  prune(at: number, shadowedTokenCount: number): number {
    const seq = this.surface[at] as number
    const original = this.events[seq] as Event
    this.add('compaction/prune', { shadowedRange: { start: seq, end: seq }, shadowedSeqs: [seq], shadowedTokenCount })
    const data = structuredClone(original['data']) as { message: { content: { content: unknown }[] } }
    ;(data.message.content[0] as { content: unknown }).content = [{ type: 'text', text: '[pruned]' }]
    const rewrite = this.add('tool/result', data, { op: { op: 'replace', start: seq, end: seq }, sources: [seq] })
    this.surface.splice(at, 1, rewrite)
    return rewrite
  }

  headerLine(): string {
    return JSON.stringify({
      type: 'session',
      version: 0,
      createdAt: this.events.length === 0 ? this.time : (this.events[0]?.['time'] as number),
      delegationDepth: 0,
      ...this.header,
    })
  }

  jsonl(): string {
    return [this.headerLine(), ...this.events.map((e) => JSON.stringify(e))].join('\n') + '\n'
  }
}
