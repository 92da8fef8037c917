/**
 * The inspector's answers about one event: its detail at a cursor (where it entered and left the surface, its
 * counterparts in the other pane, the replacement it made, its diagnostics, the steps that carried it), and its long
 * JSON in pieces (detail-text.ts keeps the last few texts, so "Show more" does not stringify again).
 */

import { stepsInRanges, type SpanSteps } from '../core/index.ts'
import { RAW_JSON_MAX_CHARS, type DetailTextChunk, type DetailTextField, type EventDetail } from '../protocol/event-views.ts'
import type { ReplacementInfo } from '../protocol/log-summary.ts'
import { indexOfSeq, nodeOfIndex } from './cursor-query.ts'
import { DetailTexts } from './detail-text.ts'
import type { OpenLog } from './open-log.ts'
import { summarize } from './rows-query.ts'
import { safeStringify } from './safe-json.ts'

/** Hidden-character counts of an empty text. */
const NO_HIDDEN = { total: 0, bidi: 0, invisible: 0, control: 0, surrogate: 0 } as const
/** Counterpart lists for huge compactions are capped; the inspector says how many there are. */
const COUNTERPARTS_MAX = 2000

export class DetailQueries {
  private readonly texts = new DetailTexts()

  detail(open: OpenLog, index: number, cursor: number): EventDetail | null {
    const log = open.lensLog
    const summary = summarize(open, index, 1)
    const event = log.event(index)
    if (summary === null || event === undefined) return null
    const timeline = log.fold.timeline
    const node = nodeOfIndex(open, index)
    let surfaceCounterpart: number | null = null
    for (let n = node; n !== -1;) {
      if (timeline.indexOf(n) > cursor) break
      const by = timeline.shadowedBy(n)
      if (by === -1 || timeline.indexOf(by) > cursor) {
        surfaceCounterpart = timeline.seqOf(n)
        break
      }
      n = by
    }
    const replacement = open.replacements.atIndex(index) ?? null
    const transcriptCounterparts: number[] = []
    if (replacement !== null) collectCovered(open, replacement, transcriptCounterparts)
    else if (summary.kind === 'message' && summary.seq !== null) transcriptCounterparts.push(summary.seq)
    const firstCounterpart = transcriptCounterparts[0]
    const counterpartIndex = firstCounterpart === undefined ? -1 : indexOfSeq(open, firstCounterpart)
    const counterpartRows =
      counterpartIndex < 0
        ? null
        : { messages: log.messageRows.countAt(counterpartIndex) - 1, all: log.allRows.countAt(counterpartIndex) - 1 }
    const sources = Array.isArray(event.sourceEventSeqs)
      ? event.sourceEventSeqs.filter((s): s is number => typeof s === 'number')
      : []
    // Only the first part of a long JSON goes out with the detail; the inspector asks for more (`detailText`).
    const raw = this.texts.chunk(log, index, 'raw', 0, RAW_JSON_MAX_CHARS)
    const disk = this.texts.chunk(log, index, 'disk', 0, RAW_JSON_MAX_CHARS)
    return {
      summary,
      rawJson: raw?.text ?? '',
      onDiskJson: disk?.text ?? null,
      rawJsonInfo: { total: raw?.total ?? 0, hidden: raw?.hidden ?? NO_HIDDEN },
      onDiskJsonInfo: disk === null ? null : { total: disk.total, hidden: disk.hidden },
      surfaceOp: event.surfaceOp === undefined ? null : (safeStringify(event.surfaceOp) ?? null),
      sourceEventSeqs: sources,
      enteredSeq: node === -1 ? null : timeline.seqOf(node),
      shadowedAtSeq: summary.surface?.shadowedBySeq ?? null,
      surfaceCounterpart,
      transcriptCounterparts,
      counterpartRows,
      replacement,
      diagnostics: log.diagnostics.filter((d) => d.index === index).slice(0, 100),
      lifespanSteps: lifespanSteps(open, node),
    }
  }

  /** A piece of the selected event's JSON (`field` raw or on disk) for the inspector's "Show more" and copy. */
  detailText(open: OpenLog, index: number, field: DetailTextField, offset: number, length: number): DetailTextChunk | null {
    return this.texts.chunk(open.lensLog, index, field, offset, length)
  }

  /** The whole of that JSON as a Blob, for "Copy full value" and "Save full value". */
  detailBlob(open: OpenLog, index: number, field: DetailTextField): Blob | null {
    const text = this.texts.text(open.lensLog, index, field)
    return text === null ? null : new Blob([text], { type: 'application/json' })
  }
}

/** When node `node` was on the surface, with the steps whose request carried it (null: not a surface node). */
function lifespanSteps(open: OpenLog, node: number): SpanSteps | null {
  if (node === -1) return null
  const log = open.lensLog
  const timeline = log.fold.timeline
  const by = timeline.shadowedBy(node)
  const from = timeline.indexOf(node)
  const to = by === -1 ? log.length - 1 : timeline.indexOf(by) - 1
  return to < from ? null : (stepsInRanges(log, [{ from, to }])[0] ?? null)
}

/** Leaf transcript seqs a replacement stands for, through nested replacements. */
function collectCovered(open: OpenLog, replacement: ReplacementInfo, out: number[]): void {
  for (const seq of replacement.shadowedSeqs) {
    if (out.length >= COUNTERPARTS_MAX) return
    const nested = open.replacements.atSeq(seq)
    if (nested !== undefined) collectCovered(open, nested, out)
    else out.push(seq)
  }
}
