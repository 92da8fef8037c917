/**
 * The model surface over time, in a structure that answers both "what is the
 * surface now" (for folding the next event) and "what was it after event i"
 * (for the timeline scrubber) without refolding.
 *
 * Every surface node is recorded once, with the event index at which it entered
 * and the replacement node that shadowed it. Nodes also get a *slot*: an append
 * takes a fresh slot at the end, a replacement inherits the slot of the first
 * node of the range it swaps out. Because a replaced range is contiguous, the
 * live nodes are always in slot order, at every point in time. So:
 *
 * - the current surface is a doubly linked list of live nodes (O(1) append,
 *   O(k) replace of k nodes, O(1) membership), never an `indexOf` scan;
 * - the surface after event i is, for each slot created by then, the one
 *   occupant alive at i: one pass over the slots, no replay.
 *
 * Node ids are entry order; since accepted seqs strictly increase, node seqs are
 * sorted and a seq is found by binary search.
 */

import { Float64Vector, Int32Vector } from '../model/growable-array.ts'

const NONE = -1

export interface Replacement {
  /** Seq of the replacing event. */
  readonly seq: number
  /** Position of the replacing event in the decoded event list. */
  readonly index: number
  /** The declared range, `surfaceOp.start` and `surfaceOp.end`. */
  readonly start: number
  readonly end: number
  /** The surface nodes the replacement swapped out, in surface order. */
  readonly shadowedSeqs: readonly number[]
  /** The event's `sourceEventSeqs`, as validated by the fold. */
  readonly sourceEventSeqs: readonly number[]
}

export class SurfaceTimeline {
  private readonly nodeSeq = new Float64Vector(256)
  private readonly nodeIndex = new Int32Vector(256)
  private readonly nodeSlot = new Int32Vector(256)
  private readonly nodeShadowedBy = new Int32Vector(256)
  private readonly nodePrev = new Int32Vector(256)
  private readonly nodeNext = new Int32Vector(256)
  private readonly nodeNextInSlot = new Int32Vector(256)
  private readonly slotCreatedAt = new Int32Vector(256)
  private readonly slotHead = new Int32Vector(256)
  private readonly slotTail = new Int32Vector(256)
  private head = NONE
  private tail = NONE
  private live = 0
  private generation = 0
  readonly replacements: Replacement[] = []
  /** Event index of each replacement, sorted, for "replacements up to i". */
  private readonly replacementIndex = new Int32Vector(64)

  /** Number of nodes currently on the surface. */
  get size(): number {
    return this.live
  }

  /** Number of replace operations folded (the harness's `replaceGeneration`). */
  get replaceGeneration(): number {
    return this.generation
  }

  /** Number of surface nodes ever entered. */
  get nodeCount(): number {
    return this.nodeSeq.length
  }

  /** Node id of `seq` if it is on the current surface, else -1. */
  liveNode(seq: number): number {
    const node = this.nodeSeq.indexOfSorted(seq)
    return node !== NONE && this.nodeShadowedBy.get(node) === NONE ? node : NONE
  }

  /** Node id of `seq` whether live or shadowed, else -1. */
  findNode(seq: number): number {
    return this.nodeSeq.indexOfSorted(seq)
  }

  /** Whether live node `a` comes after live node `b` in surface order. */
  isAfter(a: number, b: number): boolean {
    return this.nodeSlot.get(a) > this.nodeSlot.get(b)
  }

  /** Position of a live node in the current surface. O(n): only for error texts. */
  liveIndexOf(node: number): number {
    let i = 0
    for (let n = this.head; n !== NONE; n = this.nodeNext.get(n), i++) if (n === node) return i
    return NONE
  }

  /** Live nodes from `first` through `last` inclusive, in surface order. */
  rangeSeqs(first: number, last: number): number[] {
    const seqs: number[] = []
    for (let n = first; ; n = this.nodeNext.get(n)) {
      seqs.push(this.nodeSeq.get(n))
      if (n === last) return seqs
    }
  }

  /** Fold an append: the node joins the tail of the surface. */
  append(seq: number, index: number): void {
    const node = this.addNode(seq, index, this.newSlot(index))
    this.link(node, this.tail, NONE)
  }

  /**
   * Fold a replace of the live range `first..last` (already validated): the range
   * leaves the surface and one node takes its place and its first slot.
   */
  replace(seq: number, index: number, first: number, last: number, start: number, end: number, sources: number[]): void {
    const before = this.nodePrev.get(first)
    const after = this.nodeNext.get(last)
    const shadowedSeqs: number[] = []
    const node = this.addNode(seq, index, this.nodeSlot.get(first))
    for (let n = first; ;) {
      const next = this.nodeNext.get(n)
      shadowedSeqs.push(this.nodeSeq.get(n))
      this.nodeShadowedBy.set(n, node)
      this.live--
      if (n === last) break
      n = next
    }
    this.link(node, before, after)
    this.generation++
    this.replacements.push({ seq, index, start, end, shadowedSeqs, sourceEventSeqs: sources })
    this.replacementIndex.push(index)
  }

  /** Seqs of the current surface, in model order. */
  currentSeqs(): number[] {
    const seqs: number[] = []
    for (let n = this.head; n !== NONE; n = this.nodeNext.get(n)) seqs.push(this.nodeSeq.get(n))
    return seqs
  }

  /**
   * Node ids on the surface after folding events `0..index` (index -1: before any
   * event), in model order.
   */
  nodesAfter(index: number): Int32Array {
    const slots = this.slotCreatedAt.countAtMost(index)
    const out = new Int32Array(Math.min(slots, this.nodeSeq.length))
    let count = 0
    for (let s = 0; s < slots; s++) {
      for (let n = this.slotHead.get(s); n !== NONE; n = this.nodeNextInSlot.get(n)) {
        if (this.nodeIndex.get(n) > index) break
        const by = this.nodeShadowedBy.get(n)
        if (by === NONE || this.nodeIndex.get(by) > index) {
          out[count++] = n
          break
        }
      }
    }
    return out.subarray(0, count)
  }

  /** Number of replacements folded at or before event `index`. */
  replacementsAfter(index: number): number {
    return this.replacementIndex.countAtMost(index)
  }

  seqOf(node: number): number {
    return this.nodeSeq.get(node)
  }

  indexOf(node: number): number {
    return this.nodeIndex.get(node)
  }

  /** The replacing node that shadowed `node`, or -1 while it is (or was never) shadowed. */
  shadowedBy(node: number): number {
    return this.nodeShadowedBy.get(node)
  }

  /** Bytes held by the typed arrays, for the memory benchmark. */
  get byteLength(): number {
    return [
      this.nodeSeq,
      this.nodeIndex,
      this.nodeSlot,
      this.nodeShadowedBy,
      this.nodePrev,
      this.nodeNext,
      this.nodeNextInSlot,
      this.slotCreatedAt,
      this.slotHead,
      this.slotTail,
      this.replacementIndex,
    ].reduce((sum, v) => sum + v.byteLength, 0)
  }

  private newSlot(index: number): number {
    this.slotHead.push(NONE)
    this.slotTail.push(NONE)
    return this.slotCreatedAt.push(index)
  }

  private addNode(seq: number, index: number, slot: number): number {
    const node = this.nodeSeq.push(seq)
    this.nodeIndex.push(index)
    this.nodeSlot.push(slot)
    this.nodeShadowedBy.push(NONE)
    this.nodePrev.push(NONE)
    this.nodeNext.push(NONE)
    this.nodeNextInSlot.push(NONE)
    const tail = this.slotTail.get(slot)
    if (tail === NONE) this.slotHead.set(slot, node)
    else this.nodeNextInSlot.set(tail, node)
    this.slotTail.set(slot, node)
    return node
  }

  private link(node: number, before: number, after: number): void {
    this.nodePrev.set(node, before)
    this.nodeNext.set(node, after)
    if (before === NONE) this.head = node
    else this.nodeNext.set(before, node)
    if (after === NONE) this.tail = node
    else this.nodePrev.set(after, node)
    this.live++
  }
}
