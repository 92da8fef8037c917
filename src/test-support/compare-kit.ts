/**
 * For the comparison's tests: small runs written by hand as the agent loop writes them (`RunWriter`, each run with its
 * own ids and clock), twin generated runs loaded as `LensLog`s, and `mirrored`, what comparing B with A must give once
 * comparing A with B gave `c`.
 */

import {
  LensLog,
  type ComparedPair,
  type MessagePairDiff,
  type RequestComparison,
  type SessionComparison,
} from '../core/index.ts'
import { toJsonl } from '../generate/index.ts'
import { twinRuns, type TwinOptions, type TwinRuns } from '../generate/twin-runs.ts'

const encoder = new TextEncoder()

/** A log from its text, read as the CLI reads it (one push, then the end). */
export function loadText(text: string): LensLog {
  const log = new LensLog()
  log.push(encoder.encode(text))
  log.finish()
  return log
}

export interface LoadedTwins extends TwinRuns {
  readonly textA: string
  readonly textB: string
  readonly logA: LensLog
  readonly logB: LensLog
}

export function loadTwins(options: TwinOptions): LoadedTwins {
  const twins = twinRuns(options)
  const textA = toJsonl(twins.a)
  const textB = toJsonl(twins.b)
  return { ...twins, textA, textB, logA: loadText(textA), logB: loadText(textB) }
}

/* eslint-disable @typescript-eslint/no-explicit-any -- hand-written events are plain JSON */

/**
 * One run written by hand, event by event, with the harness's shapes: its ids carry `tag` (so two runs' ids differ
 * as two real runs' do) and its clock starts at `time` and ticks `tick` ms per event.
 */
export class RunWriter {
  private readonly lines: string[] = []
  private readonly data = new Map<number, any>()
  private seq = 0
  private time: number
  private turnNumber = 0
  private stepNumber = 0
  private ids = 0
  private headers = 0
  private readonly tick: number

  constructor(
    private readonly tag: string,
    options: { time?: number; tick?: number; header?: Record<string, unknown> } = {},
  ) {
    this.time = options.time ?? 1_790_000_000_000
    this.tick = options.tick ?? 5
    this.lines.push(
      JSON.stringify({
        type: 'session',
        version: 0,
        id: `session-${tag}`,
        createdAt: this.time,
        cwd: '/w',
        delegationDepth: 0,
        ...options.header,
      }),
    )
  }

  get nextSeq(): number {
    return this.seq
  }

  id(kind: string): string {
    return `${kind}-${this.tag}-${++this.ids}`
  }

  /** Let time pass (a model's latency, a tool's run). */
  wait(ms: number): this {
    this.time += ms
    return this
  }

  event(type: string, data: unknown, surfaceOp?: unknown, sourceEventSeqs?: readonly number[]): number {
    const seq = this.seq++
    this.time += this.tick
    this.data.set(seq, data)
    const sources = sourceEventSeqs === undefined ? {} : { sourceEventSeqs }
    this.lines.push(
      JSON.stringify({ type, seq, time: this.time, data, ...sources, ...(surfaceOp === undefined ? {} : { surfaceOp }) }),
    )
    return seq
  }

  /** Copy the first `count` events of `parent` verbatim (a fork's seed), then `session/end-seed`. */
  seed(parent: RunWriter, count: number): this {
    for (let i = 0; i < count; i++) {
      this.lines.push(parent.lines[i + 1] as string)
      this.data.set(i, parent.data.get(i))
    }
    this.seq = count
    this.turnNumber = parent.turnsBefore(count)
    this.event('session/end-seed', {})
    return this
  }

  private turnsBefore(count: number): number {
    let turns = 0
    for (let i = 1; i <= count; i++) if ((JSON.parse(this.lines[i] as string) as { type: string }).type === 'turn/start') turns++
    return turns
  }

  turn(): this {
    this.event('turn/start', { turn: ++this.turnNumber })
    this.stepNumber = 0
    return this
  }

  endTurn(reason = 'completed'): this {
    this.event('turn/end', { turn: this.turnNumber, reason: { kind: reason } })
    return this
  }

  step(): this {
    this.event('step/start', { turn: this.turnNumber, step: ++this.stepNumber })
    return this
  }

  endStep(): this {
    this.event('step/end', { turn: this.turnNumber, step: this.stepNumber })
    return this
  }

  user(text: string, source: Record<string, unknown> = { kind: 'user' }): number {
    return this.event(
      'user/message',
      { id: this.id('u'), role: 'user', content: [{ type: 'text', text }], source: { ...source } },
      'append',
    )
  }

  header(system = 'You are dsh.', model = 'deepseek-chat'): number {
    const seq = this.event('request/header', {
      header: { config: { provider: 'deepseek', model }, system, tools: [{ name: 'bash', description: 'run', inputSchema: {} }] },
      reason: this.headers++ === 0 ? 'initial' : 'change',
    })
    this.event('request/context', { provider: 'deepseek', model, contextWindow: 128_000 })
    return seq
  }

  /** An answer streamed in one delta (text, then tool calls), its usage, the message; returns its seq and call ids. */
  answer(
    text: string,
    calls: readonly { name: string; args: string }[] = [],
    usage: Record<string, number> = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50 },
  ): { seq: number; callIds: string[] } {
    const turn = this.turnNumber
    const step = this.stepNumber
    this.event('assistant/chunk', { turn, step, chunk: { type: 'text-delta', index: 0, text } })
    const callIds = calls.map(() => this.id('call'))
    const content = [
      { type: 'text', text },
      ...calls.map((c, k) => ({ type: 'tool-call', id: callIds[k], name: c.name, arguments: c.args })),
    ]
    const message = { id: this.id('a'), role: 'assistant', content, source: { kind: 'model', provider: 'deepseek', model: 'm' } }
    const seq = this.event('assistant/message', { turn, step, message, usage }, 'append')
    calls.forEach((c, k) => this.event('tool/call', { turn, step, callId: callIds[k], name: c.name, arguments: c.args }))
    return { seq, callIds }
  }

  result(callId: string, text: string, isError = false): number {
    return this.event(
      'tool/result',
      {
        turn: this.turnNumber,
        step: this.stepNumber,
        message: {
          id: this.id('t'),
          role: 'user',
          content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }], isError }],
          source: { kind: 'tool', callId },
        },
      },
      'append',
    )
  }

  /**
   * One turn of one step: the prompts, then `before` (a prune, a compaction...), the header (`system`), the answer.
   */
  exchange(
    prompts: string | readonly string[],
    answer: string,
    options: { source?: Record<string, unknown>; system?: string; before?: (w: RunWriter) => void } = {},
  ): this {
    this.turn().step()
    for (const prompt of typeof prompts === 'string' ? [prompts] : prompts) this.user(prompt, options.source)
    options.before?.(this)
    this.header(options.system)
    this.answer(answer)
    this.endStep().endTurn()
    return this
  }

  /** The tool-result pruner: `compaction/prune`, then the result at `seq` rewritten to `stub`. */
  prune(seq: number, stub: string): number {
    const original = this.data.get(seq)
    this.event('compaction/prune', { shadowedRange: { start: seq, end: seq }, shadowedSeqs: [seq], shadowedTokenCount: 100 })
    const block = original.message.content[0]
    const data = {
      ...original,
      message: { ...original.message, content: [{ ...block, content: [{ type: 'text', text: stub }] }] },
    }
    return this.event('tool/result', data, { op: 'replace', start: seq, end: seq }, [seq])
  }

  /** A summarizing compaction of the live range `start..end` (seqs) that shadows `shadowed`. */
  compact(start: number, end: number, shadowed: readonly number[], summary: string): number {
    const compactionId = this.id('compaction')
    const turn = this.turnNumber
    const startSeq = this.event('compaction/start', { compactionId, turn })
    const summarySeq = this.event('compaction/summary', {
      compactionId,
      summary: [{ type: 'text', text: summary }],
      shadowedRange: { start, end },
      shadowedSeqs: shadowed,
      shadowedTokenCount: 100,
      provider: 'deepseek',
      model: 'm',
    })
    const seq = this.event(
      'user/message',
      {
        id: this.id('u'),
        role: 'user',
        content: [{ type: 'text', text: summary }],
        source: { kind: 'plugin', plugin: 'compact', compactionId },
      },
      { op: 'replace', start, end },
      [startSeq, summarySeq, ...shadowed],
    )
    this.event('compaction/end', { compactionId, turn })
    return seq
  }

  text(): string {
    return this.lines.join('\n') + '\n'
  }

  /** The run as a log; one the harness would refuse is a mistake in the test, said at once. */
  log(): LensLog {
    const log = loadText(this.text())
    const errors = log.diagnostics.filter((d) => d.severity === 'error')
    if (errors.length > 0) throw new Error(`run ${this.tag} is no valid log: ${errors.map((d) => d.message).join('; ')}`)
    return log
  }
}

/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * A run of one turn, as most tests want one: the prompt, the header, an answer calling `ls` (800 ms), its result
 * (40 ms later), a final answer (500 ms); 15 events, the result at seq 8, the final answer at seq 12.
 */
export function listFilesRun(
  tag: string,
  options: { time?: number; result?: string; prompt?: string; final?: string } = {},
): RunWriter {
  const w = new RunWriter(tag, { time: options.time ?? 1_790_000_000_000 })
  w.turn().step()
  w.user(options.prompt ?? 'list the files')
  w.header()
  const { callIds } = w.wait(800).answer('Let me look.', [{ name: 'bash', args: '{"command":"ls"}' }])
  w.wait(40).result(callIds[0] as string, options.result ?? 'a.txt\nb.txt')
  w.endStep().step()
  w.wait(500).answer(options.final ?? 'There are two files.')
  w.endStep().endTurn()
  return w
}

/** The totals of `listFilesRun` (its default answers): each event ticks 5 ms, so step 1 answers 810 ms after its
 * request point and step 2 510 ms after its start, the tool takes 45 ms, the turn 1,410 ms. */
export const LIST_FILES_TOTALS = {
  turns: 1,
  steps: 2,
  toolCalls: [{ name: 'bash', calls: 1, failures: 0 }],
  inputTokens: 200,
  outputTokens: 20,
  cacheReadTokens: 100,
  cacheWriteTokens: null,
  compactions: 0,
  prunes: 0,
  modelMs: 810 + 510,
  toolMs: 45,
  wallMs: 1_410,
} as const

const swapText = (d: MessagePairDiff | null): MessagePairDiff | null =>
  d === null
    ? null
    : {
        index: d.index,
        aSeq: d.bSeq,
        bSeq: d.aSeq,
        // A minimal line diff removes from one side exactly what it adds to the other; which equal-cost script
        // Myers picks may differ, so the parts themselves are not mirrored.
        parts: d.parts === null ? null : [],
        removedLines: d.addedLines,
        addedLines: d.removedLines,
        beforeChars: d.afterChars,
        afterChars: d.beforeChars,
        clipped: d.clipped,
      }

const FIELD_SWAP: Record<string, string> = { 'tools-added': 'tools-removed', 'tools-removed': 'tools-added' }
const FIELD_ORDER = [
  'header',
  'provider',
  'model',
  'reasoningEffort',
  'config',
  'adapterDefaults',
  'system',
  'tools-added',
  'tools-removed',
  'tools-changed',
]

function mirroredDiff(d: RequestComparison | null): RequestComparison | null {
  if (d === null) return null
  return {
    firstDifference: d.firstDifference,
    appended: d.removed,
    removed: d.appended,
    replaced: d.replaced.map((r) => ({ a: r.b, b: r.a })),
    headerChanged: d.headerChanged
      .map((f) => (FIELD_SWAP[f] ?? f) as (typeof d.headerChanged)[number])
      .sort((x, y) => FIELD_ORDER.indexOf(x) - FIELD_ORDER.indexOf(y)),
    firstMessage: swapText(d.firstMessage),
    output:
      d.output === null
        ? null
        : {
            a: d.output.b,
            b: d.output.a,
            firstDifference: d.output.firstDifference,
            firstMessage: swapText(d.output.firstMessage),
          },
  }
}

const negated = (delta: ComparedPair['delta']): ComparedPair['delta'] =>
  Object.fromEntries(
    Object.entries(delta).map(([k, v]) => [k, v === null ? null : 0 - (v as number)]),
  ) as unknown as ComparedPair['delta']

/** What comparing B with A must give, from comparing A with B (the words of the first divergence aside). */
export function mirrored(c: SessionComparison): SessionComparison {
  return {
    fork: c.fork,
    firstDivergence:
      c.firstDivergence === null ? null : { ...c.firstDivergence, a: c.firstDivergence.b, b: c.firstDivergence.a, message: '' },
    pairs: c.pairs.map((p) => ({
      a: p.b,
      b: p.a,
      same: p.same,
      kinds: p.kinds,
      requestDiff: mirroredDiff(p.requestDiff),
      delta: negated(p.delta),
    })),
    totals: { a: c.totals.b, b: c.totals.a },
  }
}

/** `c` with what `mirrored` cannot mirror blanked the same way (the divergence's words, the text diffs' parts). */
export function comparable(c: SessionComparison): SessionComparison {
  return mirrored(mirrored(c))
}
