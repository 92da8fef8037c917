/**
 * Writes a scripted conversation as a dsh session log, event by event the way the agent loop, the
 * compaction plugins and the subagent tool append them: streamed chunks (packed), messages with
 * usage that follows the surface, tool calls and results, summaries, prunes, `/compact`, a
 * max-tokens stop, and one-shot subagent children as their own logs.
 */

import { estimateTokens } from '../../core/model/token-estimate.ts'
import { AssistantStream } from '../assistant-stream.ts'
import { Batcher } from '../batcher.ts'
import { Rng } from '../prng.ts'
import { SurfaceTracker, type TrackedNode } from '../surface-tracker.ts'
import type { GeneratedBatch, GeneratedHeader, ToolResultData, GeneratedSession } from '../types.ts'
import type { ChildSpec, CompactionSpec, ModelStepSpec, PruneSpec, ToolCallSpec, ToolSchema, TurnSpec } from './script-types.ts'

export const PROVIDER = 'deepseek-official'
export const MODEL = 'deepseek-v4-flash'
const CONTEXT_WINDOW = 128_000
const MAX_OUTPUT_TOKENS = 8_192
/** DeepSeek's prefix cache hits in whole 64-token units. */
const CACHE_UNIT = 64

export interface WriterSetup {
  readonly seed: number
  readonly createdAt: number
  readonly cwd: string
  readonly system: string
  readonly tools: readonly ToolSchema[]
  readonly parent?: { readonly id: string; readonly depth: number }
}

/** A finished log: the session and its children, in the order they were started. */
export interface WrittenSession {
  readonly session: GeneratedSession
  readonly children: readonly WrittenSession[]
}

/** Model output as a BPE-like token stream: a word with its leading whitespace, long words in pieces. */
export function proseTokens(text: string): string[] {
  const out: string[] = []
  for (const piece of text.match(/\s*\S+|\s+$/g) ?? []) {
    if (piece.length <= 12) out.push(piece)
    else for (let i = 0; i < piece.length; i += 7) out.push(piece.slice(i, i + 7))
  }
  return out
}

export class DemoSessionWriter {
  readonly header: GeneratedHeader
  private readonly rng: Rng
  private readonly log: Batcher
  private readonly surface = new SurfaceTracker()
  private readonly children: WrittenSession[] = []
  private readonly prunable = new Map<string, { seq: number; bytes: number; data: ToolResultData }>()
  private readonly baseTokens: number
  private turn = 0
  private callCount = 0
  /** Input tokens of the previous request, and the first surface index replaced since then. */
  private lastInput = 0
  private dirtyFrom = Infinity
  private firstRequest = true

  constructor(private readonly setup: WriterSetup) {
    this.rng = new Rng(setup.seed)
    const id = this.rng.uuid()
    this.header =
      setup.parent === undefined
        ? { type: 'session', version: 0, id, createdAt: setup.createdAt, cwd: setup.cwd, delegationDepth: 0 }
        : {
            type: 'session',
            version: 0,
            id,
            createdAt: setup.createdAt,
            cwd: setup.cwd,
            parentSession: setup.parent.id,
            origin: 'subagent',
            delegationDepth: setup.parent.depth + 1,
          }
    this.log = new Batcher(setup.createdAt + 3, 200, true)
    this.baseTokens = estimateTokens({ system: setup.system, tools: setup.tools })
  }

  get now(): number {
    return this.log.now
  }

  /** Close the log: the session with its batches, and the children it started. */
  finish(): WrittenSession {
    this.log.flush()
    const batches: GeneratedBatch[] = this.log.drain()
    let eventCount = 0
    for (const batch of batches) for (const r of batch) eventCount += 'seq0' in r ? (r.data.texts ?? r.data.args ?? []).length : 1
    return { session: { header: this.header, batches, eventCount }, children: this.children }
  }

  /** The last text the model wrote (a subagent's report). */
  lastText = ''

  runTurn(spec: TurnSpec, descriptorLabel?: string): void {
    const rng = this.rng
    const log = this.log
    const turn = ++this.turn
    log.advance(turn === 1 ? 0 : rng.int(40_000, 150_000)) // the user reads the answer and types
    if (spec.manualCompactBefore !== undefined) this.manualCompact(spec.manualCompactBefore)
    const prompt = {
      id: rng.uuid(),
      role: 'user',
      content: [{ type: 'text', text: spec.prompt }],
      source: { kind: 'user' },
    }
    log.append('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [prompt] })
    log.advance(rng.int(1, 4))
    log.append('turn/start', { turn })
    log.append('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] })
    if (descriptorLabel !== undefined) {
      // A one-shot child: the descriptor and the delegated policies open its first turn.
      log.append('subagent/descriptor', { version: 2, mode: 'one-shot', provider: PROVIDER, label: descriptorLabel })
      log.append('approval/policy', { policy: 'never', source: 'delegation' })
      log.append('sandbox/mode', { mode: 'read-only', source: 'delegation' })
    }
    log.append('step/start', { turn, step: 1 })
    const promptSeq = log.append('user/message', prompt, undefined, 'append')
    this.surfaceAppend(promptSeq, this.surface.newUnit(), prompt, 'user')
    if (turn === 1 && this.setup.parent === undefined) {
      log.append('session/title', {
        title: spec.prompt.slice(0, 32).trimEnd(),
        messageSeqs: [promptSeq],
        source: { kind: 'fallback' },
      })
    }
    if (turn === 1) this.requestHeader()
    spec.steps.forEach((step, k) => {
      const n = k + 1
      if (n > 1) log.append('step/start', { turn, step: n })
      if (n === 1 && spec.compact !== undefined) this.compact(spec.compact, turn)
      if (n === 1 && spec.prune !== undefined) this.prune(spec.prune)
      if ('maxTokens' in step) {
        this.emptyMaxTokensStep(turn, n)
        log.append('step/end', { turn, step: n })
        log.append('turn/end', { turn, reason: { kind: 'max-tokens' } })
        return
      }
      this.modelStep(turn, n, step)
      log.append('step/end', { turn, step: n })
      if (n === spec.steps.length) log.append('turn/end', { turn, reason: { kind: 'completed' } })
    })
  }

  /** The provider-written title, once the first answer is in (as session-title-llm does). */
  providerTitle(title: string): void {
    const first = this.surface.nodes.find((n) => n.kind === 'user')
    this.log.append('session/title', {
      title,
      messageSeqs: first === undefined ? [] : [first.seq],
      source: { kind: 'provider', provider: PROVIDER, model: { provider: PROVIDER, model: MODEL } },
    })
  }

  private requestHeader(): void {
    const { system, tools } = this.setup
    this.log.append('request/header', {
      header: { config: { provider: PROVIDER, model: MODEL, reasoningEffort: 'high' }, system, tools },
      reason: 'initial',
    })
    this.log.append('request/context', { provider: PROVIDER, model: MODEL, contextWindow: CONTEXT_WINDOW })
  }

  private surfaceAppend(seq: number, unit: number, message: unknown, kind: TrackedNode['kind']): void {
    this.surface.append({ seq, unit, tokens: estimateTokens(message), kind })
  }

  private surfaceReplace(startIdx: number, endIdx: number, node: TrackedNode): void {
    this.surface.replace(startIdx, endIdx, node)
    this.dirtyFrom = Math.min(this.dirtyFrom, startIdx)
  }

  /** Usage of a request over the current surface: input follows the surface, cache reads stop at the first change. */
  private requestUsage(outputTokens: number, reasoningTokens: number): Record<string, number> {
    const inputTokens = this.baseTokens + this.surface.nodes.reduce((s, n) => s + n.tokens, 0)
    let cached: number
    if (this.firstRequest)
      cached = this.baseTokens // system prompt and tools are warm from earlier sessions
    else if (this.dirtyFrom === Infinity) cached = this.lastInput
    else cached = this.baseTokens + this.surface.nodes.slice(0, this.dirtyFrom).reduce((s, n) => s + n.tokens, 0)
    cached = Math.floor(Math.min(cached, inputTokens) / CACHE_UNIT) * CACHE_UNIT
    this.firstRequest = false
    this.lastInput = inputTokens
    this.dirtyFrom = Infinity
    return { inputTokens, outputTokens, cacheReadTokens: cached, reasoningTokens }
  }

  private tokenGap(): number {
    return this.rng.chance(0.3) ? this.rng.int(15, 45) : this.rng.int(0, 2)
  }

  private modelStep(turn: number, step: number, spec: ModelStepSpec): void {
    const rng = this.rng
    const log = this.log
    log.advance(rng.int(500, 2_200)) // time to first token
    const out = new AssistantStream(log, turn, step, () => this.tokenGap())
    let outputTokens = 0
    const prose = (kind: 'reasoning' | 'text', text: string): void => {
      const parts = proseTokens(text)
      out.block(kind, parts, text)
      outputTokens += parts.length
    }
    prose('reasoning', spec.reasoning)
    const reasoningTokens = outputTokens
    if (spec.text !== undefined) prose('text', spec.text)
    const calls = (spec.calls ?? []).map((call) => ({ ...call, id: this.callId(), args: JSON.stringify(call.args) }))
    for (const call of calls) {
      out.toolCall(rng, call.id, call.name, call.args)
      outputTokens += Math.ceil(call.args.length / 4)
    }
    log.advance(rng.int(0, 20))
    out.endBlocks()
    const usage = this.requestUsage(outputTokens, reasoningTokens)
    out.finish(usage, calls.length > 0)
    const message = {
      id: rng.uuid(),
      role: 'assistant',
      content: out.content,
      source: { kind: 'model', provider: PROVIDER, model: MODEL },
    }
    const seq = log.append('assistant/message', { turn, step, message, usage }, out.chunkSeqs, 'append')
    const unit = this.surface.newUnit()
    this.surfaceAppend(seq, unit, message, 'assistant')
    if (spec.text !== undefined) this.lastText = spec.text
    for (const call of calls) this.toolCall(turn, step, call, unit)
  }

  private callId(): string {
    return `call_${String(this.callCount++).padStart(2, '0')}_${this.rng.uuid().replace(/-/g, '').slice(0, 24)}`
  }

  private toolCall(
    turn: number,
    step: number,
    call: Omit<ToolCallSpec, 'args'> & { id: string; args: string },
    unit: number,
  ): void {
    const rng = this.rng
    const log = this.log
    log.advance(rng.int(1, 6))
    const callSeq = log.append('tool/call', { turn, step, callId: call.id, name: call.name, arguments: call.args })
    let text = call.result ?? ''
    if (call.todos !== undefined) log.append('todo/write', { todos: call.todos })
    if (call.subagent !== undefined) text = this.runChild(call.subagent)
    log.advance(call.runtimeMs ?? rng.int(4, 40))
    const data: ToolResultData = {
      turn,
      step,
      message: {
        id: rng.uuid(),
        role: 'user',
        content: [{ type: 'tool-result', toolCallId: call.id, content: [{ type: 'text', text }], isError: false }],
        source: { kind: 'tool', callId: call.id },
      },
    }
    const seq = log.append('tool/result', data, [callSeq], 'append')
    this.surfaceAppend(seq, unit, data.message, 'tool-result')
    if (call.key !== undefined) this.prunable.set(call.key, { seq, bytes: text.length, data })
  }

  /** A one-shot foreground subagent: its own log, written while the parent's tool call runs; its answer is the result. */
  private runChild(spec: ChildSpec): string {
    const child = new DemoSessionWriter({
      ...this.setup,
      seed: this.setup.seed * 31 + this.children.length + 1,
      createdAt: this.now + this.rng.int(3, 9),
      parent: { id: this.header.id, depth: this.header.delegationDepth },
    })
    child.runTurn({ prompt: spec.prompt, steps: spec.steps }, spec.label)
    this.children.push(child.finish())
    this.log.advance(child.now - this.now + this.rng.int(2, 8))
    return child.lastText
  }

  private emptyMaxTokensStep(turn: number, step: number): void {
    const rng = this.rng
    // The model reasoned for the whole output budget; the harness keeps an empty message that hosts the usage.
    this.log.advance(rng.int(150_000, 190_000))
    const usage = this.requestUsage(MAX_OUTPUT_TOKENS, MAX_OUTPUT_TOKENS)
    this.log.append('assistant/chunk', { turn, step, chunk: { type: 'usage', usage } })
    this.log.append('assistant/chunk', { turn, step, chunk: { type: 'finish', reason: { kind: 'max-tokens' } } })
    const message = {
      id: rng.uuid(),
      role: 'assistant',
      content: [],
      source: { kind: 'model', provider: PROVIDER, model: MODEL },
    }
    const seq = this.log.append('assistant/message', { turn, step, message, usage }, [], 'append')
    this.surfaceAppend(seq, this.surface.newUnit(), message, 'assistant')
  }

  private manualCompact(spec: CompactionSpec): void {
    const commandId = `cmd-${this.rng.uuid().slice(0, 8)}`
    this.log.append('command/run', { commandId, name: 'compact', source: { kind: 'user' } })
    const summarySeq = this.compact(spec, null, commandId)
    this.log.append('command/done', {
      commandId,
      kind: 'success',
      text: 'Compacted the conversation',
      sourceEventSeq: summarySeq,
    })
  }

  /** Summarizing compaction of every unit but the last `keepUnits`, from the head (so it swallows an earlier summary). */
  private compact(spec: CompactionSpec, turn: number | null, sourceCommandId?: string): number {
    const rng = this.rng
    const log = this.log
    const starts = this.surface.unitStarts()
    const endIdx = (starts[starts.length - spec.keepUnits] as number) - 1
    const shadowed = this.surface.nodes.slice(0, endIdx + 1)
    const first = shadowed[0] as TrackedNode
    const last = shadowed[shadowed.length - 1] as TrackedNode
    const shadowedSeqs = shadowed.map((n) => n.seq)
    const shadowedTokenCount = shadowed.reduce((sum, n) => sum + n.tokens, 0)
    const compactionId = rng.uuid()
    const ids = sourceCommandId === undefined ? { compactionId } : { compactionId, sourceCommandId }
    const startSeq = log.append('compaction/start', { ...ids, turn })
    log.advance(rng.int(9_000, 16_000)) // the summarizer's model call
    const summarySeq = log.append('compaction/summary', {
      ...ids,
      summary: [{ type: 'text', text: spec.summary }],
      shadowedRange: { start: first.seq, end: last.seq },
      shadowedSeqs,
      shadowedTokenCount,
      provider: PROVIDER,
      model: MODEL,
      usage: { inputTokens: this.baseTokens + shadowedTokenCount, outputTokens: proseTokens(spec.summary).length },
    })
    const checkpoint = {
      id: rng.uuid(),
      role: 'user',
      content: [{ type: 'text', text: `<summary>\n${spec.summary}\n</summary>` }],
      source: { kind: 'plugin', plugin: 'compact', ...ids },
    }
    const seq = log.append('user/message', checkpoint, [startSeq, summarySeq, ...shadowedSeqs], {
      op: 'replace',
      start: first.seq,
      end: last.seq,
    })
    this.surfaceReplace(0, endIdx, { seq, unit: this.surface.newUnit(), tokens: estimateTokens(checkpoint), kind: 'summary' })
    log.append('compaction/end', { ...ids, turn })
    return summarySeq
  }

  /** The pruner rewrites an over-budget tool result in place; only the inner content changes. */
  private prune(spec: PruneSpec): void {
    const target = this.prunable.get(spec.key)
    if (target === undefined) throw new Error(`demo script: nothing to prune under ${spec.key}`)
    const idx = this.surface.indexOf(target.seq)
    const original = this.surface.nodes[idx] as TrackedNode
    this.log.append('compaction/prune', {
      shadowedRange: { start: target.seq, end: target.seq },
      shadowedSeqs: [target.seq],
      shadowedTokenCount: original.tokens,
    })
    const block = target.data.message.content[0]
    const pruned = [{ type: 'text', text: spec.note }]
    const data = { ...target.data, message: { ...target.data.message, content: [{ ...block, content: pruned }] } }
    const seq = this.log.append('tool/result', data, [target.seq], { op: 'replace', start: target.seq, end: target.seq })
    this.surfaceReplace(idx, idx, { seq, unit: original.unit, tokens: estimateTokens(data.message), kind: 'pruned' })
  }
}
