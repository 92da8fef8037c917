/**
 * Context over time: for every event of a log, how big the model surface is after it (messages, and estimated
 * tokens), the token usage each step logged, and the compactions and prunes with the tokens each removed.
 *
 * Built incrementally from a LensLog's fold, so it follows a live log: `update` folds only the surface nodes
 * that entered since the last call. No per-event refold (`nodesAfter` per event would be O(n^2)): running sums
 * are kept as nodes enter (+ the node) and as replacements shadow (- the nodes they swap out).
 *
 * Memory: the surface only changes when a node enters (at most one per event, none for chunk deltas, which are
 * most of a large log), so each series is stored as a step function, one typed-array entry per *change point*
 * (the event index of a node entry and the value after it); the value after any event is a binary search away.
 * That is at most 16 bytes per surface node for both size series and nothing per chunk event.
 */

import { DeriveOutcome, deriveEventMessage } from '../fold/derive-message.ts'
import { Float64Vector, Int32Vector } from '../model/growable-array.ts'
import { isRecord } from '../model/log-event.ts'
import { estimateTokens } from '../model/token-estimate.ts'
import type { ReplacementKind } from '../projection/compaction-links.ts'
import type { LensLog } from '../log/lens-log.ts'

/** One replace operation (compaction summary, tool-result prune, other) and what it took off the surface. */
export interface ContextMarker {
  /** Event index and seq of the replacing event. */
  readonly index: number
  readonly seq: number
  readonly kind: ReplacementKind
  /** `shadowedTokenCount` as logged by `compaction/summary` / `compaction/prune`, or null when not logged. */
  readonly loggedTokens: number | null
  /** Our estimate of the tokens removed: the estimated tokens of the nodes it shadowed. */
  readonly estimatedTokens: number
  /** Estimated tokens of the node that took their place (the summary, the pruned result). */
  readonly replacementTokens: number
  /** Surface nodes it shadowed. */
  readonly shadowedCount: number
}

/** Messages the model is sent per surface node: 1 when the node derives a message, else 0. */
function derivesMessage(log: LensLog, node: number): boolean {
  return log.nodeDerives(node) === DeriveOutcome.Message
}

function safeCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null
}

/** A usage field as logged, NaN when absent or not a number (so a missing cache count is not drawn as 0). */
function usageField(usage: Record<string, unknown>, key: string): number {
  const value = usage[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN
}

export class ContextSeries {
  /** Events the series covers (the log's length at the last `update`). */
  events = 0
  /** Change points: event index of each surface node entry (strictly increasing), and the values after it. */
  readonly changeIndex = new Int32Vector(256)
  readonly changeMessages = new Int32Vector(256)
  readonly changeTokens = new Float64Vector(256)
  /** Per step that logged usage (`assistant/message` `data.usage` on the surface): its event index and counts. */
  readonly usageIndex = new Int32Vector(64)
  readonly usageInput = new Float64Vector(64)
  readonly usageOutput = new Float64Vector(64)
  readonly usageCacheRead = new Float64Vector(64)
  readonly usageCacheWrite = new Float64Vector(64)
  readonly markers: ContextMarker[] = []

  /** Estimated tokens per surface node (node id order), kept so a replacement can subtract what it shadows. */
  private readonly nodeTokens = new Int32Vector(256)
  private nextNode = 0
  private messages = 0
  private tokens = 0

  /**
   * Fold in whatever the log gained since the last call. Returns whether anything changed.
   * @param stop asked before each surface node but the first of the call (so every call makes progress);
   *   returning true leaves the rest for the next call (a worker keeps
   *   answering other queries while a large log's series is built: each node costs a JSON walk of its message).
   *   `events` then covers the events before the first node not yet folded in (the surface is constant between).
   */
  update(log: LensLog, stop?: () => boolean): boolean {
    const timeline = log.fold.timeline
    const before = this.events
    const first = this.nextNode
    for (; this.nextNode < timeline.nodeCount; this.nextNode++) {
      if (this.nextNode > first && stop?.() === true) {
        this.events = timeline.indexOf(this.nextNode)
        return this.events !== before
      }
      const node = this.nextNode
      const index = timeline.indexOf(node)
      const event = log.event(index)
      const message = derivesMessage(log, node)
      let tokens = 0
      if (message) {
        try {
          tokens = estimateTokens(deriveEventMessage(event))
        } catch {
          // nodeDerives said Message, so this does not throw; a failed derive sends nothing and costs nothing.
        }
      }
      this.nodeTokens.push(tokens)
      const replacement = timeline.replacements[this.markers.length]
      if (replacement !== undefined && replacement.index === index) {
        let removedTokens = 0
        let removedMessages = 0
        for (const seq of replacement.shadowedSeqs) {
          const shadowed = timeline.findNode(seq)
          removedTokens += this.nodeTokens.get(shadowed)
          if (derivesMessage(log, shadowed)) removedMessages++
        }
        this.tokens -= removedTokens
        this.messages -= removedMessages
        const link = log.replacementLinks[this.markers.length]
        this.markers.push({
          index,
          seq: replacement.seq,
          kind: link?.kind ?? 'other',
          loggedTokens: loggedShadowedTokens(log, link, index),
          estimatedTokens: removedTokens,
          replacementTokens: tokens,
          shadowedCount: replacement.shadowedSeqs.length,
        })
      }
      this.tokens += tokens
      if (message) this.messages++
      this.changeIndex.push(index)
      this.changeMessages.push(this.messages)
      this.changeTokens.push(this.tokens)
      const data = isRecord(event) && event.type === 'assistant/message' && isRecord(event.data) ? event.data : undefined
      const usage = data?.['usage']
      if (isRecord(usage)) {
        this.usageIndex.push(index)
        this.usageInput.push(usageField(usage, 'inputTokens'))
        this.usageOutput.push(usageField(usage, 'outputTokens'))
        this.usageCacheRead.push(usageField(usage, 'cacheReadTokens'))
        this.usageCacheWrite.push(usageField(usage, 'cacheWriteTokens'))
      }
    }
    this.events = log.length
    return this.events !== before
  }

  /** Whether every event of `log` is folded in (false after an `update` that stopped early). */
  caughtUp(log: LensLog): boolean {
    return this.nextNode === log.fold.timeline.nodeCount && this.events === log.length
  }

  /** Messages on the surface after folding events `0..index` (0 before any event). */
  messagesAfter(index: number): number {
    const k = this.changeIndex.countAtMost(index) - 1
    return k < 0 ? 0 : this.changeMessages.get(k)
  }

  /** Estimated surface tokens after folding events `0..index`. */
  tokensAfter(index: number): number {
    const k = this.changeIndex.countAtMost(index) - 1
    return k < 0 ? 0 : this.changeTokens.get(k)
  }

  /** Bytes held by the typed arrays (the memory benchmark, docs/benchmarks.md). */
  get byteLength(): number {
    return [
      this.changeIndex,
      this.changeMessages,
      this.changeTokens,
      this.usageIndex,
      this.usageInput,
      this.usageOutput,
      this.usageCacheRead,
      this.usageCacheWrite,
      this.nodeTokens,
    ].reduce((sum, v) => sum + v.byteLength, 0)
  }
}

/**
 * `shadowedTokenCount` of the event that announced a replacement: the `compaction/summary` of its
 * `compactionId`, or the `compaction/prune` right before a pruned tool result; null when not logged.
 */
export function loggedShadowedTokens(
  log: LensLog,
  link: LensLog['replacementLinks'][number] | undefined,
  index: number,
): number | null {
  let at: number | undefined
  if (link?.kind === 'summary' && link.compactionId !== undefined) at = log.compactions.groups.get(link.compactionId)?.summary
  else if (link?.kind === 'prune') at = link.pruneIndex
  // Only an announcement before the replacement counts (a reused compactionId may have a later summary).
  if (at === undefined || at >= index) return null
  const event = log.event(at)
  return isRecord(event) && isRecord(event.data) ? safeCount(event.data['shadowedTokenCount']) : null
}
