/** Knobs of the generator, with defaults tuned to the shape of real sessions (~96% delta chunks). */

export interface GenerateOptions {
  readonly seed: number
  /** Keep adding whole turns until the log holds at least this many events. */
  readonly targetEvents: number
  readonly createdAt?: number
  /** A summarizing compaction every N turns (0: never). */
  readonly compactionEveryTurns?: number
  /** A tool-result prune every N turns (0: never). */
  readonly pruneEveryTurns?: number
  /** Tool results at least this big are prune candidates. */
  readonly pruneMinBytes?: number
  /** A turn that ends on an empty max-tokens step every N turns (0: never). */
  readonly maxTokensEveryTurns?: number
  /** A request/header change every N turns (0: never). */
  readonly headerChangeEveryTurns?: number
  readonly stepsPerTurn?: readonly [number, number]
  /** Median tokens in a step's reasoning block. */
  readonly reasoningTokens?: number
  /** Median tokens in a final answer. */
  readonly textTokens?: number
  readonly toolResultMedianBytes?: number
  readonly toolResultMaxBytes?: number
  /** Every N-th tool result is a huge one (0: never); a few of these keep multi-megabyte lines in the log. */
  readonly hugeToolResultEvery?: number
  readonly hugeToolResultBytes?: number
  /** assistant/message.sourceEventSeqs lists the step's chunk seqs (as the agent loop does) instead of []. */
  readonly chunkSources?: boolean
  /** Write-behind window: one batch (one zstd frame) per window. */
  readonly batchWindowMs?: number
  /** Pack delta runs into rows, as the harness does by default. */
  readonly pack?: boolean
  /** Most summaries nested inside one another (a summary swallowing a summary ...); 0: unbounded. */
  readonly compactionMaxDepth?: number
  /** Stop writing replacements (compactions and prunes) once this many were written, and end the session; 0: no cap. */
  readonly targetReplacements?: number
  /** Every N-th model request fails first (an empty response) and is retried after `llm/retry`'s delay (0: never). */
  readonly retryEverySteps?: number
  /** A step with several tool calls runs them at once: every `tool/call`, then the results as each finishes. */
  readonly parallelTools?: boolean
  /** Every N-th turn the wall clock jumps (back, or forward by minutes) at some point of a step (0: never). */
  readonly clockJumpEveryTurns?: number
  /** The session ends while its last tool call runs (a crash): that call is never answered, the turn stays open. */
  readonly endInToolCall?: boolean
}

export type ResolvedOptions = Required<GenerateOptions>

export function resolveOptions(options: GenerateOptions): ResolvedOptions {
  return {
    createdAt: 1_786_000_000_000,
    compactionEveryTurns: 30,
    pruneEveryTurns: 12,
    pruneMinBytes: 8_000,
    maxTokensEveryTurns: 50,
    headerChangeEveryTurns: 40,
    stepsPerTurn: [2, 8],
    reasoningTokens: 160,
    textTokens: 220,
    toolResultMedianBytes: 3_000,
    toolResultMaxBytes: 400_000,
    hugeToolResultEvery: 400,
    hugeToolResultBytes: 3_000_000,
    chunkSources: true,
    batchWindowMs: 200,
    pack: true,
    compactionMaxDepth: 0,
    targetReplacements: 0,
    retryEverySteps: 0,
    parallelTools: false,
    clockJumpEveryTurns: 0,
    endInToolCall: false,
    ...options,
  }
}
