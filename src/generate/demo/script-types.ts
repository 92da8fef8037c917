/** The shape of a scripted demo conversation: what the user asks, what the model says and does, and when context is maintained. */

export interface Todo {
  readonly content: string
  readonly status: 'pending' | 'in_progress' | 'completed'
}

export interface ToolCallSpec {
  readonly name: string
  readonly args: Readonly<Record<string, unknown>>
  /** The tool's output text (for a subagent call: filled in from the child's final answer). */
  readonly result?: string
  /** How long the tool runs, in ms. */
  readonly runtimeMs?: number
  /** A name a later prune refers to. */
  readonly key?: string
  /** todo_write: the list it writes as `todo/write`. */
  readonly todos?: readonly Todo[]
  /** subagent: the child session this call runs. */
  readonly subagent?: ChildSpec
}

export interface ModelStepSpec {
  readonly reasoning: string
  readonly text?: string
  readonly calls?: readonly ToolCallSpec[]
}

/** A request that ran out of output tokens: an empty message hosting the usage; the turn ends there. */
export interface MaxTokensStepSpec {
  readonly maxTokens: true
}

export type StepSpec = ModelStepSpec | MaxTokensStepSpec

/** A summarizing compaction from the head of the surface, keeping the last `keepUnits` units verbatim. */
export interface CompactionSpec {
  readonly keepUnits: number
  readonly summary: string
}

/** A tool-result prune of an earlier call's output, rewritten to `note`. */
export interface PruneSpec {
  readonly key: string
  readonly note: string
}

export interface TurnSpec {
  readonly prompt: string
  /** `/compact` typed before this turn's prompt. */
  readonly manualCompactBefore?: CompactionSpec
  /** Automatic context maintenance before the turn's first request. */
  readonly compact?: CompactionSpec
  readonly prune?: PruneSpec
  readonly steps: readonly StepSpec[]
}

/** A one-shot subagent: one turn, its final text is the parent's tool result. */
export interface ChildSpec {
  readonly label: string
  readonly prompt: string
  readonly steps: readonly ModelStepSpec[]
}

export interface ToolSchema {
  readonly name: string
  readonly description: string
  readonly inputSchema: unknown
}
