/**
 * The provider rules every step's request breaks (the codes of `requestRejections`), for all steps of a log in
 * one pass. Building each request to check it would cost O(steps x surface), and finding each step's surface alone
 * is O(slots created so far) (`nodesAfter`); instead the surface is replayed once, node by node in entry order,
 * from the wire shapes LensLog recorded, and each rule's state is kept up to date as nodes enter and leave:
 *
 * - pairing is local: a run of tool messages pairs only with the assistant message right before it. An append
 *   touches the run at the tail; a replacement re-judges the run it lands in, from that run's assistant message to
 *   the next message that starts a run of its own. A prune (one tool result for one with the same ids) pairs as
 *   the result it replaced, so it only moves that result's state;
 * - ids and surrogates are per node: counts over the live nodes.
 *
 * A request breaks a rule when some live node breaks it, so a step's codes are read off the counts.
 */

import type { LensLog } from '../log/lens-log.ts'
import { REJECTION_CODES, type RejectionCode } from './request-rejections.ts'
import { isToolRun, samePairing, type WireShape } from './wire-shape.ts'

const NONE = -1

/** Whether a node's shape puts anything on the wire: exactly the nodes that derive a message. */
const onWire = (shape: WireShape) => shape.assistant || shape.leadingUser || shape.results.length > 0

class SweepState {
  private readonly prev: Int32Array
  private readonly next: Int32Array
  private head = NONE
  private tail = NONE
  /** Per node: results with no call right before them; calls with no result right after them. */
  private readonly orphans: Int32Array
  private readonly unanswered: Int32Array
  /** Live nodes that give the model a message. */
  messages = 0
  private orphanNodes = 0
  private unansweredNodes = 0
  private emptyNodes = 0
  private surrogateNodes = 0
  /** Live call ids, counting repeats; how many of them are made more than once. */
  private readonly idCounts = new Map<string, number>()
  private duplicateIds = 0
  /** Calls of a live assistant message not answered (yet) by the run after it. */
  private readonly pending = new Map<number, Set<string>>()
  /** The assistant message whose run of tool messages reaches the tail of the surface, or NONE. */
  private tailGroup = NONE

  constructor(
    nodeCount: number,
    private readonly shape: (node: number) => WireShape,
  ) {
    this.prev = new Int32Array(nodeCount).fill(NONE)
    this.next = new Int32Array(nodeCount).fill(NONE)
    this.orphans = new Int32Array(nodeCount)
    this.unanswered = new Int32Array(nodeCount)
  }

  codes(): RejectionCode[] {
    const on: Record<RejectionCode, boolean> = {
      'orphan-tool-result': this.orphanNodes > 0,
      'unanswered-tool-call': this.unansweredNodes > 0,
      'tool-call-id-empty': this.emptyNodes > 0,
      'tool-call-id-duplicate': this.duplicateIds > 0,
      'lone-surrogate': this.surrogateNodes > 0,
    }
    return REJECTION_CODES.filter((code) => on[code])
  }

  append(node: number): void {
    this.link(node, this.tail, NONE)
    this.enter(node)
    const shape = this.shape(node)
    if (shape.assistant) this.openGroup(node)
    else if (shape.leadingUser) {
      this.tailGroup = NONE
      this.setOrphans(node, shape.results.length)
    } else if (shape.results.length > 0) this.setOrphans(node, this.answer(this.tailGroup, shape.results))
  }

  /** `node` takes the place of the live run `shadowed` (contiguous, in surface order). */
  replace(node: number, shadowed: readonly number[]): void {
    const first = shadowed[0] as number
    const last = shadowed.at(-1) as number
    const before = this.prev[first] as number
    const after = this.next[last] as number
    if (shadowed.length === 1 && samePairing(this.shape(first), this.shape(node))) {
      // A prune: the rewritten result pairs exactly as the one it replaces, so it takes over its state.
      const wasTail = this.tailGroup === first
      this.leave(first)
      this.link(node, before, after)
      this.enter(node)
      this.setOrphans(node, this.orphans[first] as number)
      this.setOrphans(first, 0)
      this.setUnanswered(node, this.unanswered[first] as number)
      this.setUnanswered(first, 0)
      const pending = this.pending.get(first)
      if (pending !== undefined) {
        this.pending.delete(first)
        this.pending.set(node, pending)
      }
      if (wasTail) this.tailGroup = node
      return
    }
    for (const gone of shadowed) {
      this.leave(gone)
      this.setOrphans(gone, 0)
      this.setUnanswered(gone, 0)
      this.pending.delete(gone)
    }
    this.link(node, before, after)
    this.enter(node)
    this.rejudge(before, node)
  }

  /** Re-judge pairing from the run `before` belongs to through the run the new node `changed` starts or joins. */
  private rejudge(before: number, changed: number): void {
    let start = before
    while (start !== NONE) {
      const shape = this.shape(start)
      if (shape.assistant || shape.leadingUser) break
      start = this.prev[start] as number
    }
    let group = NONE
    let node: number
    if (start === NONE) node = this.head
    else {
      // A user message before the change keeps its own orphans: nothing before it pairs with what follows.
      if (this.shape(start).assistant) group = this.resetGroup(start)
      node = this.next[start] as number
    }
    let passed = false
    for (; node !== NONE; node = this.next[node] as number) {
      const shape = this.shape(node)
      const startsRun = shape.assistant || shape.leadingUser
      if (passed && startsRun) {
        this.closeGroup(group)
        return
      }
      if (node === changed) passed = true
      if (shape.assistant) {
        this.closeGroup(group)
        group = this.resetGroup(node)
      } else if (shape.leadingUser) {
        this.closeGroup(group)
        group = NONE
        this.setOrphans(node, shape.results.length)
      } else if (isToolRun(shape)) this.setOrphans(node, this.answer(group, shape.results))
    }
    this.closeGroup(group)
    this.tailGroup = group
  }

  private openGroup(node: number): void {
    this.tailGroup = this.resetGroup(node)
  }

  /** Start judging the run of assistant message `node` afresh: every call pending. */
  private resetGroup(node: number): number {
    const pending = new Set<string>()
    for (const id of this.shape(node).calls) if (id !== '') pending.add(id)
    this.pending.set(node, pending)
    this.setUnanswered(node, pending.size)
    return node
  }

  private closeGroup(group: number): void {
    if (group !== NONE) this.setUnanswered(group, this.pending.get(group)?.size ?? 0)
  }

  /** Answer `results` from the run of `group`; returns how many answer no call of it. */
  private answer(group: number, results: readonly string[]): number {
    if (group === NONE) return results.length
    const calls = this.shape(group).calls
    const pending = this.pending.get(group)
    let orphans = 0
    for (const id of results) {
      if (id === '' || !calls.includes(id)) orphans++
      else pending?.delete(id)
    }
    this.setUnanswered(group, pending?.size ?? 0)
    return orphans
  }

  private setOrphans(node: number, count: number): void {
    const was = this.orphans[node] as number
    if (was > 0 !== count > 0) this.orphanNodes += count > 0 ? 1 : -1
    this.orphans[node] = count
  }

  private setUnanswered(node: number, count: number): void {
    const was = this.unanswered[node] as number
    if (was > 0 !== count > 0) this.unansweredNodes += count > 0 ? 1 : -1
    this.unanswered[node] = count
  }

  /** Per-node counts as a node joins the surface. */
  private enter(node: number): void {
    const shape = this.shape(node)
    if (onWire(shape)) this.messages++
    if (shape.surrogate !== undefined) this.surrogateNodes++
    let empty = false
    for (const id of shape.calls) {
      if (id === '') {
        empty = true
        continue
      }
      const count = (this.idCounts.get(id) ?? 0) + 1
      this.idCounts.set(id, count)
      if (count === 2) this.duplicateIds++
    }
    if (empty) this.emptyNodes++
  }

  private leave(node: number): void {
    const shape = this.shape(node)
    if (onWire(shape)) this.messages--
    if (shape.surrogate !== undefined) this.surrogateNodes--
    let empty = false
    for (const id of shape.calls) {
      if (id === '') {
        empty = true
        continue
      }
      const count = (this.idCounts.get(id) ?? 0) - 1
      if (count === 1) this.duplicateIds--
      if (count <= 0) this.idCounts.delete(id)
      else this.idCounts.set(id, count)
    }
    if (empty) this.emptyNodes--
    if (this.tailGroup === node) this.tailGroup = NONE
  }

  private link(node: number, before: number, after: number): void {
    this.prev[node] = before
    this.next[node] = after
    if (before === NONE) this.head = node
    else this.next[before] = node
    if (after === NONE) this.tail = node
    else this.prev[after] = node
  }
}

export interface SweptRequest {
  /** The codes of the rules the request breaks, in REJECTION_CODES order; [] when none. */
  readonly rejected: RejectionCode[]
  /** Messages in the request. */
  readonly messageCount: number
}

/** For each of `atIndexes` (any order; a step's request point), the request built after events `0..atIndex`. */
export function sweepRequests(log: LensLog, atIndexes: readonly number[]): SweptRequest[] {
  const timeline = log.fold.timeline
  const state = new SweepState(timeline.nodeCount, (node) => log.wireShapes.get(node))
  const order = atIndexes.map((_, i) => i).sort((a, b) => (atIndexes[a] as number) - (atIndexes[b] as number))
  const out = new Array<SweptRequest>(atIndexes.length)
  let node = 0
  let replacement = 0
  for (const i of order) {
    const at = atIndexes[i] as number
    for (; node < timeline.nodeCount && timeline.indexOf(node) <= at; node++) {
      const r = timeline.replacements[replacement]
      if (r !== undefined && r.index === timeline.indexOf(node)) {
        replacement++
        state.replace(
          node,
          r.shadowedSeqs.map((seq) => timeline.findNode(seq)),
        )
      } else state.append(node)
    }
    out[i] = { rejected: state.codes(), messageCount: state.messages }
  }
  return out
}
