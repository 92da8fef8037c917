/**
 * What a compaction forgot: for every replacement that is a compaction summary, the facts live at that point that
 * neither the summary's text nor a message still on the surface after it carries (fact-text.ts: a heuristic, said
 * as "not mentioned in the summary", never "lost"):
 * - `files`: paths named by a `file_path` or `path` argument of a tool call logged before the summary, matched by
 *   the path or by its file name;
 * - `todos`: the open items (not `completed`) of the latest `todo/write` before it;
 * - `goal`: the goal in force (the latest `goal/change`, unless cleared or complete) by its objective;
 * - `lastUserRequest`: the first line of the last human `user/message` (`source.kind` `user`) before it;
 * - `unansweredCalls`: calls with no `tool/result` logged yet whose assistant message the summary took off the
 *   surface (a later result for one of them answers nothing the model still sees).
 * Messages the compaction kept are checked too: the model still sees a file named by a call it kept.
 *
 * One pass over the surface nodes in log order for every summary; an event is parsed only when it can name a
 * file (an assistant message with tool calls) or a request (a user message), and for each summary the messages
 * it kept. Every path (and file name) the calls name is looked up in a summary's text in one pass over that text
 * (needle-index.ts), not one search per path: a log naming thousands of files over hundreds of summaries took seconds.
 */

import { deriveEventMessage } from '../fold/derive-message.ts'
import type { LensLog } from '../log/lens-log.ts'
import { isRecord } from '../model/log-event.ts'
import { estimateTokens } from '../model/token-estimate.ts'
import { loggedShadowedTokens } from '../series/context-series.ts'
import { FactText, fileNameOf, normalizeFact, stringsOf } from './fact-text.ts'
import { NeedleIndex } from './needle-index.ts'

export interface ForgottenFile {
  readonly path: string
  /** The last assistant message before the summary whose tool call named it. */
  readonly seq: number
}

export interface ForgottenTodo {
  readonly content: string
  readonly status: string
  /** The `todo/write` that listed it. */
  readonly seq: number
}

export interface ForgottenGoal {
  readonly objective: string
  readonly phase: string
  /** The `goal/change` that set it. */
  readonly seq: number
}

export interface ForgottenRequest {
  /** Its first line. */
  readonly text: string
  readonly seq: number
}

export interface ForgottenCall {
  readonly id: string
  readonly name: string
  /** The assistant message that made the call. */
  readonly seq: number
}

export interface Forgot {
  readonly files: ForgottenFile[]
  readonly todos: ForgottenTodo[]
  readonly goal: ForgottenGoal | null
  readonly lastUserRequest: ForgottenRequest | null
  readonly unansweredCalls: ForgottenCall[]
}

export interface CompactionForgot {
  /** The summary (the checkpoint `user/message` that replaced the range). */
  readonly seq: number
  readonly compactionId: string | null
  readonly shadowedSeqs: number[]
  /** Estimated tokens of the summary as the model receives it. */
  readonly summaryTokens: number
  /** Tokens it took off: the logged `shadowedTokenCount`, else our estimate of the messages it replaced. */
  readonly removedTokens: number
  readonly forgot: Forgot
}

const seqOf = (log: LensLog, index: number): number => {
  const seq = log.seqOf(index)
  return typeof seq === 'number' ? seq : index
}

function messageAt(log: LensLog, index: number): unknown {
  try {
    return deriveEventMessage(log.event(index))
  } catch {
    return null
  }
}

/** `file_path` / `path` arguments of a tool-call block (arguments as a JSON string, as the harness logs them). */
function pathsOf(block: Record<string, unknown>): string[] {
  let args = block['arguments']
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown
    } catch {
      return []
    }
  }
  if (!isRecord(args)) return []
  const out: string[] = []
  for (const key of ['file_path', 'path']) {
    const value = args[key]
    if (typeof value === 'string' && value.trim() !== '') out.push(value)
  }
  return out
}

function textOf(message: unknown): string {
  const content = isRecord(message) ? message['content'] : undefined
  if (!Array.isArray(content)) return ''
  return content
    .filter((b): b is Record<string, unknown> => isRecord(b) && b['type'] === 'text' && typeof b['text'] === 'string')
    .map((b) => b['text'] as string)
    .join('\n')
}

const firstLine = (text: string): string =>
  text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? ''

/** The latest `todo/write` / `goal/change` before event `index`, each as (event index, data). */
function stateBefore(log: LensLog, index: number): { todo?: number; goal?: number } {
  const out: { todo?: number; goal?: number } = {}
  for (let k = log.stateEvents.countAtMost(index - 1) - 1; k >= 0 && (out.todo === undefined || out.goal === undefined); k--) {
    const at = log.stateEvents.get(k)
    // The type kept per record: a log with todos and no goal is walked back to its start for every summary.
    const type = log.typeOf(at)
    if (type === 'todo/write') out.todo ??= at
    else if (type === 'goal/change') out.goal ??= at
  }
  return out
}

function todosAt(log: LensLog, at: number | undefined, carried: FactText): ForgottenTodo[] {
  if (at === undefined) return []
  const data = log.event(at)?.data
  const todos = isRecord(data) ? data['todos'] : undefined
  if (!Array.isArray(todos)) return []
  const out: ForgottenTodo[] = []
  for (const item of todos) {
    if (!isRecord(item) || typeof item['content'] !== 'string' || item['status'] === 'completed') continue
    if (carried.mentions(item['content'])) continue
    out.push({ content: item['content'], status: String(item['status']), seq: seqOf(log, at) })
  }
  return out
}

function goalAt(log: LensLog, at: number | undefined, carried: FactText): ForgottenGoal | null {
  if (at === undefined) return null
  const data = log.event(at)?.data
  if (!isRecord(data) || data['operation'] === 'clear' || !isRecord(data['goal'])) return null
  const { objective, phase } = data['goal']
  if (typeof objective !== 'string' || phase === 'complete' || carried.mentions(objective)) return null
  return { objective, phase: String(phase), seq: seqOf(log, at) }
}

/** The tool-call blocks of the assistant message at event `index`. */
function callBlocks(log: LensLog, index: number): Record<string, unknown>[] {
  const content = (messageAt(log, index) as { content?: unknown } | null)?.content
  return Array.isArray(content)
    ? content.filter((b): b is Record<string, unknown> => isRecord(b) && b['type'] === 'tool-call')
    : []
}

/** Each path the calls before event `until` name, as needles: its text and its file name, normalized as FactText does. */
function pathNeedles(log: LensLog, until: number): { index: NeedleIndex; byPath: Map<string, readonly [number, number]> } {
  const timeline = log.fold.timeline
  const index = new NeedleIndex()
  const byPath = new Map<string, readonly [number, number]>()
  for (let node = 0; node < timeline.nodeCount && timeline.indexOf(node) < until; node++) {
    const shape = log.wireShapes.get(node)
    if (!shape.assistant || shape.calls.length === 0) continue
    for (const block of callBlocks(log, timeline.indexOf(node)))
      for (const path of pathsOf(block))
        if (!byPath.has(path)) byPath.set(path, [index.add(normalizeFact(path)), index.add(normalizeFact(fileNameOf(path)))])
  }
  return { index, byPath }
}

/** Every compaction summary of the log, in log order, with what it forgot. */
export function compactionsForgot(log: LensLog): CompactionForgot[] {
  const timeline = log.fold.timeline
  const summaries = timeline.replacements
    .map((r, i) => ({ r, link: log.replacementLinks[i] }))
    .filter(({ link }) => link?.kind === 'summary')
  const needles = pathNeedles(log, summaries.at(-1)?.r.index ?? 0)
  const out: CompactionForgot[] = []
  /** Path -> the last call naming it so far (insertion order: first mention). */
  const files = new Map<string, number>()
  /** Calls without a result so far: id -> where. */
  const pending = new Map<string, { name: string; seq: number; node: number }>()
  let human: { text: string; seq: number } | null = null
  let node = 0
  for (const { r, link } of summaries) {
    for (; node < timeline.nodeCount && timeline.indexOf(node) < r.index; node++) {
      const shape = log.wireShapes.get(node)
      const index = timeline.indexOf(node)
      for (const id of shape.results) pending.delete(id)
      if (shape.assistant && shape.calls.length > 0) {
        for (const block of callBlocks(log, index)) {
          const seq = seqOf(log, index)
          for (const path of pathsOf(block)) files.set(path, seq)
          const id = block['id']
          if (typeof id === 'string' && id !== '')
            pending.set(id, { name: typeof block['name'] === 'string' ? block['name'] : '', seq, node })
        }
      } else if (shape.leadingUser && log.event(index)?.type === 'user/message') {
        const message = messageAt(log, index)
        const source = isRecord(message) ? message['source'] : undefined
        if (isRecord(source) && source['kind'] === 'user') human = { text: firstLine(textOf(message)), seq: seqOf(log, index) }
      }
    }
    const summaryNode = timeline.findNode(r.seq)
    const summary = messageAt(log, r.index)
    const kept = Array.from(log.nodesAfter(r.index)).filter((n) => n !== summaryNode)
    const keptNodes = new Set(kept)
    const carried = new FactText(stringsOf(summary), ...kept.map((n) => stringsOf(messageAt(log, timeline.indexOf(n)))))
    const state = stateBefore(log, r.index)
    const seen = carried.occurring(needles.index)
    /** `carried.mentionsPath(path)`, from the one pass over the text. */
    const mentioned = (path: string): boolean => {
      const [full, name] = needles.byPath.get(path) ?? [-1, -1]
      return (full >= 0 && seen[full] === 1) || (name >= 0 && seen[name] === 1)
    }
    const shadowed = new Set(r.shadowedSeqs)
    let estimate = 0
    for (const seq of r.shadowedSeqs) {
      const shadowedNode = timeline.findNode(seq)
      const message = shadowedNode < 0 ? null : messageAt(log, timeline.indexOf(shadowedNode))
      if (message !== null) estimate += estimateTokens(message)
    }
    out.push({
      seq: r.seq,
      compactionId: link?.compactionId ?? null,
      shadowedSeqs: [...r.shadowedSeqs],
      summaryTokens: summary === null ? 0 : estimateTokens(summary),
      removedTokens: loggedShadowedTokens(log, link, r.index) ?? estimate,
      forgot: {
        files: [...files].filter(([path]) => !mentioned(path)).map(([path, seq]) => ({ path, seq })),
        todos: todosAt(log, state.todo, carried),
        goal: goalAt(log, state.goal, carried),
        lastUserRequest: human === null || human.text === '' || carried.mentions(human.text) ? null : { ...human },
        unansweredCalls: [...pending]
          .filter(([, call]) => shadowed.has(call.seq) && !keptNodes.has(call.node))
          .map(([id, call]) => ({ id, name: call.name, seq: call.seq })),
      },
    })
  }
  return out
}
