/**
 * One aligned pair of steps, compared: their requests (the header in force, the messages as keys), then, when the
 * requests are equal, what each step produced (its answer and its calls' results). From that: whether the pair is the
 * same, every kind of difference it holds, and the one that leads (why it differs first, and where on each side).
 *
 * Two requests are read as a common prefix, a common suffix and a middle: the messages of one middle that the other
 * middle does not hold (as a multiset of keys) are the ones that differ. It is O(messages), and symmetric: comparing B
 * with A finds the same messages, sides swapped.
 */

import type { AlignedPair } from './align.ts'
import { leadingKind, sortKinds, type DivergenceKind } from './divergence-kind.ts'
import type { RequestKeys, RunIndex, RunStep } from './run-index.ts'

/** Where a run stands at a divergence: an event's seq, and its step (null for a run with no step at all). */
export interface SidePoint {
  readonly seq: number
  readonly turn: number | null
  readonly step: number | null
}

/** What leads a pair's difference, for the words: which side holds a replacement, which side stopped. */
export interface Lead {
  readonly kind: DivergenceKind
  readonly a: SidePoint
  readonly b: SidePoint
  /** Whether the leading message is missing on one side (it has fewer messages, or stopped). */
  readonly missing: 'a' | 'b' | null
  /** For `surface-op`: which side's message at that place is a replacement. */
  readonly replacedOn: 'a' | 'b' | 'both' | null
  /** The lead is in the steps' outcomes (equal requests), not in their requests. */
  readonly inOutcome: boolean
}

/** The middle of two requests: positions of the messages only one side holds. */
export interface MessageMiddle {
  readonly prefix: number
  readonly suffix: number
  readonly onlyA: number[]
  readonly onlyB: number[]
}

/** Everything compared for one pair, kept so the detailed diff (request-diff.ts) need not compare again. */
export interface PairFacts {
  readonly pair: AlignedPair
  readonly same: boolean
  readonly kinds: DivergenceKind[]
  readonly lead: Lead | null
  /** Both present: the requests and their middle; the outcomes when the requests are equal. */
  readonly requests: { readonly a: RequestKeys; readonly b: RequestKeys; readonly middle: MessageMiddle } | null
  readonly outcomes: { readonly a: number[]; readonly b: number[]; readonly firstDifference: number | null } | null
}

const keysOf = (run: RunIndex, nodes: ArrayLike<number>): number[] => Array.from(nodes, (n) => run.nodeKey(n))

/** Prefix, suffix, and the messages of each middle with no equal message in the other middle. */
export function messageMiddle(ka: readonly number[], kb: readonly number[]): MessageMiddle {
  const shorter = Math.min(ka.length, kb.length)
  let prefix = 0
  while (prefix < shorter && ka[prefix] === kb[prefix]) prefix++
  let suffix = 0
  while (suffix < shorter - prefix && ka[ka.length - 1 - suffix] === kb[kb.length - 1 - suffix]) suffix++
  const unmatched = (mine: readonly number[], mineEnd: number, theirs: readonly number[], theirEnd: number): number[] => {
    const counts = new Map<number, number>()
    for (let i = prefix; i < theirEnd; i++) counts.set(theirs[i] as number, (counts.get(theirs[i] as number) ?? 0) + 1)
    const out: number[] = []
    for (let i = prefix; i < mineEnd; i++) {
      const left = counts.get(mine[i] as number) ?? 0
      if (left > 0) counts.set(mine[i] as number, left - 1)
      else out.push(i)
    }
    return out
  }
  const endA = ka.length - suffix
  const endB = kb.length - suffix
  return { prefix, suffix, onlyA: unmatched(ka, endA, kb, endB), onlyB: unmatched(kb, endB, ka, endA) }
}

/** The first position where two key lists differ (or where the shorter ends), null when equal. */
function firstDifference(ka: readonly number[], kb: readonly number[]): number | null {
  const shorter = Math.min(ka.length, kb.length)
  for (let i = 0; i < shorter; i++) if (ka[i] !== kb[i]) return i
  return ka.length === kb.length ? null : shorter
}

const pointOf = (step: RunStep, seq: number): SidePoint => ({ seq, turn: step.turn, step: step.step })

/** Where a run stands when it has stopped: its last event, in its last step. */
function stoppedPoint(run: RunIndex): SidePoint {
  const last = run.steps.at(-1)
  return { seq: run.lastSeq, turn: last?.turn ?? null, step: last?.step ?? null }
}

/** The seq of a step's end: its `step/end` (or closing `turn/end`), or the log's last event while it is open. */
function endSeq(run: RunIndex, step: RunStep): number {
  return step.endIndex === null ? run.lastSeq : run.seqAt(step.endIndex)
}

export function comparePair(a: RunIndex, b: RunIndex, pair: AlignedPair): PairFacts {
  const sa = pair.a
  const sb = pair.b
  if (sa === null || sb === null) {
    const lead: Lead =
      sa === null
        ? {
            kind: 'length',
            a: stoppedPoint(a),
            b: pointOf(sb as RunStep, (sb as RunStep).startSeq),
            missing: 'a',
            replacedOn: null,
            inOutcome: false,
          }
        : { kind: 'length', a: pointOf(sa, sa.startSeq), b: stoppedPoint(b), missing: 'b', replacedOn: null, inOutcome: false }
    return { pair, same: false, kinds: ['length'], lead, requests: null, outcomes: null }
  }
  const ra = a.request(sa)
  const rb = b.request(sb)
  const ka = keysOf(a, ra.nodes)
  const kb = keysOf(b, rb.nodes)
  const middle = messageMiddle(ka, kb)
  const headerDiffers = ra.headerKey !== rb.headerKey
  const requests = { a: ra, b: rb, middle }
  const kinds = new Set<DivergenceKind>()
  if (headerDiffers) kinds.add('header')
  for (const i of middle.onlyA) kinds.add(a.nodeKind(ra.nodes[i] as number))
  for (const i of middle.onlyB) kinds.add(b.nodeKind(rb.nodes[i] as number))
  const i = middle.prefix
  if (headerDiffers || i < ka.length || i < kb.length) {
    let lead: Lead
    if (headerDiffers) {
      const seqOf = (run: RunIndex, step: RunStep, r: RequestKeys) =>
        r.headerIndex === -1 ? step.atSeq : run.seqAt(r.headerIndex)
      lead = {
        kind: 'header',
        a: pointOf(sa, seqOf(a, sa, ra)),
        b: pointOf(sb, seqOf(b, sb, rb)),
        missing: null,
        replacedOn: null,
        inOutcome: false,
      }
    } else {
      const na = i < ra.nodes.length ? (ra.nodes[i] as number) : -1
      const nb = i < rb.nodes.length ? (rb.nodes[i] as number) : -1
      const kindA = na === -1 ? null : a.nodeKind(na)
      const kindB = nb === -1 ? null : b.nodeKind(nb)
      const kind = leadingKind(kindA, kindB)
      lead = {
        kind,
        a: pointOf(sa, na === -1 ? sa.atSeq : a.nodeSeq(na)),
        b: pointOf(sb, nb === -1 ? sb.atSeq : b.nodeSeq(nb)),
        missing: na === -1 ? 'a' : nb === -1 ? 'b' : null,
        replacedOn: kind !== 'surface-op' ? null : kindA === kindB ? 'both' : kindA === 'surface-op' ? 'a' : 'b',
        inOutcome: false,
      }
    }
    kinds.add(lead.kind)
    return { pair, same: false, kinds: sortKinds(kinds), lead, requests, outcomes: null }
  }
  // Equal requests: the steps differ only if what they produced differs.
  const oa = a.outcome(sa)
  const ob = b.outcome(sb)
  const koa = keysOf(a, oa)
  const kob = keysOf(b, ob)
  const j = firstDifference(koa, kob)
  const outcomes = { a: oa, b: ob, firstDifference: j }
  if (j === null) return { pair, same: true, kinds: [], lead: null, requests, outcomes }
  const na = j < oa.length ? (oa[j] as number) : -1
  const nb = j < ob.length ? (ob[j] as number) : -1
  // One side produced less and its run ends with this step: it stopped there.
  const stopped = (na === -1 && a.isLast(sa)) || (nb === -1 && b.isLast(sb))
  const kind = stopped ? 'length' : leadingKind(na === -1 ? null : a.nodeKind(na), nb === -1 ? null : b.nodeKind(nb))
  // A run that stopped produced nothing more: its missing messages are the length, not another answer.
  const compared = stopped ? Math.min(oa.length, ob.length) : Math.max(oa.length, ob.length)
  for (let k = j; k < compared; k++) {
    if (koa[k] === kob[k]) continue
    if (k < oa.length) kinds.add(a.nodeKind(oa[k] as number))
    if (k < ob.length) kinds.add(b.nodeKind(ob[k] as number))
  }
  if (stopped) kinds.add('length')
  const lead: Lead = {
    kind,
    a: pointOf(sa, na === -1 ? endSeq(a, sa) : a.nodeSeq(na)),
    b: pointOf(sb, nb === -1 ? endSeq(b, sb) : b.nodeSeq(nb)),
    missing: na === -1 ? 'a' : nb === -1 ? 'b' : null,
    replacedOn: null,
    inOutcome: true,
  }
  return { pair, same: false, kinds: sortKinds(kinds), lead, requests, outcomes }
}
