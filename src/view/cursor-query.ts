/**
 * The cursor's answers: the state after folding events `0..index` (the surface's nodes, row and message counts,
 * replacements so far), and the event index that holds a seq. From the core's slot timeline and row lists, never
 * refolded.
 */

import { DeriveOutcome } from '../core/index.ts'
import { indexOfSeqInSummary, type CursorSnapshot } from '../protocol/log-summary.ts'
import type { OpenLog } from './open-log.ts'

/** The cursor state after folding events `0..index` (clamped to the log). */
export function stateAt(open: OpenLog, index: number): CursorSnapshot {
  const log = open.lensLog
  const last = log.length - 1
  const at = Math.max(-1, Math.min(Math.trunc(index), last))
  if (at < 0) {
    return {
      index: -1,
      seq: -1,
      messageRowCount: 0,
      allRowCount: 0,
      messageCount: 0,
      surfaceSeqs: new Float64Array(0),
      surfaceIndices: new Int32Array(0),
      replacementCount: 0,
    }
  }
  const timeline = log.fold.timeline
  const nodes = log.nodesAfter(at)
  const surfaceSeqs = new Float64Array(nodes.length)
  const surfaceIndices = new Int32Array(nodes.length)
  let messageCount = 0
  for (let k = 0; k < nodes.length; k++) {
    const node = nodes[k] as number
    surfaceSeqs[k] = timeline.seqOf(node)
    surfaceIndices[k] = timeline.indexOf(node)
    if (log.nodeDerives(node) === DeriveOutcome.Message) messageCount++
  }
  const seq = log.seqOf(at)
  return {
    index: at,
    seq: typeof seq === 'number' ? seq : at,
    messageRowCount: log.messageRows.countAt(at),
    allRowCount: log.allRows.countAt(at),
    messageCount,
    surfaceSeqs,
    surfaceIndices,
    replacementCount: timeline.replacementsAfter(at),
  }
}

/** Event index holding `seq`, or -1. */
export function indexOfSeq(open: OpenLog, seq: number): number {
  const log = open.lensLog
  const known = indexOfSeqInSummary({ seqIsIndex: log.seqIsIndex, length: log.length }, seq)
  if (known !== null) return known
  const node = log.fold.timeline.findNode(seq)
  if (node !== -1) return log.fold.timeline.indexOf(node)
  for (let i = 0; i < log.length; i++) if (log.seqOf(i) === seq) return i
  return -1
}

/** The surface node entered by event `index`, or -1 (log-only events, skipped events). */
export function nodeOfIndex(open: OpenLog, index: number): number {
  const log = open.lensLog
  const seq = log.seqOf(index)
  if (typeof seq !== 'number') return -1
  const timeline = log.fold.timeline
  const node = timeline.findNode(seq)
  return node !== -1 && timeline.indexOf(node) === index ? node : -1
}
