/**
 * Why two runs' steps differ, in the issue's six words, and which kind a message of the request stands for. The
 * classification is by where a message comes from (its event type and `source.kind`), as a reader would say it:
 *
 * | kind           | a differing …                                                                                   |
 * | -------------- | ----------------------------------------------------------------------------------------------- |
 * | `user-message` | message a person wrote: `source.kind` `user`, `goal`, `skill-invocation`, `session-reference`   |
 * | `header`       | request header (config, system, tools, adapter defaults), or an instruction message the harness |
 * |                | injects in the system prompt's stead (`plugin` snapshots such as the runtime context,           |
 * |                | `agent-instructions`, `skill-catalog`, and any other source)                                    |
 * | `tool-result`  | tool result, or a message another session sent (`subagent-report`, `subagent-settled`,          |
 * |                | `coordinator`): the world answered differently                                                  |
 * | `model-output` | assistant message: the same request got another answer                                          |
 * | `surface-op`   | replacement (a compaction summary or a pruned tool result): one run compacted or pruned where   |
 * |                | the other did not, or they did it differently                                                   |
 * | `length`       | step one run has and the other has not: it stopped                                              |
 */

import { isRecord, type LogEvent } from '../model/log-event.ts'

export type DivergenceKind = 'user-message' | 'header' | 'tool-result' | 'model-output' | 'surface-op' | 'length'

/** The order kinds are listed in (`pairs[].kinds`): the issue's. */
export const DIVERGENCE_KINDS: readonly DivergenceKind[] = [
  'user-message',
  'header',
  'tool-result',
  'model-output',
  'surface-op',
  'length',
]

/**
 * Which kind names a difference when two messages at the same place are of different kinds: a replacement is the
 * cause wherever it stands, then what a person said, the instructions, the world's answer, the model's own.
 */
const PRECEDENCE: readonly DivergenceKind[] = ['surface-op', 'user-message', 'header', 'tool-result', 'model-output', 'length']

/** The kind that explains a difference between messages of kinds `a` and `b` (either may be absent). */
export function leadingKind(a: DivergenceKind | null, b: DivergenceKind | null): DivergenceKind {
  for (const kind of PRECEDENCE) if (a === kind || b === kind) return kind
  return 'length'
}

/** Kinds in the listing order, each once. */
export function sortKinds(kinds: Iterable<DivergenceKind>): DivergenceKind[] {
  const set = new Set(kinds)
  return DIVERGENCE_KINDS.filter((k) => set.has(k))
}

const PERSON = new Set(['user', 'goal', 'skill-invocation', 'session-reference'])
const OTHER_SESSION = new Set(['subagent-report', 'subagent-settled', 'coordinator'])

/** The kind a surface event's message stands for (the event is on the surface: it has a `surfaceOp`). */
export function messageKindOf(event: LogEvent | undefined): DivergenceKind {
  if (event === undefined) return 'header'
  const op = event.surfaceOp
  if (isRecord(op) && op['op'] === 'replace') return 'surface-op'
  if (event.type === 'assistant/message') return 'model-output'
  if (event.type === 'tool/result') return 'tool-result'
  const data = isRecord(event.data) ? event.data : {}
  const source = isRecord(data['source']) ? data['source'] : {}
  const kind = source['kind']
  // A compaction's checkpoint appended (not replacing) is still the compaction's doing.
  if (kind === 'plugin' && (source['plugin'] === 'compact' || typeof source['compactionId'] === 'string')) return 'surface-op'
  if (typeof kind === 'string' && PERSON.has(kind)) return 'user-message'
  if (typeof kind === 'string' && OTHER_SESSION.has(kind)) return 'tool-result'
  return 'header'
}
