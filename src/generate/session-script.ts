/** The turn/step/compaction script: writes a session the way the agent loop and compaction plugins do. */

import { AssistantStream } from './assistant-stream.ts'
import { Batcher } from './batcher.ts'
import type { ResolvedOptions } from './options.ts'
import { Rng } from './prng.ts'
import { SurfaceTracker, type TrackedNode } from './surface-tracker.ts'
import { sentence, TOOL_NAMES, tokens, toolArguments, toolOutput } from './vocabulary.ts'
import type { GeneratedBatch, GeneratedHeader, ToolResultData } from './types.ts'

const PROVIDER = 'deepseek'
const MODELS = ['deepseek-chat', 'deepseek-reasoner'] as const
const SYSTEM_PROMPT =
  'You are DeepSeek Harness, a coding agent working in /home/dev/project. Use the tools to inspect and change the workspace; ' +
  'verify your changes by running the tests before you report back.'

/** Token estimate the compaction plugins would compute (chars / 4). */
const tokensOf = (chars: number): number => Math.max(1, Math.round(chars / 4))

interface ToolCallPlan {
  readonly id: string
  readonly name: string
  readonly args: string
}

/** Where this turn's clock jump happens: before the first token, inside the stream, during a tool call, or a
 * forward leap (a suspended machine) before the request. */
type JumpSite = 'ttft' | 'stream' | 'tool' | 'forward'

/** The retry policy key the harness logs for its default normal-mode policy (as in the empty-response fixture). */
const RETRY_POLICY_KEY = '["normal",2,["EMPTY_RESPONSE","RATE_LIMIT","SERVER","TIMEOUT","TRANSPORT"],1,1,0]'

interface PruneCandidate {
  readonly seq: number
  readonly bytes: number
  readonly data: ToolResultData
}

export class SessionScript {
  readonly header: GeneratedHeader
  private readonly rng: Rng
  private readonly log: Batcher
  private readonly surface = new SurfaceTracker()
  private turn = 0
  private model: string = MODELS[0]
  private toolResultCount = 0
  private compactionCount = 0
  private callCount = 0
  private compactedThisTurn = false
  private replacementCount = 0
  private readonly pruneCandidates: PruneCandidate[] = []
  private modelSteps = 0
  /** This turn's pending clock jump (`clockJumpEveryTurns`), consumed where it happens. */
  private jump: { site: JumpSite; ms: number } | null = null
  /** The session ended inside a tool call (`endInToolCall`): nothing more is written. */
  crashed = false

  constructor(private readonly o: ResolvedOptions) {
    this.rng = new Rng(o.seed)
    this.header = {
      type: 'session',
      version: 0,
      id: this.rng.uuid(),
      createdAt: o.createdAt,
      cwd: '/home/dev/project',
      delegationDepth: 0,
    }
    this.log = new Batcher(o.createdAt + 5, o.batchWindowMs, o.pack)
  }

  get events(): number {
    return this.log.nextSeq
  }

  /** Whether `targetReplacements` replacements were written (the session ends after this turn). */
  get replacementCapReached(): boolean {
    return this.o.targetReplacements > 0 && this.replacementCount >= this.o.targetReplacements
  }

  /** Batches closed so far; the caller drains after each turn so memory stays bounded by one turn. */
  drain(): GeneratedBatch[] {
    return this.log.drain()
  }

  /** Close the last batch at the end of the session. */
  finish(): void {
    this.log.flush()
  }

  /** One user turn: inbox splice, prompt, steps until a final answer (or max tokens), turn/end. */
  runTurn(): void {
    const o = this.o
    const rng = this.rng
    const turn = ++this.turn
    // User think time between turns; long enough to close the previous write batch.
    this.log.advance(turn === 1 ? 0 : rng.int(3_000, 90_000))
    const prompt = {
      id: rng.uuid(),
      role: 'user',
      content: [{ type: 'text', text: sentence(rng, rng.int(6, 40)) }],
      source: { kind: 'user' },
    }
    // Every third compaction is a manual `/compact` typed between turns (turn: null, linked by sourceCommandId).
    if (this.compactionDue(turn) && this.compactionCount % 3 === 2 && !this.replacementCapReached) this.manualCompact()
    this.log.append('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [prompt] })
    this.log.advance(rng.int(0, 3))
    this.log.append('turn/start', { turn })
    this.log.append('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] })
    this.log.append('step/start', { turn, step: 1 })
    const promptSeq = this.log.append('user/message', prompt, undefined, 'append')
    this.surface.append({
      seq: promptSeq,
      unit: this.surface.newUnit(),
      tokens: tokensOf(prompt.content[0]?.text.length ?? 0),
      kind: 'user',
    })
    if (turn === 1) {
      this.log.append('session/title', {
        title: prompt.content[0]?.text.slice(0, 20),
        messageSeqs: [promptSeq],
        source: { kind: 'fallback' },
      })
    }
    if (turn === 2) {
      this.log.append('session/title', {
        title: sentence(rng, 4),
        messageSeqs: [promptSeq],
        source: { kind: 'provider', provider: PROVIDER, model: { provider: PROVIDER, model: this.model } },
      })
    }
    const headerChange = o.headerChangeEveryTurns > 0 && turn % o.headerChangeEveryTurns === 0
    if (turn === 1 || headerChange) this.requestHeader(turn === 1 ? 'initial' : 'change')
    this.jump = null
    if (o.clockJumpEveryTurns > 0 && turn % o.clockJumpEveryTurns === 0) {
      const site = rng.pick(['ttft', 'stream', 'tool', 'forward'] as const)
      this.jump = { site, ms: site === 'forward' ? rng.int(2, 30) * 60_000 : -rng.int(5_000, 120_000) }
    }

    const steps = rng.int(o.stepsPerTurn[0], o.stepsPerTurn[1])
    const maxTokens = o.maxTokensEveryTurns > 0 && (turn + 1) % o.maxTokensEveryTurns === 0
    for (let step = 1; step <= steps; step++) {
      if (step > 1) this.log.append('step/start', { turn, step })
      if (step === 1) this.maintainContext(turn)
      if (maxTokens && step === steps) {
        this.emptyMaxTokensStep(turn, step)
        this.log.append('step/end', { turn, step })
        this.log.append('turn/end', { turn, reason: { kind: 'max-tokens' } })
        return
      }
      this.modelStep(turn, step, step === steps)
      if (this.crashed) return
      this.log.append('step/end', { turn, step })
    }
    this.log.append('turn/end', { turn, reason: { kind: 'completed' } })
  }

  private requestHeader(reason: 'initial' | 'change'): void {
    if (reason === 'change') this.model = this.model === MODELS[0] ? MODELS[1] : MODELS[0]
    const tools = TOOL_NAMES.map((name) => ({
      name,
      description: `The ${name} tool.`,
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    }))
    this.log.append('request/header', {
      header: { config: { provider: PROVIDER, model: this.model }, system: SYSTEM_PROMPT, tools },
      reason,
    })
    this.log.append('request/context', { provider: PROVIDER, model: this.model, contextWindow: 128_000 })
  }

  private compactionDue(turn: number): boolean {
    return this.o.compactionEveryTurns > 0 && turn % this.o.compactionEveryTurns === 0
  }

  /** `/compact` between turns: command/run, the compaction transaction with turn null, command/done naming the summary. */
  private manualCompact(): void {
    const commandId = `cmd-${this.rng.uuid().slice(0, 8)}-${this.compactionCount}`
    this.log.append('command/run', { commandId, name: 'compact', source: { kind: 'user' } })
    const summarySeq = this.compact(null, commandId)
    this.compactedThisTurn = true
    this.log.append(
      'command/done',
      summarySeq === undefined
        ? { commandId, kind: 'error', text: 'Nothing to compact' }
        : { commandId, kind: 'success', text: 'Compacted the conversation', sourceEventSeq: summarySeq },
    )
  }

  /** Automatic compaction and pruning run before the turn's first model request, when due. */
  private maintainContext(turn: number): void {
    const o = this.o
    if (this.compactionDue(turn) && !this.compactedThisTurn && !this.replacementCapReached) this.compact(turn)
    this.compactedThisTurn = false
    if (o.pruneEveryTurns > 0 && turn % o.pruneEveryTurns === 0 && !this.replacementCapReached) this.prune()
  }

  /** One model request: streamed blocks, block ends, usage, finish, the message, then its tool calls. */
  private modelStep(turn: number, step: number, final: boolean): void {
    const rng = this.rng
    const log = this.log
    this.jumpAt('forward')
    log.advance(rng.int(300, 2_500)) // time to first token
    this.modelSteps++
    if (this.o.retryEverySteps > 0 && this.modelSteps % this.o.retryEverySteps === 0) this.failedAttempt(turn, step)
    this.jumpAt('ttft')
    const out = new AssistantStream(log, turn, step, () => this.tokenGap())
    out.block('reasoning', tokens(rng, rng.logNormal(this.o.reasoningTokens, 0.7, 3, 20 * this.o.reasoningTokens)))
    const calls: ToolCallPlan[] = []
    if (final) out.block('text', tokens(rng, rng.logNormal(this.o.textTokens, 0.6, 3, 10 * this.o.textTokens)))
    else {
      if (rng.chance(0.3))
        out.block('text', tokens(rng, rng.logNormal(Math.ceil(this.o.textTokens / 8), 0.5, 2, this.o.textTokens)))
      const n = rng.chance(0.8) ? 1 : rng.int(2, 3)
      for (let k = 0; k < n; k++) {
        const name = rng.pick(TOOL_NAMES)
        const call = {
          id: `call_${String(this.callCount++).padStart(2, '0')}_${rng.uuid().slice(0, 24)}`,
          name,
          args: toolArguments(rng, name),
        }
        calls.push(call)
        out.toolCall(rng, call.id, name, call.args)
      }
    }
    log.advance(rng.int(0, 30))
    out.endBlocks()
    const usage = { inputTokens: rng.int(2_000, 90_000), outputTokens: out.chunkSeqs.length, cacheReadTokens: rng.int(0, 60_000) }
    out.finish(usage, calls.length > 0)
    const message = {
      id: rng.uuid(),
      role: 'assistant',
      content: out.content,
      source: { kind: 'model', provider: PROVIDER, model: this.model },
    }
    const messageSeq = log.append(
      'assistant/message',
      { turn, step, message, usage },
      this.o.chunkSources ? out.chunkSeqs : [],
      'append',
    )
    const unit = this.surface.newUnit()
    this.surface.append({ seq: messageSeq, unit, tokens: usage.outputTokens, kind: 'assistant' })
    const crash = this.o.endInToolCall && calls.length > 0 && this.events >= this.o.targetEvents
    if (crash) {
      // The harness died while the tools ran: the calls were dispatched, no result, no step/end, no turn/end.
      for (const call of calls) this.dispatch(turn, step, call)
      this.crashed = true
      return
    }
    if (this.o.parallelTools && calls.length > 1) this.parallelToolCalls(turn, step, calls, unit)
    else for (const call of calls) this.toolCall(turn, step, call, unit)
    if (rng.chance(0.12)) {
      const statuses = ['pending', 'in_progress', 'completed'] as const
      log.append('todo/write', { todos: [1, 2, 3].map(() => ({ content: sentence(rng, 5), status: rng.pick(statuses) })) })
    }
  }

  private toolCall(turn: number, step: number, call: ToolCallPlan, unit: number): void {
    const callSeq = this.dispatch(turn, step, call)
    const text = this.toolOutputText()
    this.jumpAt('tool')
    this.log.advance(this.rng.int(20, 4_000)) // tool runtime
    this.answer(turn, step, call, callSeq, text, unit)
  }

  /** Several calls at once: each dispatched as the loop starts it, each result written when its tool finishes. */
  private parallelToolCalls(turn: number, step: number, calls: readonly ToolCallPlan[], unit: number): void {
    const running = calls.map((call) => {
      const callSeq = this.dispatch(turn, step, call)
      return { call, callSeq, text: this.toolOutputText(), doneAt: this.log.now + this.rng.int(20, 4_000) }
    })
    this.jumpAt('tool')
    running.sort((a, b) => a.doneAt - b.doneAt)
    for (const r of running) {
      if (r.doneAt > this.log.now) this.log.advance(r.doneAt - this.log.now)
      this.answer(turn, step, r.call, r.callSeq, r.text, unit)
    }
  }

  private dispatch(turn: number, step: number, call: ToolCallPlan): number {
    this.log.advance(this.rng.int(0, 5))
    return this.log.append('tool/call', { turn, step, callId: call.id, name: call.name, arguments: call.args })
  }

  private toolOutputText(): string {
    const o = this.o
    this.toolResultCount++
    const huge = o.hugeToolResultEvery > 0 && this.toolResultCount % o.hugeToolResultEvery === 0
    const bytes = huge ? o.hugeToolResultBytes : this.rng.logNormal(o.toolResultMedianBytes, 1.3, 8, o.toolResultMaxBytes)
    return bytes < 40 ? 'ok' : toolOutput(this.rng, bytes)
  }

  private answer(turn: number, step: number, call: ToolCallPlan, callSeq: number, text: string, unit: number): void {
    const rng = this.rng
    const data: ToolResultData = {
      turn,
      step,
      message: {
        id: rng.uuid(),
        role: 'user',
        content: [{ type: 'tool-result', toolCallId: call.id, content: [{ type: 'text', text }], isError: rng.chance(0.05) }],
        source: { kind: 'tool', callId: call.id },
      },
    }
    const seq = this.log.append('tool/result', data, [callSeq], 'append')
    this.surface.append({ seq, unit, tokens: tokensOf(text.length), kind: 'tool-result' })
    if (text.length >= this.o.pruneMinBytes) {
      this.pruneCandidates.push({ seq, bytes: text.length, data })
      // Only recent big results are worth keeping for a later prune; this bounds memory on big logs.
      if (this.pruneCandidates.length > 32) this.pruneCandidates.shift()
    }
  }

  /** The first attempt of a request comes back empty: the harness logs it, waits `delayMs` and asks again. */
  private failedAttempt(turn: number, step: number): void {
    const rng = this.rng
    const log = this.log
    log.append('assistant/chunk', { turn, step, chunk: { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } } })
    const failure = { message: 'model returned a completed response with no content', code: 'EMPTY_RESPONSE' }
    log.append('assistant/chunk', { turn, step, chunk: { type: 'finish', reason: { kind: 'error', failure } } })
    const retryId = rng.uuid()
    const delayMs = rng.int(200, 4_000)
    log.append('llm/retry', {
      retryId,
      turn,
      step,
      provider: PROVIDER,
      mode: 'normal',
      policyKey: RETRY_POLICY_KEY,
      retry: 1,
      maxRetries: 2,
      delayMs,
      failure,
    })
    log.advance(delayMs)
    log.append('llm/retry-started', { retryId, turn, step, retry: 1 })
    log.advance(rng.int(300, 2_500))
  }

  /** Apply this turn's clock jump if it happens here. */
  private jumpAt(site: JumpSite): void {
    if (this.jump?.site !== site) return
    this.log.advance(this.jump.ms)
    this.jump = null
  }

  /** The max-tokens case: the step ends with an empty message that only hosts the usage. */
  private emptyMaxTokensStep(turn: number, step: number): void {
    const rng = this.rng
    this.log.advance(rng.int(300, 2_500))
    const usage = { inputTokens: rng.int(2_000, 90_000), outputTokens: 8_192 }
    this.log.append('assistant/chunk', { turn, step, chunk: { type: 'usage', usage } })
    this.log.append('assistant/chunk', { turn, step, chunk: { type: 'finish', reason: { kind: 'max-tokens' } } })
    const message = {
      id: rng.uuid(),
      role: 'assistant',
      content: [],
      source: { kind: 'model', provider: PROVIDER, model: this.model },
    }
    const seq = this.log.append('assistant/message', { turn, step, message, usage }, [], 'append')
    this.surface.append({ seq, unit: this.surface.newUnit(), tokens: 1, kind: 'assistant' })
  }

  /**
   * Summarizing compaction over whole units at the head of the surface, keeping
   * the last few. The second compaction always starts at the head so it swallows
   * the first summary (a nested replacement); later ones do so at random.
   */
  private compact(turn: number | null, sourceCommandId?: string): number | undefined {
    const rng = this.rng
    const log = this.log
    const starts = this.surface.unitStarts()
    const keep = rng.int(2, 4)
    const lastUnit = starts.length - 1 - keep // last unit index inside the range
    if (lastUnit < 0) return undefined
    let firstUnit = 0
    const nested = this.compactionCount === 1 || rng.chance(0.5)
    if (!nested) {
      let lastSummary = -1
      this.surface.nodes.forEach((n, i) => {
        if (n.kind === 'summary') lastSummary = i
      })
      const after = starts.findIndex((s) => s > lastSummary)
      if (after >= 0 && after <= lastUnit) firstUnit = after
    }
    if (this.o.compactionMaxDepth > 0) {
      firstUnit = this.pastDepthCap(starts, firstUnit, starts[lastUnit + 1] as number)
      if (firstUnit > lastUnit) return undefined
    }
    const startIdx = starts[firstUnit] as number
    const endIdx = (starts[lastUnit + 1] as number) - 1
    const shadowed = this.surface.nodes.slice(startIdx, endIdx + 1)
    const first = shadowed[0] as TrackedNode
    const last = shadowed[shadowed.length - 1] as TrackedNode
    const shadowedSeqs = shadowed.map((n) => n.seq)
    const shadowedTokenCount = shadowed.reduce((sum, n) => sum + n.tokens, 0)
    const depth = 1 + shadowed.reduce((d, n) => Math.max(d, n.depth ?? 0), 0)
    const compactionId = rng.uuid()
    this.compactionCount++
    // sourceCommandId sits right after compactionId, as the plugin writes it, and only on manual runs.
    const ids = sourceCommandId === undefined ? { compactionId } : { compactionId, sourceCommandId }
    const startSeq = log.append('compaction/start', { ...ids, turn })
    log.advance(rng.int(2_000, 15_000)) // the summarizer's model call
    const summaryText = Array.from({ length: rng.int(3, 8) }, () => sentence(rng, rng.int(8, 24))).join(' ')
    const summarySeq = log.append('compaction/summary', {
      ...ids,
      summary: [{ type: 'text', text: summaryText }],
      shadowedRange: { start: first.seq, end: last.seq },
      shadowedSeqs,
      shadowedTokenCount,
      provider: PROVIDER,
      model: this.model,
    })
    const checkpoint = {
      id: rng.uuid(),
      role: 'user',
      content: [{ type: 'text', text: `<summary>\n${summaryText}\n</summary>` }],
      source: { kind: 'plugin', plugin: 'compact', ...ids },
    }
    const seq = log.append('user/message', checkpoint, [startSeq, summarySeq, ...shadowedSeqs], {
      op: 'replace',
      start: first.seq,
      end: last.seq,
    })
    this.surface.replace(startIdx, endIdx, {
      seq,
      unit: this.surface.newUnit(),
      tokens: tokensOf(summaryText.length),
      kind: 'summary',
      depth,
    })
    this.replacementCount++
    log.append('compaction/end', { ...ids, turn })
    return summarySeq
  }

  /**
   * With `compactionMaxDepth`: the first unit at or after `firstUnit` that starts past every summary already at
   * the cap, so the new summary is at most that deep (returns a unit past the range when none fits).
   * @param endIdx surface index just past the range
   */
  private pastDepthCap(starts: readonly number[], firstUnit: number, endIdx: number): number {
    const nodes = this.surface.nodes
    let capped = -1
    for (let i = starts[firstUnit] as number; i < endIdx; i++) {
      if (((nodes[i] as TrackedNode).depth ?? 0) >= this.o.compactionMaxDepth) capped = i
    }
    if (capped < 0) return firstUnit
    const after = starts.findIndex((s) => s > capped)
    return after < 0 ? starts.length : after
  }

  /** Tool-result prune: the biggest recent result still on the surface is rewritten to a stub in place. */
  private prune(): void {
    let best: PruneCandidate | undefined
    for (const c of this.pruneCandidates) {
      if ((best === undefined || c.bytes > best.bytes) && this.surface.indexOf(c.seq) >= 0) best = c
    }
    if (best === undefined) return
    this.pruneCandidates.splice(this.pruneCandidates.indexOf(best), 1)
    const idx = this.surface.indexOf(best.seq)
    const original = this.surface.nodes[idx] as TrackedNode
    const s = best.seq
    this.log.append('compaction/prune', {
      shadowedRange: { start: s, end: s },
      shadowedSeqs: [s],
      shadowedTokenCount: original.tokens,
    })
    const block = best.data.message.content[0]
    const pruned = [{ type: 'text', text: `[pruned] tool output removed to save context (${best.bytes} bytes)` }]
    // Copy the original exactly; only the inner content may differ, or the harness rejects the rewrite.
    const data = { ...best.data, message: { ...best.data.message, content: [{ ...block, content: pruned }] } }
    const seq = this.log.append('tool/result', data, [s], { op: 'replace', start: s, end: s })
    this.surface.replace(idx, idx, { seq, unit: original.unit, tokens: 20, kind: 'pruned' })
    this.replacementCount++
  }

  /** Inter-token gap: tokens arrive in bursts (several at 0-1 ms, then a ~25 ms pause), as the fixtures show. */
  private tokenGap(): number {
    const gap = this.rng.chance(0.3) ? this.rng.int(15, 40) : this.rng.int(0, 1)
    if (this.jump?.site !== 'stream') return gap
    const ms = this.jump.ms
    this.jump = null
    return gap + ms
  }
}
