/**
 * The detailed difference of a pair's two requests, read as the Request view reads two consecutive steps (issue 8,
 * `RequestDiff`): where a provider's prefix would stop matching, the messages one request holds and the other does
 * not, the header fields that differ, and the text diff of the first message that differs; then the same for what the
 * two steps produced (their answers and their calls' results). A reads as the "before", B as the "after".
 *
 * Computed from the pair's facts (pair-compare.ts) when asked: for every pair by the CLI, for the picked pair by the
 * viewer. Text diffs are kept per pair of nodes: after a divergence the same first differing message recurs in pair
 * after pair, and is diffed once.
 */

import { isDeepEqualJson } from '../fold/surface-checks.ts'
import { PREFIX_FIELDS, headerChanges, type HeaderField } from '../request/request-header.ts'
import { messageTextDiff, type MessageTextDiff } from '../request/message-text-diff.ts'
import type { PairFacts } from './pair-compare.ts'
import type { RunIndex } from './run-index.ts'

/** The text diff of the message at `index` of A's list (seq `aSeq`) and of B's (`bSeq`). */
export interface MessagePairDiff extends MessageTextDiff {
  readonly index: number
  readonly aSeq: number
  readonly bSeq: number
}

/** What the two steps produced: the seqs of their answers and results, where they first differ, and its text diff. */
export interface OutputComparison {
  readonly a: number[]
  readonly b: number[]
  readonly firstDifference: number | null
  readonly firstMessage: MessagePairDiff | null
}

export interface RequestComparison {
  /** Where a provider's prefix cache would stop matching: 0 when a prefix header field differs, else the first message
   * index that differs (the shorter request's length when one is the other's prefix); null when equal. */
  readonly firstDifference: number | null
  /** Seqs of B's messages that A's request does not hold. */
  readonly appended: number[]
  /** Seqs of A's messages that B's request does not hold. */
  readonly removed: number[]
  /** Where both hold messages the other does not: A's stand where B's are. */
  readonly replaced: { readonly a: number[]; readonly b: number[] }[]
  readonly headerChanged: HeaderField[]
  readonly firstMessage: MessagePairDiff | null
  /** Null when the requests differ (their outputs then differ for that reason). */
  readonly output: OutputComparison | null
}

/** Text diffs of node pairs already computed, for one comparison. */
export class TextDiffCache {
  private readonly diffs = new Map<string, MessageTextDiff>()

  constructor(
    private readonly a: RunIndex,
    private readonly b: RunIndex,
  ) {}

  /** The text diff of A's node `na` and B's node `nb`, at position `index` of their lists. */
  diff(index: number, na: number, nb: number): MessagePairDiff {
    const key = `${na}:${nb}`
    let diff = this.diffs.get(key)
    if (diff === undefined) {
      diff = messageTextDiff(this.a.nodeMessage(na), this.b.nodeMessage(nb))
      this.diffs.set(key, diff)
    }
    return { index, aSeq: this.a.nodeSeq(na), bSeq: this.b.nodeSeq(nb), ...diff }
  }
}

/** The detailed request comparison of a pair whose two sides are present (null for an unpaired step). */
export function requestComparison(facts: PairFacts, a: RunIndex, b: RunIndex, texts: TextDiffCache): RequestComparison | null {
  const requests = facts.requests
  if (requests === null) return null
  const { a: ra, b: rb, middle } = requests
  const headerA = a.header(ra.headerIndex)
  const headerB = b.header(rb.headerIndex)
  const headerChanged = ra.headerKey === rb.headerKey && isDeepEqualJson(headerA, headerB) ? [] : headerChanges(headerA, headerB)
  const lenA = ra.nodes.length
  const lenB = rb.nodes.length
  const messagesEqual = middle.prefix === lenA && lenA === lenB
  let firstDifference: number | null
  if (headerChanged.some((f) => PREFIX_FIELDS.has(f))) firstDifference = 0
  else if (!messagesEqual) firstDifference = middle.prefix
  else firstDifference = headerChanged.length > 0 ? lenB : null
  const onlyA = middle.onlyA.map((i) => a.nodeSeq(ra.nodes[i] as number))
  const onlyB = middle.onlyB.map((i) => b.nodeSeq(rb.nodes[i] as number))
  const both = onlyA.length > 0 && onlyB.length > 0
  const p = middle.prefix
  const firstMessage = !messagesEqual && p < lenA && p < lenB ? texts.diff(p, ra.nodes[p] as number, rb.nodes[p] as number) : null
  let output: OutputComparison | null = null
  const outcomes = facts.outcomes
  if (outcomes !== null) {
    const j = outcomes.firstDifference
    output = {
      a: outcomes.a.map((n) => a.nodeSeq(n)),
      b: outcomes.b.map((n) => b.nodeSeq(n)),
      firstDifference: j,
      firstMessage:
        j !== null && j < outcomes.a.length && j < outcomes.b.length
          ? texts.diff(j, outcomes.a[j] as number, outcomes.b[j] as number)
          : null,
    }
  }
  return {
    firstDifference,
    appended: both ? [] : onlyB,
    removed: both ? [] : onlyA,
    replaced: both ? [{ a: onlyA, b: onlyB }] : [],
    headerChanged,
    firstMessage,
    output,
  }
}

/** How each message of a pair's two requests compares, message by message (the viewer marks them). */
export type MessageMark = 'same' | 'differs'

/** Per side, one mark per message of its request: `differs` for the messages the other request does not hold. */
export function messageMarks(facts: PairFacts): { a: MessageMark[]; b: MessageMark[] } | null {
  const requests = facts.requests
  if (requests === null) return null
  const marks = (length: number, only: readonly number[]): MessageMark[] => {
    const out = new Array<MessageMark>(length).fill('same')
    for (const i of only) out[i] = 'differs'
    return out
  }
  return {
    a: marks(requests.a.nodes.length, requests.middle.onlyA),
    b: marks(requests.b.nodes.length, requests.middle.onlyB),
  }
}
