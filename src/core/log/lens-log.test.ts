/**
 * LensLog's projections on a generated log with every kind of replacement:
 * provenance links (summary by compactionId, prune by adjacency), entered /
 * shadowed seqs per surface node, the transcript rows, derived messages
 * (including the empty max-tokens assistant message) and turn structure.
 */

import { describe, expect, it } from 'vitest'
import { LogBuilder, packRecords, toJsonlBytes } from '../../test-support/log-builder.ts'
import { DeriveOutcome } from '../fold/derive-message.ts'
import { RowKind } from '../projection/transcript-rows.ts'
import { LensLog } from './lens-log.ts'

function build() {
  const b = new LogBuilder()
  b.apply({ kind: 'user', text: 'hello' }) // 0
  b.apply({ kind: 'assistant', text: 'hi', chunks: 4, reasoning: false }) // turn 1 step 1
  b.apply({ kind: 'tools', calls: 1, resultSize: 10 })
  b.apply({ kind: 'prune', pick: 0 })
  b.apply({ kind: 'compact', from: 0, length: 1 })
  b.apply({ kind: 'user', text: 'more' })
  b.apply({ kind: 'compact', from: 0, length: 5 }) // swallows the first summary
  b.apply({ kind: 'empty-assistant' })
  b.apply({ kind: 'turn-boundary' })
  const log = new LensLog()
  log.push(toJsonlBytes(packRecords(b.events)))
  log.finish()
  return { log, events: b.events }
}

describe('LensLog projections', () => {
  const { log, events } = build()
  const timeline = log.fold.timeline

  it('folds cleanly', () => {
    expect(log.fold.firstViolation).toBeUndefined()
    expect(log.length).toBe(events.length)
    expect(log.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([])
  })

  it('links each replacement to what explains it', () => {
    expect(log.replacementLinks.map((l) => l.kind)).toStrictEqual(['prune', 'summary', 'summary'])
    const prune = timeline.replacements[0]
    expect(log.event(log.replacementLinks[0]?.pruneIndex ?? -1)?.type).toBe('compaction/prune')
    expect(prune?.shadowedSeqs).toHaveLength(1)
    for (const link of log.replacementLinks.slice(1)) {
      const group = log.compactions.groups.get(link.compactionId ?? '')
      expect(group).toMatchObject({
        start: expect.any(Number),
        summary: expect.any(Number),
        end: expect.any(Number),
        checkpoint: expect.any(Number),
      })
      expect(log.event(group?.start ?? -1)?.type).toBe('compaction/start')
    }
  })

  it('a nested compaction shadows the earlier summary node: a DAG of replacements', () => {
    const [, first, second] = timeline.replacements
    expect(second?.shadowedSeqs).toContain(first?.seq)
    const firstNode = timeline.findNode(first?.seq ?? -1)
    expect(timeline.seqOf(timeline.shadowedBy(firstNode))).toBe(second?.seq)
    expect(timeline.indexOf(firstNode)).toBe(first?.index)
  })

  it('every surface node knows when it entered and what shadowed it', () => {
    for (let node = 0; node < timeline.nodeCount; node++) {
      const by = timeline.shadowedBy(node)
      if (by !== -1) expect(timeline.seqOf(by)).toBeGreaterThan(timeline.seqOf(node))
      expect(log.seqOf(timeline.indexOf(node))).toBe(timeline.seqOf(node))
    }
  })

  it('transcript rows: append-origin messages in order; chunks collapse into runs; replacements are markers', () => {
    const kinds = Array.from({ length: log.allRows.length }, (_, i) => log.allRows.kind.get(i))
    expect(kinds).toContain(RowKind.ChunkRun)
    expect(kinds.filter((k) => k === RowKind.Replacement)).toHaveLength(3)
    const messageSeqs = Array.from({ length: log.messageRows.length }, (_, i) => log.messageRows.index.get(i))
    const appendSeqs = events.filter((e) => e['surfaceOp'] === 'append').map((e) => e['seq'])
    expect(messageSeqs).toStrictEqual(appendSeqs)
    const chunkRun = kinds.indexOf(RowKind.ChunkRun)
    expect(log.allRows.span.get(chunkRun)).toBe(4)
    expect(log.messageRows.countAt(0)).toBe(1)
  })

  it('the empty assistant message is on the surface but derives no model message', () => {
    const empty = events.findIndex(
      (e) => e['type'] === 'assistant/message' && (e['data'] as { message: { content: unknown[] } }).message.content.length === 0,
    )
    const node = timeline.findNode(empty)
    expect(log.nodeDerives(node)).toBe(DeriveOutcome.Nothing)
    const last = log.length - 1
    expect(log.messageCountAfter(last)).toBe(log.nodesAfter(last).length - 1)
  })

  it('turn and step structure', () => {
    expect(log.turns.turns[0]).toMatchObject({ turn: 1, start: expect.any(Number), end: expect.any(Number), reason: 'completed' })
    expect(log.turns.turns[0]?.steps.length).toBeGreaterThanOrEqual(2)
    expect(log.turns.openTurn?.turn).toBe(2)
    expect(log.turns.turnAt(log.turns.turns[0]?.start ?? -1)?.turn).toBe(1)
  })
})

describe('a log that ends inside a turn', () => {
  it('says which closers the harness would synthesize, in its order', () => {
    const b = new LogBuilder()
    b.apply({ kind: 'user', text: 'go' })
    b.apply({ kind: 'tools', calls: 2, resultSize: 1 })
    // Cut the log after the assistant's tool calls and the first tool/call: one call started, one not.
    const cut = b.events.findIndex((e) => e['type'] === 'tool/result')
    const log = new LensLog()
    log.push(toJsonlBytes(b.events.slice(0, cut)))
    log.finish()
    expect(log.wouldSynthesize().map((c) => [c.type, c.code])).toStrictEqual([
      ['tool/result', 'TOOL_OUTCOME_UNKNOWN'],
      ['tool/result', 'TOOL_NOT_STARTED'],
      ['step/end', undefined],
      ['turn/end', undefined],
    ])
    expect(log.wouldSynthesize()[0]?.seq).toBe(cut)
    expect(log.diagnostics.map((d) => d.code)).toStrictEqual(['open-turn'])
  })
})
