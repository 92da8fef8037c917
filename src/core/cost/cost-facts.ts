/**
 * The facts a cost is computed from, and the one set of rules that derives them. Two readers gather the same raw
 * material — a LensLog already folded (`log-facts.ts`, for `dsh-lens cost` and the viewer) and a line-by-line digest
 * of a file (`cost-digest.ts`, for `dsh-lens usage` and the sessions home) — and both hand it to `buildCostFacts`,
 * so a session costs the same whichever way it was read.
 *
 * Which tokens are which is the harness's own accounting (`TokenUsage`, packages/llm/llm/src/types.ts): the counts are
 * disjoint, `inputTokens` is input that missed the cache, `cacheReadTokens` input read from it, `cacheWriteTokens`
 * input written to it (DeepSeek reports none), `outputTokens` everything generated, reasoning included
 * (`reasoningTokens` is a part of it, never added again). docs/cost.md shows the DeepSeek adapter's mapping.
 */

import { countAtMost } from '../model/sorted-search.ts'
import type { HeaderField } from '../request/request-header.ts'
import { prefixChanges, type HeaderFingerprint } from './header-fingerprint.ts'

export interface TokenCounts {
  /** Input billed as cache misses (`inputTokens`). */
  readonly input: number
  readonly cacheRead: number
  readonly cacheWrite: number
  /** Output, reasoning included. */
  readonly output: number
  /** The part of `output` that was reasoning, when logged. */
  readonly reasoning: number | null
}

/** Why a step's request did not reuse the previous request's cached prefix, as the Request view names it. */
export type BreakCause =
  | { readonly kind: 'compaction' | 'prune' | 'rewrite'; readonly seq: number }
  | { readonly kind: 'header'; readonly fields: readonly HeaderField[] }

export interface StepFact {
  readonly turn: number
  readonly step: number
  /** Where the request was taken (the Request view's and `lens timing`'s `atSeq`). */
  readonly atSeq: number
  /** The instant it is priced at: the request's time, else its first output's, message's or end's. */
  readonly at: number | null
  /** The request header's provider and model (the answer's `source` when no header is in force). */
  readonly provider: string | null
  readonly model: string | null
  /** The request as billed: its last attempt's logged usage. */
  readonly usage: TokenCounts | null
  /** Earlier attempts of the step (before an `llm/retry`) that logged usage: billed too. */
  readonly retried: TokenCounts | null
  /** Why the prefix broke since the previous step's request; [] when it held (or this is the first step). */
  readonly breakCauses: readonly BreakCause[]
  /** Tokens the replacements of the break took off the previous request, as the harness logged them (0 when not). */
  readonly removedTokens: number
  /** The previous step's whole prompt (its last attempt's input, cache reads and writes), when it logged usage. */
  readonly previousPrompt: number | null
}

/** A compaction's own model call (`compaction/summary`: its provider, model, usage and time). */
export interface SummaryFact {
  readonly seq: number
  readonly compactionId: string | null
  readonly turn: number | null
  readonly at: number | null
  readonly provider: string | null
  readonly model: string | null
  readonly usage: TokenCounts | null
}

export interface CostFacts {
  readonly steps: readonly StepFact[]
  readonly summaries: readonly SummaryFact[]
  /** Steps and summaries in a fork's seed (`header.seedLength`): the parent's calls, copied, not counted here. */
  readonly inherited: number
}

// ---- The raw material both readers gather -------------------------------------------------------------------

/** One step as the timing tracker records it (`StepTimes`), plus what pricing reads of its usage event. */
export interface SourceStep {
  readonly turn: number
  readonly step: number
  readonly start: number
  readonly end: number | null
  readonly firstOutputIndex: number
  readonly firstOutputTime: number | null
  readonly requestTime: number | null
  readonly messageTime: number | null
  readonly endTime: number | null
  /** The step's logged usage (the first surface `assistant/message` carrying one), as raw fields. */
  readonly usage: RawUsage | null
  /** `reasoningTokens` of that same usage. */
  readonly reasoning: number | null
  /** Indices of the step's `llm/retry` events. */
  readonly retries: readonly number[]
  /** The answering message's `source` provider and model, for a request no header names. */
  readonly source: { readonly provider: string | null; readonly model: string | null } | null
  /** Seqs of the events at `firstOutputIndex - 1` and at `end` (null when there is none). */
  readonly requestSeq: number | null
  readonly endSeq: number | null
}

export interface RawUsage {
  readonly inputTokens: number | null
  readonly outputTokens: number | null
  readonly cacheReadTokens: number | null
  readonly cacheWriteTokens: number | null
}

export interface SourceReplacement {
  readonly index: number
  readonly seq: number
  /** The smallest seq it shadowed (a node the previous request held has a seq at most that request's). */
  readonly minShadowedSeq: number
  readonly kind: 'summary' | 'prune' | 'other'
  /** `shadowedTokenCount` of the event that announced it, or null. */
  readonly removed: number | null
}

export interface UsageChunk {
  readonly index: number
  readonly usage: TokenCounts
}

export interface CostSource {
  readonly steps: readonly SourceStep[]
  /** `request/header` events in log order, with the fingerprint of the header each put in force. */
  readonly headers: readonly { readonly index: number; readonly fingerprint: HeaderFingerprint | null }[]
  readonly replacements: readonly SourceReplacement[]
  /** `assistant/chunk` usage chunks; a reader may give only those inside steps with retries or no message usage. */
  readonly usageChunks: readonly UsageChunk[]
  readonly summaries: readonly (SummaryFact & { readonly index: number })[]
  readonly seedLength: number
  /** Index, seq and usable time of the last event. */
  readonly lastIndex: number
  readonly lastSeq: number
  readonly lastTime: number | null
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)

/** A usage object as logged (`TokenUsage`) to counts; null when it is no object. */
export function tokenCountsOf(usage: unknown): TokenCounts | null {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return null
  const u = usage as Record<string, unknown>
  const reasoning = u['reasoningTokens']
  return {
    input: count(u['inputTokens']),
    cacheRead: count(u['cacheReadTokens']),
    cacheWrite: count(u['cacheWriteTokens']),
    output: count(u['outputTokens']),
    reasoning: typeof reasoning === 'number' && Number.isFinite(reasoning) && reasoning >= 0 ? reasoning : null,
  }
}

function countsOfRaw(raw: RawUsage, reasoning: number | null): TokenCounts {
  return {
    input: count(raw.inputTokens),
    cacheRead: count(raw.cacheReadTokens),
    cacheWrite: count(raw.cacheWriteTokens),
    output: count(raw.outputTokens),
    reasoning,
  }
}

export function addCounts(a: TokenCounts | null, b: TokenCounts | null): TokenCounts | null {
  if (a === null) return b
  if (b === null) return a
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
    reasoning: a.reasoning === null && b.reasoning === null ? null : (a.reasoning ?? 0) + (b.reasoning ?? 0),
  }
}

/** Tokens the provider read for a request: its whole prompt. */
export const promptTokens = (u: TokenCounts): number => u.input + u.cacheRead + u.cacheWrite

/** Whether a step needs its usage chunks (a retried attempt, or no usage on its message): the rare steps. */
export function needsUsageChunks(step: Pick<SourceStep, 'usage' | 'retries'>): boolean {
  return step.usage === null || step.retries.length > 0
}

/** The last usage chunk with index in (from, to]. */
function lastChunk(chunks: readonly UsageChunk[], from: number, to: number): TokenCounts | null {
  let found: TokenCounts | null = null
  for (const c of chunks) if (c.index > from && c.index <= to) found = c.usage
  return found
}

/**
 * A step's billed attempts: each `llm/retry` ends an attempt, billed for the last usage chunk it streamed; the last
 * attempt is billed for the message's usage, or its own last usage chunk when no message carried one (the request
 * failed after the provider counted it).
 */
function attempts(
  step: SourceStep,
  chunks: readonly UsageChunk[],
  lastIndex: number,
): { usage: TokenCounts | null; retried: TokenCounts | null } {
  if (!needsUsageChunks(step)) return { usage: countsOfRaw(step.usage as RawUsage, step.reasoning), retried: null }
  const end = step.end ?? lastIndex
  let from = step.start
  let retried: TokenCounts | null = null
  for (const retry of [...step.retries].sort((a, b) => a - b)) {
    retried = addCounts(retried, lastChunk(chunks, from, retry))
    from = retry
  }
  const usage = step.usage !== null ? countsOfRaw(step.usage, step.reasoning) : lastChunk(chunks, from, end)
  return { usage, retried }
}

/** The header in force after event `index` (the latest `request/header` at or before it); `at`: the headers' indices. */
function headerAt(headers: CostSource['headers'], at: readonly number[], index: number): HeaderFingerprint | null {
  const count = countAtMost(at, index)
  return count === 0 ? null : (headers[count - 1] as { fingerprint: HeaderFingerprint | null }).fingerprint
}

/** Where a step's request was taken and when (`stepTiming`'s rules: the event before the first output, or the end). */
function requestPoint(step: SourceStep, source: CostSource): { atIndex: number; atSeq: number; at: number | null } {
  const streamed = step.firstOutputIndex >= 0
  const atIndex = streamed ? step.firstOutputIndex - 1 : (step.end ?? source.lastIndex)
  const atSeq = (streamed ? step.requestSeq : step.end !== null ? step.endSeq : source.lastSeq) ?? atIndex
  const requestAt = streamed ? step.requestTime : step.end !== null ? step.endTime : source.lastTime
  return { atIndex, atSeq, at: requestAt ?? step.firstOutputTime ?? step.messageTime ?? step.endTime }
}

const KIND: Record<SourceReplacement['kind'], 'compaction' | 'prune' | 'rewrite'> = {
  summary: 'compaction',
  prune: 'prune',
  other: 'rewrite',
}

export function buildCostFacts(source: CostSource): CostFacts {
  const points = source.steps.map((s) => requestPoint(s, source))
  const headerIndices = source.headers.map((h) => h.index)
  const replacementIndices = source.replacements.map((r) => r.index)
  const billed = source.steps.map((s) => attempts(s, source.usageChunks, source.lastIndex))
  const steps: StepFact[] = []
  let inherited = 0
  source.steps.forEach((step, k) => {
    const point = points[k] as { atIndex: number; atSeq: number; at: number | null }
    if (step.start < source.seedLength) {
      inherited++
      return
    }
    const header = headerAt(source.headers, headerIndices, point.atIndex)
    const causes: BreakCause[] = []
    let removedTokens = 0
    const previous = k > 0 ? points[k - 1] : undefined
    if (previous !== undefined) {
      // The replacements with index in (previous request, this request].
      for (let i = countAtMost(replacementIndices, previous.atIndex); i < countAtMost(replacementIndices, point.atIndex); i++) {
        const r = source.replacements[i] as SourceReplacement
        if (r.minShadowedSeq > previous.atSeq) continue
        causes.push({ kind: KIND[r.kind], seq: r.seq })
        removedTokens += r.removed ?? 0
      }
      const fields = prefixChanges(headerAt(source.headers, headerIndices, previous.atIndex), header)
      if (fields.length > 0) causes.push({ kind: 'header', fields })
    }
    const named = header?.provider != null && header.model != null
    const before = k > 0 ? billed[k - 1]?.usage : undefined
    steps.push({
      turn: step.turn,
      step: step.step,
      atSeq: point.atSeq,
      at: point.at,
      provider: named ? (header as HeaderFingerprint).provider : (step.source?.provider ?? null),
      model: named ? (header as HeaderFingerprint).model : (step.source?.model ?? null),
      ...(billed[k] as { usage: TokenCounts | null; retried: TokenCounts | null }),
      breakCauses: causes,
      removedTokens,
      previousPrompt: before == null ? null : promptTokens(before),
    })
  })
  const summaries: SummaryFact[] = []
  for (const { index, ...summary } of source.summaries) {
    if (index < source.seedLength) inherited++
    else summaries.push(summary)
  }
  return { steps, summaries, inherited }
}
