/**
 * The request the harness built for one step, and what changed since the previous step's: the one function the
 * CLI (`lens request --json`), the worker and the Request view all use, so they can never disagree.
 *
 * Computed on demand from the LensLog's slot timeline (`nodesAfter`): no refold, so it is cheap on a growing log.
 */

import { DeriveOutcome, deriveEventMessage } from '../fold/derive-message.ts'
import { isDeepEqualJson } from '../fold/surface-checks.ts'
import { isRecord } from '../model/log-event.ts'
import { estimateTokens } from '../model/token-estimate.ts'
import type { LensLog } from '../log/lens-log.ts'
import type { WireShape } from './wire-shape.ts'
import { PREFIX_FIELDS, canonicalHeader, headerChanges, type HeaderField } from './request-header.ts'
import { sweepRequests, type SweptRequest } from './rejection-sweep.ts'
import { requestRejections, type Rejection, type RejectionCode } from './request-rejections.ts'
import { firstNodeAfter, locateStep, stepSpans, type LocatedStep, type RequestBoundary } from './step-locate.ts'

export interface RequestMessage {
  readonly seq: number
  readonly message: unknown
}

export interface CacheWarning {
  readonly cacheReadTokens: number
  readonly estimatedPrefixTokens: number
  readonly message: string
}

export interface RequestDiff {
  /** `"T.S"` of the previous step in log order (across turns), or null for the first step. */
  readonly previous: string | null
  /** First message index where the two requests differ (0 when a prefix header field changed); null when identical. */
  readonly firstDifference: number | null
  readonly appended: number[]
  readonly removed: number[]
  readonly replacedBy: { seq: number; shadowedSeqs: number[] }[]
  readonly headerChanged: HeaderField[]
  /** Estimated tokens of the request before `firstDifference` (the whole request when identical). */
  readonly tokensBeforeFirstDifference: number
  readonly cacheWarning: CacheWarning | null
}

export interface StepRequestJson {
  readonly turn: number
  readonly step: number
  readonly atSeq: number
  readonly header: Record<string, unknown> | null
  readonly messages: RequestMessage[]
  readonly skippedNodes: number[]
  readonly usage: Record<string, unknown> | null
  readonly diff: RequestDiff
  /** Extra keys (documented in docs/cli.md). */
  readonly startSeq: number
  readonly headerSeq: number | null
  readonly boundary: RequestBoundary
  readonly usageSeq: number | null
  readonly estimatedTokens: number
  readonly deriveErrors: { seq: number; message: string }[]
  /** The provider rules this request breaks (request-rejections.ts), in message order; [] when none. */
  readonly rejected: Rejection[]
}

export interface StepListEntry {
  readonly turn: number
  readonly step: number
  readonly atSeq: number
  readonly messageCount: number
  readonly usage: Record<string, unknown> | null
  /** The codes of the provider rules the step's request breaks (REJECTION_CODES order); [] when none. */
  readonly rejected: RejectionCode[]
}

/** Warn when logged cache reads and the estimated unchanged prefix differ by more than both of these. */
export const CACHE_WARNING_RATIO = 2
export const CACHE_WARNING_MIN_TOKENS = 256

const seqAt = (log: LensLog, index: number): number => {
  const seq = log.seqOf(index)
  return typeof seq === 'number' ? seq : index
}

interface Built {
  readonly located: LocatedStep
  readonly header: Record<string, unknown> | null
  readonly headerSeq: number | null
  readonly messages: RequestMessage[]
  /** The wire shape of each message, as LensLog recorded it for its node. */
  readonly shapes: WireShape[]
  readonly skippedNodes: number[]
  readonly deriveErrors: { seq: number; message: string }[]
}

/** The header in force after events `0..index`: the latest `request/header` wins. */
function headerAt(log: LensLog, index: number): { header: Record<string, unknown> | null; seq: number | null } {
  const count = log.requestHeaders.countAtMost(index)
  if (count === 0) return { header: null, seq: null }
  const at = log.requestHeaders.get(count - 1)
  return { header: canonicalHeader(log.event(at)?.data), seq: seqAt(log, at) }
}

function build(log: LensLog, located: LocatedStep): Built {
  const timeline = log.fold.timeline
  const messages: RequestMessage[] = []
  const shapes: WireShape[] = []
  const skippedNodes: number[] = []
  const deriveErrors: { seq: number; message: string }[] = []
  for (const node of log.nodesAfter(located.atIndex)) {
    const seq = timeline.seqOf(node)
    const outcome = log.nodeDerives(node)
    if (outcome === DeriveOutcome.Message) {
      messages.push({ seq, message: deriveEventMessage(log.event(timeline.indexOf(node))) })
      shapes.push(log.wireShapes.get(node))
    } else {
      skippedNodes.push(seq)
      if (outcome === DeriveOutcome.Failed) deriveErrors.push({ seq, message: log.nodeDeriveError(node) ?? '' })
    }
  }
  const { header, seq } = headerAt(log, located.atIndex)
  return { located, header, headerSeq: seq, messages, shapes, skippedNodes, deriveErrors }
}

/**
 * The step's logged usage: `data.usage` of the first `assistant/message` of the step that carries one (the
 * harness writes one assistant message per step; a step with several keeps the first usage), or null.
 */
function stepUsage(log: LensLog, located: LocatedStep): { usage: Record<string, unknown> | null; seq: number | null } {
  const timeline = log.fold.timeline
  const last = located.endIndex ?? log.length - 1
  for (let node = firstNodeAfter(log, located.startIndex); node < timeline.nodeCount; node++) {
    const index = timeline.indexOf(node)
    if (index > last) break
    const event = log.event(index)
    if (event?.type !== 'assistant/message' || !isRecord(event.data)) continue
    const usage = event.data['usage']
    if (isRecord(usage)) return { usage, seq: seqAt(log, index) }
  }
  return { usage: null, seq: null }
}

/** Estimated tokens of the header part a provider puts before the messages (system prompt and tool schemas). */
function headerTokens(header: Record<string, unknown> | null): number {
  return header === null ? 0 : estimateTokens(header['system']) + estimateTokens(header['tools'])
}

/** Every seq a replacement stands for that was in `previous`: through earlier replacements made since. */
function shadowedIn(seq: number, byReplacement: Map<number, readonly number[]>, previous: Set<number>, out: number[]): void {
  for (const shadowed of byReplacement.get(seq) ?? []) {
    if (previous.has(shadowed)) out.push(shadowed)
    else if (byReplacement.has(shadowed)) shadowedIn(shadowed, byReplacement, previous, out)
  }
}

/** The first index where the two message lists differ (deep-equal JSON), or null when they are equal. */
export function firstMessageDifference(a: readonly RequestMessage[], b: readonly RequestMessage[]): number | null {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (!isDeepEqualJson((a[i] as RequestMessage).message, (b[i] as RequestMessage).message)) return i
  return a.length === b.length ? null : n
}

function diffWith(log: LensLog, current: Built, previous: Built | undefined, usage: Record<string, unknown> | null): RequestDiff {
  const headerChanged = headerChanges(previous?.header ?? null, current.header)
  const before = new Set(previous?.messages.map((m) => m.seq) ?? [])
  const now = new Set(current.messages.map((m) => m.seq))
  const byReplacement = new Map<number, readonly number[]>()
  for (const r of log.replacementsAfter(current.located.atIndex)) byReplacement.set(r.seq, r.shadowedSeqs)
  const replacedBy: { seq: number; shadowedSeqs: number[] }[] = []
  const appended: number[] = []
  const covered = new Set<number>()
  for (const { seq } of current.messages) {
    if (before.has(seq)) continue
    if (byReplacement.has(seq)) {
      const shadowedSeqs: number[] = []
      shadowedIn(seq, byReplacement, before, shadowedSeqs)
      if (shadowedSeqs.length > 0) {
        replacedBy.push({ seq, shadowedSeqs })
        for (const s of shadowedSeqs) covered.add(s)
        continue
      }
    }
    appended.push(seq)
  }
  const removed = (previous?.messages ?? []).map((m) => m.seq).filter((seq) => !now.has(seq) && !covered.has(seq))
  let firstDifference: number | null
  if (previous === undefined) firstDifference = current.messages.length > 0 || current.header !== null ? 0 : null
  else if (headerChanged.some((f) => PREFIX_FIELDS.has(f))) firstDifference = 0
  else {
    const messageDiff = firstMessageDifference(previous.messages, current.messages)
    firstDifference = messageDiff ?? (headerChanged.length > 0 ? current.messages.length : null)
  }
  const upTo = firstDifference ?? current.messages.length
  // The system prompt and tools precede the messages: still cached unless a prefix header field changed.
  const prefixKept = previous !== undefined && !headerChanged.some((f) => PREFIX_FIELDS.has(f))
  let tokensBeforeFirstDifference = prefixKept ? headerTokens(current.header) : 0
  if (prefixKept)
    for (let i = 0; i < upTo; i++) tokensBeforeFirstDifference += estimateTokens((current.messages[i] as RequestMessage).message)
  const cacheRead = usage?.['cacheReadTokens']
  let cacheWarning: CacheWarning | null = null
  if (typeof cacheRead === 'number') {
    const est = tokensBeforeFirstDifference
    const far =
      Math.abs(cacheRead - est) > CACHE_WARNING_MIN_TOKENS &&
      (cacheRead > est * CACHE_WARNING_RATIO || cacheRead * CACHE_WARNING_RATIO < est)
    if (far) {
      cacheWarning = {
        cacheReadTokens: cacheRead,
        estimatedPrefixTokens: est,
        message:
          cacheRead < est
            ? `the provider read ${cacheRead} cached tokens, but about ${est} tokens of this request are unchanged since the previous step: the cache missed (expired, evicted, or keyed differently)`
            : `the provider read ${cacheRead} cached tokens, more than the about ${est} tokens unchanged since the previous step: the request differs from this reconstruction, or the cache matched an older request`,
      }
    }
  }
  const prev = previous?.located
  return {
    previous: prev === undefined ? null : `${prev.turn}.${prev.step}`,
    firstDifference,
    appended,
    removed,
    replacedBy,
    headerChanged,
    tokensBeforeFirstDifference,
    cacheWarning,
  }
}

/** The request of step `position` (log order) with its diff against the previous step, or undefined when there is no such step. */
export function stepRequest(log: LensLog, position: number): StepRequestJson | undefined {
  const located = locateStep(log, position)
  if (located === undefined) return undefined
  const current = build(log, located)
  const previousLocated = position > 0 ? locateStep(log, position - 1) : undefined
  const previous = previousLocated === undefined ? undefined : build(log, previousLocated)
  const { usage, seq: usageSeq } = stepUsage(log, located)
  let estimatedTokens = headerTokens(current.header)
  for (const m of current.messages) estimatedTokens += estimateTokens(m.message)
  return {
    turn: located.turn,
    step: located.step,
    atSeq: seqAt(log, located.atIndex),
    header: current.header,
    messages: current.messages,
    skippedNodes: current.skippedNodes,
    usage,
    diff: diffWith(log, current, previous, usage),
    // Extra keys after the contract's, so the contract's prefix reads the same.
    startSeq: seqAt(log, located.startIndex),
    headerSeq: current.headerSeq,
    boundary: located.boundary,
    usageSeq,
    estimatedTokens,
    deriveErrors: current.deriveErrors,
    rejected: requestRejections(current.messages, current.shapes),
  }
}

/** Every step so far with where its request was built, its message count and its logged usage. */
export function stepList(log: LensLog): StepListEntry[] {
  const spans = stepSpans(log)
  const located = spans.map((_, p) => locateStep(log, p, spans) as LocatedStep)
  // One replay of the surface for every step (O(log)), not one surface per step (O(steps x log)).
  const swept = sweepRequests(
    log,
    located.map((l) => l.atIndex),
  )
  return located.map((l, p) => {
    const { rejected, messageCount } = swept[p] as SweptRequest
    return { turn: l.turn, step: l.step, atSeq: seqAt(log, l.atIndex), messageCount, usage: stepUsage(log, l).usage, rejected }
  })
}
