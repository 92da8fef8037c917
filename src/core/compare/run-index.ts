/**
 * One run, as the comparison reads it: its steps (where each request was taken, as the Request view places it), the
 * message keys of its surface nodes (message-key.ts: per-run ids left out), each step's request as a list of nodes
 * and the header in force, and each step's outcome (its assistant message and the results of its calls).
 *
 * Everything is computed when first asked for, over the `LensLog` the load made (nothing at load). Nodes are keyed in
 * entry order, once each, up to the newest node asked for, because a tool result is keyed by the call it answers and
 * that call's message entered before it. A request is the node list `nodesAfter` gives (the Request view's), so a
 * pair of requests compares as two arrays of numbers.
 */

import { DeriveOutcome } from '../fold/derive-message.ts'
import type { LensLog } from '../log/lens-log.ts'
import { isRecord, type LogEvent } from '../model/log-event.ts'
import { canonicalHeader } from '../request/request-header.ts'
import { firstNodeAfter, locateStep, stepSpans } from '../request/step-locate.ts'
import { stepTimings, type StepTiming } from '../timing/step-timing.ts'
import { messageKindOf, type DivergenceKind } from './divergence-kind.ts'
import { learnCalls, messageKey, valueKey, type CallKeys } from './message-key.ts'

export interface RunStep {
  /** Position over every step of the log, in log order (`locateStep`'s, `stepRequest`'s). */
  readonly position: number
  readonly turn: number
  readonly step: number
  /** Index of its turn among the log's turns: alignment pairs turns by order, not by their numbers. */
  readonly turnOrdinal: number
  readonly startIndex: number
  /** Event index of its end (`step/end` or the `turn/end` that closed it), null while open. */
  readonly endIndex: number | null
  /** The request is the surface after events `0..atIndex`. */
  readonly atIndex: number
  readonly atSeq: number
  readonly startSeq: number
}

/** A step's request, as keys: the header in force and the nodes that give the model a message, in model order. */
export interface RequestKeys {
  /** Event index of the `request/header` in force, -1 when none. */
  readonly headerIndex: number
  /** Its key, -1 when none. */
  readonly headerKey: number
  readonly nodes: Int32Array
}

const ASSISTANT = 1
const TOOL_RESULT = 2
const REPLACE = 4
const FAILED = 8

const KIND_CODES: readonly DivergenceKind[] = ['user-message', 'header', 'tool-result', 'model-output', 'surface-op', 'length']

/** Whether a `tool/result`'s data reports a failure: its block's `isError`, or the event's `error`. */
function failedResult(data: unknown): boolean {
  if (!isRecord(data)) return false
  if (isRecord(data['error'])) return true
  const message = data['message']
  const block = isRecord(message) && Array.isArray(message['content']) ? message['content'][0] : undefined
  return isRecord(block) && block['isError'] === true
}

/** The message an event puts on the surface, read as `deriveEventMessage` does but also for an empty assistant message. */
function messageOf(event: LogEvent | undefined): unknown {
  if (event === undefined || !isRecord(event.data)) return null
  if (event.type === 'assistant/message' || event.type === 'tool/result') return event.data['message'] ?? null
  return event.data
}

export class RunIndex {
  readonly steps: readonly RunStep[]
  private readonly keys: Float64Array
  private readonly kinds: Int8Array
  private readonly flags: Int8Array
  private keyedUpTo = 0
  private readonly calls: CallKeys = new Map()
  private readonly headers = new Map<number, { header: Record<string, unknown> | null; key: number }>()
  private timings: StepTiming[] | undefined

  constructor(readonly log: LensLog) {
    const spans = stepSpans(log)
    const ordinals: number[] = []
    log.turns.turns.forEach((t, i) => t.steps.forEach(() => ordinals.push(i)))
    this.steps = spans.map((span, position) => {
      const located = locateStep(log, position, spans)
      if (located === undefined) throw new Error(`step ${position} has no span`)
      return {
        position,
        turn: span.turn,
        step: span.step,
        turnOrdinal: ordinals[position] as number,
        startIndex: span.start,
        endIndex: span.end,
        atIndex: located.atIndex,
        atSeq: this.seqAt(located.atIndex),
        startSeq: this.seqAt(span.start),
      }
    })
    const nodes = log.fold.timeline.nodeCount
    this.keys = new Float64Array(nodes)
    this.kinds = new Int8Array(nodes)
    this.flags = new Int8Array(nodes)
  }

  /** Seq of event `index` as decoded (its index when the seq is malformed). */
  seqAt(index: number): number {
    if (this.log.seqIsIndex) return index
    const seq = this.log.seqOf(index)
    return typeof seq === 'number' ? seq : index
  }

  /** Seq of the last event, -1 for an empty log. */
  get lastSeq(): number {
    return this.log.length === 0 ? -1 : this.seqAt(this.log.length - 1)
  }

  nodeSeq(node: number): number {
    return this.log.fold.timeline.seqOf(node)
  }

  /** The node's message key (message-key.ts). */
  nodeKey(node: number): number {
    this.keyThrough(node)
    return this.keys[node] as number
  }

  nodeKind(node: number): DivergenceKind {
    this.keyThrough(node)
    return KIND_CODES[this.kinds[node] as number] as DivergenceKind
  }

  /** The message node `node` gives the model (parsed again: for text diffs, on demand). */
  nodeMessage(node: number): unknown {
    return messageOf(this.log.event(this.log.fold.timeline.indexOf(node)))
  }

  private keyThrough(node: number): void {
    const timeline = this.log.fold.timeline
    for (; this.keyedUpTo <= node; this.keyedUpTo++) {
      const n = this.keyedUpTo
      const event = this.log.event(timeline.indexOf(n))
      const message = messageOf(event)
      this.keys[n] = messageKey(message, this.calls)
      const kind = messageKindOf(event)
      this.kinds[n] = KIND_CODES.indexOf(kind)
      const op = event?.surfaceOp
      this.flags[n] =
        (event?.type === 'assistant/message' ? ASSISTANT : 0) |
        (event?.type === 'tool/result' ? TOOL_RESULT | (failedResult(event.data) ? FAILED : 0) : 0) |
        (isRecord(op) && op['op'] === 'replace' ? REPLACE : 0)
      if (event?.type === 'assistant/message') learnCalls(message, this.calls)
    }
  }

  /** The request of `step`: the header in force and the message nodes, exactly the Request view's messages. */
  request(step: RunStep): RequestKeys {
    const count = this.log.requestHeaders.countAtMost(step.atIndex)
    const headerIndex = count === 0 ? -1 : this.log.requestHeaders.get(count - 1)
    const all = this.log.nodesAfter(step.atIndex)
    let n = 0
    for (const node of all) if (this.log.nodeDerives(node) === DeriveOutcome.Message) all[n++] = node
    const nodes = all.subarray(0, n)
    let newest = -1
    for (const node of nodes) if (node > newest) newest = node
    this.keyThrough(newest)
    return { headerIndex, headerKey: headerIndex === -1 ? -1 : this.headerFact(headerIndex).key, nodes }
  }

  /** The canonical header of the `request/header` at event `index` (null when it carries none). */
  header(index: number): Record<string, unknown> | null {
    return index === -1 ? null : this.headerFact(index).header
  }

  private headerFact(index: number): { header: Record<string, unknown> | null; key: number } {
    let fact = this.headers.get(index)
    if (fact === undefined) {
      const header = canonicalHeader(this.log.event(index)?.data)
      fact = { header, key: header === null ? -1 : valueKey(header) }
      this.headers.set(index, fact)
    }
    return fact
  }

  /**
   * What the step produced: its assistant messages and the results of its calls (appended tool results, not
   * prunes), the surface nodes that entered after its request point up to its end, in entry order.
   */
  outcome(step: RunStep): number[] {
    const timeline = this.log.fold.timeline
    const last = step.endIndex ?? this.log.length - 1
    const out: number[] = []
    for (let node = firstNodeAfter(this.log, step.atIndex); node < timeline.nodeCount; node++) {
      if (timeline.indexOf(node) > last) break
      this.keyThrough(node)
      const flags = this.flags[node] as number
      if ((flags & REPLACE) === 0 && (flags & (ASSISTANT | TOOL_RESULT)) !== 0) out.push(node)
    }
    return out
  }

  /** Whether the `tool/result` at event `index` reports a failure (read with its node's key, not parsed again). */
  resultFailed(index: number): boolean {
    const node = this.log.fold.timeline.findNode(this.seqAt(index))
    if (node === -1 || this.log.fold.timeline.indexOf(node) !== index) return failedResult(this.log.event(index)?.data)
    this.keyThrough(node)
    return ((this.flags[node] as number) & FAILED) !== 0
  }

  /** The step's timing (src/core/timing), all steps computed at the first ask. */
  timing(step: RunStep): StepTiming | undefined {
    this.timings ??= stepTimings(this.log)
    return this.timings[step.position]
  }

  /** Whether a step is the last of its log (a run that ends there stopped). */
  isLast(step: RunStep): boolean {
    return step.position === this.steps.length - 1
  }
}
