/**
 * Logs whose steps look like the harness's agent loop writes them (reference §2, and every real fixture):
 * `step/start`, the claimed inbox (`user/message`s), an automatic compaction at times, `request/header` when the
 * header changed (then `request/context`), the provider output (`assistant/chunk`s: block-start, text or reasoning
 * deltas, tool-call blocks, usage, finish; or a bare `assistant/message` when nothing streamed; a provider error
 * as one `finish` chunk; a max-tokens step's empty `assistant/message`), compactions landing between chunks,
 * `tool/call` + `tool/result` pairs, prunes, late injections, `step/end`. Used only by `requestLogArb`, so the
 * generic LogBuilder's logs (and every suite built on them) stay as they were.
 *
 * Beside the events it writes down, from the script alone (never from a fold), what each step's request must be:
 * where it is taken, the surface seqs in order, the header in force and the logged usage; and for every surface
 * node when it entered the surface and which replacement took it off.
 */

import { LogBuilder, type BuildStep, type TestEvent } from './log-builder.ts'

/** One header, as choices: what the harness's `canonicalHeader` keeps of it is computed from these directly. */
export interface HeaderChoice {
  provider: number
  model: number
  /** 0: no reasoningEffort; else the effort from EFFORTS. */
  effort: number
  /** `adapterDefaults: {reasoningEffort: true}` (only written with an effort, as the harness requires). */
  adapter: boolean
  /** 0: absent, 1: '' (dropped as empty), 2+: a prompt. */
  system: number
  /** 0: absent, 1: [] (dropped as empty), 2+: a tool set. */
  tools: number
  /** An old log's `messagePrefix` leftover, which `canonicalHeader` drops. */
  leftover: boolean
}

/** A header write as an edit of the header in force: null fields keep their choice (so most writes change one field, or none). */
export type HeaderEdit = { [K in keyof HeaderChoice]: HeaderChoice[K] | null }

const FIRST_HEADER: HeaderChoice = { provider: 0, model: 0, effort: 0, adapter: false, system: 2, tools: 2, leftover: false }

export type ProviderOutput = 'stream' | 'message' | 'max-tokens' | 'error' | 'none'

export interface RequestStepScript {
  kind: 'request-step'
  users: string[]
  compactBefore: { from: number; length: number } | null
  header: HeaderEdit | null
  /** `request/context` after the header (every real log has it; without it the header is the request point). */
  context: boolean
  retry: boolean
  output: ProviderOutput
  text: string
  deltas: number
  reasoning: boolean
  calls: number
  resultSize: number
  /** The logged `usage.cacheReadTokens` (absent when null). */
  cacheRead: number | null
  /** A compaction between the chunks (after the request point), as in the compaction-recovery fixture. */
  midCompact: { from: number; length: number } | null
  prune: number | null
  lateUser: string | null
  close: boolean
  /** A pairing or text defect a provider refuses (absent or null: none), injected into this step's output. */
  defect?: StepDefect | null
}

/**
 * What a broken log does wrong in one step: a result for a call nobody made; a call left without its result; a
 * call id reused (from an earlier call still on the surface, or within the message); an empty call id; a lone
 * surrogate in a user message; a user message between the calls and their results.
 */
export type StepDefect = 'orphan' | 'unanswered' | 'duplicate' | 'empty-id' | 'surrogate' | 'user-between'

export type RequestScriptItem =
  | RequestStepScript
  | Extract<BuildStep, { kind: 'user' | 'log-only' | 'compact' | 'prune' | 'turn-boundary' }>
  /** A compaction of the whole surface into one summary: it takes every broken pairing off. */
  | { kind: 'compact-all' }

/** What a step's request must be, from the script. */
export interface ModelStep {
  readonly turn: number
  readonly step: number
  readonly startIndex: number
  /** The request is the surface after events 0..atIndex. */
  atIndex: number
  boundary: 'first-output' | 'step-end' | 'open'
  /** The step's `step/end`, or null while open. */
  endIndex: number | null
  /** Surface seqs in model order at the request point (nodes deriving nothing included). */
  surface: number[]
  /** The canonical header in force at the request point, and its cache-prefix part (provider, model, system, tools). */
  readonly header: Record<string, unknown> | null
  readonly prefixKey: string | null
  usage: Record<string, unknown> | null
}

const PROVIDERS = ['deepseek', 'deepseek-official']
const MODELS = ['deepseek-chat', 'deepseek-v4-flash']
export const EFFORTS = [undefined, 'low', 'high']
const SYSTEMS = [undefined, '', 'You are dsh.', 'You are dsh. Be brief.']
const schema = (name: string, extra = {}) => ({ name, description: `${name} tool`, parameters: { type: 'object', ...extra } })
const TOOL_SETS = [undefined, [], [schema('bash')], [schema('bash'), schema('read')], [schema('bash', { required: ['command'] })]]
export const HEADER_CHOICES = {
  providers: PROVIDERS.length,
  models: MODELS.length,
  efforts: EFFORTS.length,
  systems: SYSTEMS.length,
  tools: TOOL_SETS.length,
}

function rawHeader(c: HeaderChoice): Record<string, unknown> {
  const effort = EFFORTS[c.effort]
  const header: Record<string, unknown> = {
    config: {
      provider: PROVIDERS[c.provider],
      model: MODELS[c.model],
      ...(effort === undefined ? {} : { reasoningEffort: effort }),
    },
  }
  if (c.adapter && effort !== undefined) header['adapterDefaults'] = { reasoningEffort: true }
  if (SYSTEMS[c.system] !== undefined) header['system'] = SYSTEMS[c.system]
  if (TOOL_SETS[c.tools] !== undefined) header['tools'] = TOOL_SETS[c.tools]
  if (c.leftover) header['messagePrefix'] = []
  return header
}

/** What the harness keeps of the header (written out from the choices, not by running a canonicaliser). */
function canonicalOf(c: HeaderChoice): Record<string, unknown> {
  const effort = EFFORTS[c.effort]
  return {
    config: {
      provider: PROVIDERS[c.provider],
      model: MODELS[c.model],
      ...(effort === undefined ? {} : { reasoningEffort: effort }),
    },
    ...(c.adapter && effort !== undefined ? { adapterDefaults: { reasoningEffort: true } } : {}),
    ...(c.system >= 2 ? { system: SYSTEMS[c.system] } : {}),
    ...(c.tools >= 2 ? { tools: TOOL_SETS[c.tools] } : {}),
  }
}

const prefixKeyOf = (c: HeaderChoice) =>
  JSON.stringify([c.provider, c.model, c.system >= 2 ? c.system : 0, c.tools >= 2 ? c.tools : 0])

const MODEL_SOURCE = { kind: 'model', provider: 'deepseek', model: 'deepseek-chat' }

export class RequestLogBuilder extends LogBuilder {
  readonly steps: ModelStep[] = []
  /** Surface node seq -> index of the event that put it on the surface (its own). */
  readonly entered = new Map<number, number>()
  /** Surface node seq -> the replacement that took it off (its seq is also the event index). */
  readonly left = new Map<number, number>()
  /** Surface nodes that give the model no message: a max-tokens step's empty `assistant/message`. */
  readonly derivesNothing = new Set<number>()
  private header: { choice: HeaderChoice; canonical: Record<string, unknown>; prefixKey: string } | null = null
  private stepTurn = -1
  private stepNumber = 0
  private open: ModelStep | null = null

  /** Run `write`, then record which nodes it put on and took off the surface. */
  private tracked(write: () => void): void {
    const before = new Set(this.surface.map((n) => n.seq))
    write()
    const after = this.surface.map((n) => n.seq)
    const added = after.filter((seq) => !before.has(seq))
    const afterSet = new Set(after)
    for (const seq of added) this.entered.set(seq, seq)
    // A write adds at most one node; when it took nodes off, that node is their replacement.
    for (const seq of before) if (!afterSet.has(seq)) this.left.set(seq, added[0] as number)
  }

  private append(type: string, data: unknown, sources?: number[], tool = false): number {
    let seq = -1
    this.tracked(() => {
      seq = this.add(type, data, { op: 'append', ...(sources === undefined ? {} : { sources }) })
      this.surface.push({ seq, tool })
    })
    return seq
  }

  private userMessage(text: string): void {
    this.append('user/message', { id: this.id('u'), role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } })
  }

  /** Every tool-call id made so far (a `duplicate` defect reuses one). */
  private readonly callIds: string[] = []
  /** Event index of each `compact-all` checkpoint. */
  readonly repairs: number[] = []

  applyItem(item: RequestScriptItem): void {
    if (item.kind === 'request-step') this.requestStep(item)
    else if (item.kind === 'compact-all') {
      if (this.surface.length === 0) return
      this.tracked(() => this.compactRange(0, this.surface.length - 1))
      this.repairs.push(this.events.length - 2)
    } else this.tracked(() => this.apply(item))
  }

  /** Close the bookkeeping of a step left open at the end of the log: its request is everything so far. */
  finish(): TestEvent[] {
    if (this.open !== null) {
      if (this.open.boundary === 'open') {
        this.open.atIndex = this.events.length - 1
        this.open.surface = this.surface.map((n) => n.seq)
      }
      this.steps.push(this.open)
      this.open = null
    }
    return this.events
  }

  private chunk(chunk: Record<string, unknown>): number {
    return this.add('assistant/chunk', { turn: this.turn, step: this.step, chunk })
  }

  private requestStep(s: RequestStepScript): void {
    if (this.turn === 0) {
      this.turn = 1
      this.add('turn/start', { turn: 1 })
    }
    if (this.step !== 0) this.add('step/end', { turn: this.turn, step: this.step })
    if (this.stepTurn !== this.turn) {
      this.stepTurn = this.turn
      this.stepNumber = 0
    }
    this.step = ++this.stepNumber
    const startIndex = this.add('step/start', { turn: this.turn, step: this.step })
    for (const text of s.users) this.userMessage(text)
    if (s.defect === 'surrogate') this.userMessage(`${s.text}\ud800`)
    if (s.compactBefore !== null) this.tracked(() => this.apply({ kind: 'compact', ...s.compactBefore! }))
    if (s.header !== null) {
      const base = this.header?.choice ?? FIRST_HEADER
      const edit = s.header
      const choice = Object.fromEntries(
        Object.entries(base).map(([key, value]) => [key, edit[key as keyof HeaderChoice] ?? value]),
      ) as unknown as HeaderChoice
      this.add('request/header', { header: rawHeader(choice), reason: this.header === null ? 'initial' : 'change' })
      if (s.context) this.add('request/context', { provider: PROVIDERS[choice.provider], model: MODELS[choice.model] })
      this.header = { choice, canonical: canonicalOf(choice), prefixKey: prefixKeyOf(choice) }
    }
    if (s.retry) this.add('llm/retry-started', { retryId: this.id('retry'), turn: this.turn, step: this.step, retry: 1 })
    const step: ModelStep = {
      turn: this.turn,
      step: this.step,
      startIndex,
      atIndex: -1,
      boundary: 'open',
      endIndex: null,
      surface: [],
      header: this.header?.canonical ?? null,
      prefixKey: this.header?.prefixKey ?? null,
      usage: null,
    }
    if (s.output !== 'none') {
      step.atIndex = this.events.length - 1
      step.boundary = 'first-output'
      step.surface = this.surface.map((n) => n.seq)
    }
    this.output(s, step)
    if (s.lateUser !== null) this.userMessage(s.lateUser)
    if (s.close) {
      const end = this.add('step/end', { turn: this.turn, step: this.step })
      step.endIndex = end
      this.step = 0
      if (step.boundary === 'open') {
        step.atIndex = end
        step.boundary = 'step-end'
        step.surface = this.surface.map((n) => n.seq)
      }
      this.steps.push(step)
    } else this.open = step
  }

  private output(s: RequestStepScript, step: ModelStep): void {
    if (s.output === 'none') return
    if (s.output === 'error') {
      this.chunk({
        type: 'finish',
        reason: { kind: 'error', failure: { message: 'simulated provider error (HTTP 401)', code: 'AUTH' } },
      })
      return
    }
    const calls = s.output === 'max-tokens' ? [] : Array.from({ length: s.calls }, () => this.id('call'))
    if (s.defect === 'empty-id' && calls.length > 0) calls[0] = ''
    if (s.defect === 'duplicate' && calls.length > 0) {
      const earlier = this.callIds.at(-1)
      if (earlier !== undefined) calls[calls.length - 1] = earlier
      else if (calls.length > 1) calls[1] = calls[0] as string
    }
    this.callIds.push(...calls.filter((id) => id !== ''))
    const content: Record<string, unknown>[] = []
    if (s.output !== 'max-tokens' && (s.text !== '' || calls.length === 0))
      content.push(s.reasoning ? { type: 'reasoning', text: s.text } : { type: 'text', text: s.text })
    for (const id of calls) content.push({ type: 'tool-call', id, name: 'bash', arguments: '{"command":"ls"}' })
    const usage = {
      inputTokens: 10 + s.deltas,
      outputTokens: 5,
      ...(s.cacheRead === null ? {} : { cacheReadTokens: s.cacheRead }),
    }
    const chunks: number[] = []
    if (s.output === 'stream' || s.output === 'max-tokens') {
      const blockType = s.reasoning ? 'reasoning' : 'text'
      chunks.push(this.chunk({ type: 'block-start', index: 0, blockType }))
      for (let i = 0; i < s.deltas; i++) {
        if (s.midCompact !== null && i === s.deltas >> 1) this.tracked(() => this.apply({ kind: 'compact', ...s.midCompact! }))
        chunks.push(this.chunk({ type: s.reasoning ? 'reasoning-delta' : 'text-delta', index: 0, text: `${s.text}${i}` }))
      }
      if (s.midCompact !== null && s.deltas === 0) this.tracked(() => this.apply({ kind: 'compact', ...s.midCompact! }))
      chunks.push(this.chunk({ type: 'block-end', index: 0, block: { type: blockType, text: s.text } }))
      calls.forEach((id, k) => {
        chunks.push(this.chunk({ type: 'block-start', index: k + 1, blockType: 'tool-call' }))
        chunks.push(this.chunk({ type: 'tool-call-delta', index: k + 1, id, name: 'bash', argumentsDelta: '{"command":"ls"}' }))
        chunks.push(
          this.chunk({
            type: 'block-end',
            index: k + 1,
            block: { type: 'tool-call', id, name: 'bash', arguments: '{"command":"ls"}' },
          }),
        )
      })
      chunks.push(this.chunk({ type: 'usage', usage }))
      const reason = s.output === 'max-tokens' ? 'max-tokens' : calls.length > 0 ? 'tool-calls' : 'stop'
      chunks.push(this.chunk({ type: 'finish', reason: { kind: reason } }))
    }
    const seq = this.append(
      'assistant/message',
      {
        turn: this.turn,
        step: this.step,
        message: { id: this.id('a'), role: 'assistant', content, source: MODEL_SOURCE },
        usage,
      },
      chunks,
      calls.length > 0,
    )
    if (content.length === 0) this.derivesNothing.add(seq)
    step.usage = usage
    if (s.defect === 'user-between' && calls.length > 0) this.userMessage('between')
    const answered = s.defect === 'unanswered' ? calls.slice(0, -1) : calls
    for (const callId of answered) {
      const callSeq = this.add('tool/call', {
        turn: this.turn,
        step: this.step,
        callId,
        name: 'bash',
        arguments: '{"command":"ls"}',
      })
      this.append('tool/result', this.toolResultData(callId, s.resultSize), [callSeq], true)
    }
    if (s.defect === 'orphan') {
      const ghost = this.id('ghost')
      const callSeq = this.add('tool/call', { turn: this.turn, step: this.step, callId: ghost, name: 'bash', arguments: '{}' })
      this.append('tool/result', this.toolResultData(ghost, s.resultSize), [callSeq], true)
    }
    if (s.prune !== null) this.tracked(() => this.apply({ kind: 'prune', pick: s.prune! }))
  }
}
