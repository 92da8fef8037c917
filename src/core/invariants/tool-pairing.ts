/**
 * Tool calls and their results as a provider sees them on the model surface. Providers reject a
 * request whose tool result answers no earlier tool call, whose tool call has no id or reuses one,
 * and an assistant turn whose calls were never answered. The fold accepts all of these; a
 * compaction that shadows a tool call but not its result creates the first on its own, one that
 * shadows a result but not its call the last.
 *
 * Incremental over the fold's plans, linear in the log: each surface node is entered once and
 * shadowed at most once. Surface order is kept as a *position key* per live node: an append takes
 * its own seq (seqs increase), a replacement the key of the first node it swaps out, so comparing
 * keys compares positions on the surface (the surface timeline's slots, rebuilt from plans alone).
 */

import { prop, seqOrNull, show, type FindingSink } from './finding.ts'

export type SurfaceChange =
  | { readonly kind: 'append'; readonly seq: number }
  | { readonly kind: 'replace'; readonly seq: number; readonly shadowedSeqs: readonly number[] }

interface LiveNode {
  readonly key: number
  /** Tool-call ids of an assistant message (empty ids included). */
  readonly calls?: readonly string[]
  /** The call a tool result answers. */
  readonly answers?: string
}

interface CallSite {
  /** Position keys of the live assistant messages making this call. */
  readonly keys: number[]
  readonly seqs: number[]
}

const PROVIDER = 'a provider rejects the request built from this surface'

/** The tool-call ids in an assistant message's content, or [] for anything else. */
function toolCallIds(message: unknown): string[] {
  const content = prop(message, 'content')
  if (!Array.isArray(content)) return []
  const ids: string[] = []
  for (const block of content) {
    if (prop(block, 'type') !== 'tool-call') continue
    const id = prop(block, 'id')
    ids.push(typeof id === 'string' ? id : '')
  }
  return ids
}

/** The call a tool result answers: its tool-result block's `toolCallId`, else the source's `callId`. */
function answeredCall(message: unknown): string | undefined {
  const content = prop(message, 'content')
  const block = Array.isArray(content) ? content.find((b) => prop(b, 'type') === 'tool-result') : undefined
  const id = block !== undefined ? prop(block, 'toolCallId') : prop(prop(message, 'source'), 'callId')
  return typeof id === 'string' ? id : undefined
}

export class ToolPairing {
  /** Live surface nodes that carry tool calls or results, by seq. */
  private readonly live = new Map<number, LiveNode>()
  /** Position keys of live replacement nodes; an appended node's key is its seq (not stored). */
  private readonly keys = new Map<number, number>()
  private readonly calls = new Map<string, CallSite>()
  /** Live tool results by the call they answer. */
  private readonly results = new Map<string, Set<number>>()
  /** Results already reported as orphans (one warning each). */
  private readonly orphaned = new Set<number>()
  /** Calls made in each open step ("turn/step") and not answered yet: call id -> assistant seq. */
  private readonly unanswered = new Map<string, Map<string, number>>()

  constructor(private readonly sink: FindingSink) {}

  /** One event, with what the fold did with it (undefined: not on the surface, or refused). */
  observe(event: object, index: number, change: SurfaceChange | undefined): void {
    const type = (event as { type?: unknown }).type
    if (type !== 'step/end' && change === undefined) return
    const data = (event as { data?: unknown }).data
    if (type === 'step/end') {
      this.endStep(event, index, data)
      return
    }
    if (change === undefined) return
    const seq = change.seq
    let key = seq
    let lost: Set<string> | undefined
    let lostResults: Map<string, number> | undefined
    if (change.kind === 'replace') {
      const first = change.shadowedSeqs[0] as number
      key = this.keys.get(first) ?? first
      lostResults = new Map()
      lost = this.shadow(change.shadowedSeqs, lostResults)
    }
    if (key !== seq) this.keys.set(seq, key)
    if (type === 'assistant/message') this.enterCalls(prop(data, 'message'), data, seq, key, index)
    else if (type === 'tool/result') this.enterResult(prop(data, 'message'), data, seq, key, index)
    if (lost !== undefined && lost.size > 0) this.reportOrphansOf(lost, index, seq)
    // After the new node entered: a prune's rewritten result answers the same call again.
    if (lostResults !== undefined && lostResults.size > 0) this.reportUnansweredBy(lostResults, index, seq)
  }

  private finding(
    code: 'orphan-tool-result' | 'unanswered-tool-call' | 'tool-call-id-empty' | 'tool-call-id-duplicate',
    index: number,
    seq: number | null,
    message: string,
    detail: string,
  ): void {
    this.sink({ code, index, seq, message, detail })
  }

  private enterCalls(message: unknown, data: unknown, seq: number, key: number, index: number): void {
    const ids = toolCallIds(message)
    if (ids.length === 0) return
    this.live.set(seq, { key, calls: ids })
    const stepKey = `${show(prop(data, 'turn'))}/${show(prop(data, 'step'))}`
    for (const [i, id] of ids.entries()) {
      if (id === '') {
        this.finding(
          'tool-call-id-empty',
          index,
          seq,
          `assistant/message tool call #${i + 1} has an empty id`,
          `${PROVIDER}: a tool call needs an id, and no tool result can answer one without`,
        )
        continue
      }
      const site = this.calls.get(id)
      if (site !== undefined) {
        const where =
          site.seqs[0] === seq
            ? 'earlier in this message'
            : `in the assistant message at seq ${site.seqs[0] as number}, still on the surface`
        this.finding(
          'tool-call-id-duplicate',
          index,
          seq,
          `tool call id ${id} is used again: it is already ${where}`,
          `${PROVIDER}: tool-call ids must be unique, or a result cannot say which call it answers`,
        )
      }
      if (site === undefined) this.calls.set(id, { keys: [key], seqs: [seq] })
      else {
        site.keys.push(key)
        site.seqs.push(seq)
      }
      let pending = this.unanswered.get(stepKey)
      if (pending === undefined) this.unanswered.set(stepKey, (pending = new Map()))
      if (!pending.has(id)) pending.set(id, seq)
    }
  }

  private enterResult(message: unknown, data: unknown, seq: number, key: number, index: number): void {
    const id = answeredCall(message)
    if (id === undefined) return
    this.live.set(seq, { key, answers: id })
    let set = this.results.get(id)
    if (set === undefined) this.results.set(id, (set = new Set()))
    set.add(seq)
    this.unanswered.get(`${show(prop(data, 'turn'))}/${show(prop(data, 'step'))}`)?.delete(id)
    if (!this.hasEarlierCall(id, key)) {
      this.orphaned.add(seq)
      this.finding(
        'orphan-tool-result',
        index,
        seq,
        `tool/result for call ${id} has no tool call with that id in an earlier assistant message on the surface`,
        `${PROVIDER}: a tool result must follow the assistant message that made its call`,
      )
    }
  }

  private hasEarlierCall(id: string, key: number): boolean {
    const site = this.calls.get(id)
    return site !== undefined && site.keys.some((k) => k < key)
  }

  /**
   * Nodes leaving the surface: their calls and results stop counting. Returns the call ids that lost a site;
   * `lostResults` gets each call id whose result left, with that result's seq.
   */
  private shadow(seqs: readonly number[], lostResults: Map<string, number>): Set<string> {
    const lost = new Set<string>()
    for (const s of seqs) {
      this.keys.delete(s)
      const node = this.live.get(s)
      if (node === undefined) continue
      this.live.delete(s)
      if (node.answers !== undefined) {
        const set = this.results.get(node.answers)
        set?.delete(s)
        if (set?.size === 0) this.results.delete(node.answers)
        this.orphaned.delete(s)
        lostResults.set(node.answers, s)
      }
      for (const id of node.calls ?? []) {
        const site = this.calls.get(id)
        const at = site?.seqs.indexOf(s) ?? -1
        if (site === undefined || at < 0) continue
        site.seqs.splice(at, 1)
        site.keys.splice(at, 1)
        if (site.seqs.length === 0) this.calls.delete(id)
        lost.add(id)
      }
    }
    return lost
  }

  /** After a replacement: results still on the surface whose call it took off. */
  private reportOrphansOf(lost: Set<string>, index: number, seq: number): void {
    for (const id of lost) {
      for (const result of this.results.get(id) ?? []) {
        const node = this.live.get(result)
        if (node === undefined || this.orphaned.has(result) || this.hasEarlierCall(id, node.key)) continue
        this.orphaned.add(result)
        this.finding(
          'orphan-tool-result',
          index,
          seq,
          `the tool/result at seq ${result} (call ${id}) stays on the surface, but this replacement took the assistant message that made the call off it`,
          `${PROVIDER}: a tool result must follow the assistant message that made its call; a compaction range should hold a call and its results together`,
        )
      }
    }
  }

  /** After a replacement: calls still on the surface whose only result it took off (a step's end checked them before). */
  private reportUnansweredBy(lostResults: Map<string, number>, index: number, seq: number): void {
    for (const [id, resultSeq] of lostResults) {
      const site = this.calls.get(id)
      if (site === undefined || (this.results.get(id)?.size ?? 0) > 0) continue
      this.finding(
        'unanswered-tool-call',
        index,
        seq,
        `this replacement took the tool/result at seq ${resultSeq} (call ${id}) off the surface, but the assistant message at seq ${site.seqs[0] as number} that made the call stays on it`,
        `${PROVIDER}: every tool call must be answered by a tool result; a compaction range should hold a call and its results together`,
      )
    }
  }

  private endStep(event: unknown, index: number, data: unknown): void {
    const stepKey = `${show(prop(data, 'turn'))}/${show(prop(data, 'step'))}`
    const pending = this.unanswered.get(stepKey)
    if (pending === undefined) return
    this.unanswered.delete(stepKey)
    const seq = seqOrNull(event)
    for (const [id, callSeq] of pending) {
      // A call a compaction has already taken off the surface is not sent any more: nothing to answer.
      if (!(this.calls.get(id)?.seqs.includes(callSeq) ?? false)) continue
      this.finding(
        'unanswered-tool-call',
        index,
        seq,
        `tool call ${id} (assistant message at seq ${callSeq}) has no tool/result when step ${stepKey} ends`,
        `${PROVIDER}: every tool call must be answered by a tool result before the next assistant message`,
      )
    }
  }
}
