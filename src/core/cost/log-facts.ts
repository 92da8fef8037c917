/**
 * The cost facts of a LensLog already loaded: its steps as the timing tracker recorded them at ingest, the request
 * headers, the replacements the fold made and the compaction events, read when a reader asks (never at load). Only a
 * step's own usage event is parsed again (and, for the rare retried step or one without usage on its message, the
 * events of that step), so asking costs about one parse per step.
 */

import { DeriveOutcome, deriveEventMessage } from '../fold/derive-message.ts'
import type { LensLog } from '../log/lens-log.ts'
import { isRecord } from '../model/log-event.ts'
import { estimateTokens } from '../model/token-estimate.ts'
import { canonicalHeader } from '../request/request-header.ts'
import { loggedShadowedTokens } from '../series/context-series.ts'
import { clockTime, type StepTimes } from '../timing/step-times.ts'
import {
  buildCostFacts,
  needsUsageChunks,
  tokenCountsOf,
  type CostFacts,
  type CostSource,
  type SourceReplacement,
  type SourceStep,
  type SummaryFact,
  type UsageChunk,
} from './cost-facts.ts'
import { headerFingerprint } from './header-fingerprint.ts'
import type { CompactionFact } from './session-cost.ts'

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

function seqAt(log: LensLog, index: number): number {
  if (log.seqIsIndex) return index
  const seq = log.seqOf(index)
  return typeof seq === 'number' ? seq : index
}

/** Whether event `index` joined the surface (a node), as the timing tracker's `node` flag says at ingest. */
function isNode(log: LensLog, index: number): boolean {
  const timeline = log.fold.timeline
  const node = timeline.findNode(seqAt(log, index))
  return node >= 0 && timeline.indexOf(node) === index
}

/** The step's usage event (the first surface `assistant/message` carrying usage), parsed: its reasoning count and source. */
function usageEvent(log: LensLog, times: StepTimes): { reasoning: number | null; source: SourceStep['source'] } {
  const last = times.span.end ?? log.length - 1
  let source: SourceStep['source'] = null
  if (times.messageIndex < 0) return { reasoning: null, source }
  for (let i = times.messageIndex; i <= last; i++) {
    if (log.isPacked(i)) continue
    const event = log.event(i)
    if (event?.type !== 'assistant/message' || !isRecord(event.data)) continue
    const message = event.data['message']
    const from = isRecord(message) && isRecord(message['source']) ? message['source'] : undefined
    source ??= from === undefined ? null : { provider: text(from['provider']), model: text(from['model']) }
    const usage = event.data['usage']
    if (times.usage === null) return { reasoning: null, source }
    if (isRecord(usage) && isNode(log, i)) return { reasoning: tokenCountsOf(usage)?.reasoning ?? null, source }
  }
  return { reasoning: null, source }
}

/** The record holding event `index` (binary search over the records' first indices). */
function recordAt(log: LensLog, index: number): number {
  const records = log.recordTexts
  let lo = 0
  let hi = records.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (records.firstIndexOf(mid) <= index) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

const sameCount = (logged: unknown, known: number | null): boolean =>
  typeof logged === 'number' && Number.isFinite(logged) ? logged === known : known === null

/**
 * The reasoning count of the step's usage without parsing its message again (a message can be large, and a big log
 * has thousands of steps): the harness writes `usage` as the last object of an `assistant/message`'s data, flat, so the
 * record's last `"usage":{…}` is it when its counts are the ones the timing tracker read from that message. Anything
 * else (another key order, a step whose usage came from a later message) is read the parsing way.
 */
function reasoningOf(log: LensLog, times: StepTimes): number | null | undefined {
  const usage = times.usage
  if (usage === null || times.messageIndex < 0 || log.isPacked(times.messageIndex)) return undefined
  const record = log.recordTexts.text(recordAt(log, times.messageIndex))
  if (!record.startsWith('{"type":"assistant/message"')) return undefined
  const at = record.lastIndexOf('"usage":{')
  const end = at < 0 ? -1 : record.indexOf('}', at)
  if (end < 0) return undefined
  let tail: unknown
  try {
    tail = JSON.parse(record.slice(at + 8, end + 1))
  } catch {
    return undefined
  }
  if (!isRecord(tail)) return undefined
  const agrees =
    sameCount(tail['inputTokens'], usage.inputTokens) &&
    sameCount(tail['outputTokens'], usage.outputTokens) &&
    sameCount(tail['cacheReadTokens'], usage.cacheReadTokens) &&
    sameCount(tail['cacheWriteTokens'], usage.cacheWriteTokens)
  return agrees ? (tokenCountsOf(tail)?.reasoning ?? null) : undefined
}

/** Usage chunks inside the steps that need them (a retried attempt, no usage on the message). */
function usageChunks(log: LensLog, steps: readonly SourceStep[]): UsageChunk[] {
  const out: UsageChunk[] = []
  for (const step of steps) {
    if (!needsUsageChunks(step)) continue
    const end = step.end ?? log.length - 1
    for (let i = step.start + 1; i <= end; i++) {
      if (log.isPacked(i)) continue
      const event = log.event(i)
      if (event?.type !== 'assistant/chunk' || !isRecord(event.data)) continue
      const chunk = event.data['chunk']
      if (!isRecord(chunk) || chunk['type'] !== 'usage') continue
      const usage = tokenCountsOf(chunk['usage'])
      if (usage !== null) out.push({ index: i, usage })
    }
  }
  return out
}

function summaryFact(log: LensLog, index: number): SummaryFact & { index: number } {
  const event = log.event(index)
  const data = isRecord(event?.data) ? event.data : {}
  return {
    index,
    seq: seqAt(log, index),
    compactionId: text(data['compactionId']),
    turn: log.turns.turnAt(index)?.turn ?? null,
    at: clockTime(event?.time),
    provider: text(data['provider']),
    model: text(data['model']),
    usage: tokenCountsOf(data['usage']),
  }
}

/** The raw material of the cost of a loaded log (what `cost-digest.ts` gathers from lines). */
export function costSourceOfLog(log: LensLog): CostSource {
  const timeline = log.fold.timeline
  const last = log.length - 1
  const steps: SourceStep[] = log.timing.steps.map((times) => {
    const span = times.span
    const fast = reasoningOf(log, times)
    // The message is parsed only when its usage cannot be read from the record's tail, or a step with no request
    // header in force needs the message's own provider and model (then `source` is read when asked).
    let parsed: ReturnType<typeof usageEvent> | undefined = fast === undefined ? usageEvent(log, times) : undefined
    const reasoning = fast === undefined ? (parsed as ReturnType<typeof usageEvent>).reasoning : fast
    return {
      turn: times.turn,
      step: span.step,
      start: span.start,
      end: span.end,
      firstOutputIndex: times.firstOutputIndex,
      firstOutputTime: times.firstOutputTime,
      requestTime: times.requestTime,
      messageTime: times.messageTime,
      endTime: times.endTime,
      usage: times.usage,
      reasoning,
      retries: times.retries.map((r) => r.index),
      get source() {
        parsed ??= usageEvent(log, times)
        return parsed.source
      },
      requestSeq: times.firstOutputIndex > 0 ? seqAt(log, times.firstOutputIndex - 1) : null,
      endSeq: span.end === null ? null : seqAt(log, span.end),
    }
  })
  const headers = Array.from({ length: log.requestHeaders.length }, (_, k) => {
    const index = log.requestHeaders.get(k)
    return { index, fingerprint: headerFingerprint(canonicalHeader(log.event(index)?.data)) }
  })
  const replacements: SourceReplacement[] = timeline.replacements.map((r, i) => {
    const link = log.replacementLinks[i]
    return {
      index: r.index,
      seq: r.seq,
      minShadowedSeq: Math.min(...r.shadowedSeqs),
      kind: link?.kind ?? 'other',
      removed: loggedShadowedTokens(log, link, r.index),
    }
  })
  const summaries = [...log.compactions.groups.values()]
    .flatMap((g) => (g.summary === undefined ? [] : [summaryFact(log, g.summary)]))
    .sort((a, b) => a.index - b.index)
  const seed = log.header?.seedLength
  return {
    steps,
    headers,
    replacements,
    usageChunks: usageChunks(log, steps),
    summaries,
    seedLength: typeof seed === 'number' && Number.isSafeInteger(seed) && seed > 0 ? seed : 0,
    lastIndex: last,
    lastSeq: last < 0 ? -1 : seqAt(log, last),
    lastTime: log.timing.lastTime,
  }
}

/** The cost facts of a loaded log. */
export function costFactsOfLog(log: LensLog): CostFacts {
  return buildCostFacts(costSourceOfLog(log))
}

function messageAt(log: LensLog, index: number): unknown {
  try {
    return deriveEventMessage(log.event(index))
  } catch {
    return null
  }
}

/** Estimated tokens of the messages of the nodes with these seqs. */
function estimateOf(log: LensLog, seqs: readonly number[]): number {
  const timeline = log.fold.timeline
  let estimate = 0
  for (const seq of seqs) {
    const node = timeline.findNode(seq)
    if (node >= 0 && log.nodeDerives(node) === DeriveOutcome.Message)
      estimate += estimateTokens(messageAt(log, timeline.indexOf(node)))
  }
  return estimate
}

/**
 * Every compaction that landed (a summary checkpoint replaced a range): what it took off each later request (the
 * logged `shadowedTokenCount`, else the estimate of the messages it replaced, less the summary's own estimate), and
 * where a later replacement took the checkpoint itself off (its savings stop there).
 */
export function compactionFactsOfLog(log: LensLog): CompactionFact[] {
  const timeline = log.fold.timeline
  const replacedBy = new Map<number, number>()
  for (const r of timeline.replacements) for (const seq of r.shadowedSeqs) replacedBy.set(seq, r.seq)
  const out: CompactionFact[] = []
  timeline.replacements.forEach((r, i) => {
    const link = log.replacementLinks[i]
    if (link?.kind !== 'summary') return
    const summaryIndex = link.compactionId === undefined ? undefined : log.compactions.groups.get(link.compactionId)?.summary
    // The harness logs what it took off; only a replacement it did not announce is estimated (its messages parsed).
    const removed = loggedShadowedTokens(log, link, r.index) ?? estimateOf(log, r.shadowedSeqs)
    const summary = messageAt(log, r.index)
    out.push({
      seq: r.seq,
      compactionId: link.compactionId ?? null,
      summarySeq: summaryIndex !== undefined && summaryIndex < r.index ? seqAt(log, summaryIndex) : null,
      savedTokens: Math.max(0, removed - (summary === null ? 0 : estimateTokens(summary))),
      replacedAtSeq: replacedBy.get(r.seq) ?? null,
    })
  })
  return out
}
