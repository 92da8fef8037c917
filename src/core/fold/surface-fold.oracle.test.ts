/**
 * Differential properties: on realistic generated logs and on every kind of
 * mutation of them, our strict fold gives the harness's own answers — same nodes,
 * same replacements, same first error at the same index with the same text — and
 * time travel equals refolding the prefix. Together with the JSONL lane this
 * folds well over 10,000 logs per run.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { mutatedLogArb, validLogArb } from '../../test-support/log-arbitrary.ts'
import { SurfaceFold } from './surface-fold.ts'

function ourVerdict(events: readonly unknown[]) {
  const fold = new SurfaceFold((index) => events[index])
  for (const event of events) fold.push(event)
  const last = fold.strictCount - 1
  const timeline = fold.timeline
  const nodes = Array.from(timeline.nodesAfter(last), (n) => timeline.seqOf(n))
  const replacements = timeline.replacements
    .slice(0, timeline.replacementsAfter(last))
    .map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: [...r.shadowedSeqs] }))
  const first = fold.firstViolation
  return { fold, nodes, replacements, error: first === undefined ? null : { index: first.index, message: first.message } }
}

describe('surface fold against the harness (differential)', () => {
  it('valid logs: same nodes, replacements and generation; no error', () => {
    fc.assert(
      fc.property(validLogArb, (events) => {
        const harness = harnessVerdict(events)
        const ours = ourVerdict(events)
        expect(harness.error).toBeNull()
        expect(ours.error).toBeNull()
        expect(ours.nodes).toStrictEqual(harness.nodes)
        expect(ours.replacements).toStrictEqual(harness.replacements)
        expect(ours.fold.timeline.replaceGeneration).toBe(harness.replaceGeneration)
        expect(ours.fold.timeline.currentSeqs()).toStrictEqual(harness.nodes)
      }),
      { numRuns: 2500 },
    )
  })

  it('mutated logs: same first error (index and message) and same strict results', () => {
    let rejected = 0
    fc.assert(
      fc.property(mutatedLogArb, ({ events }) => {
        const harness = harnessVerdict(events)
        const ours = ourVerdict(events)
        if (harness.error !== null) rejected++
        expect(ours.error).toStrictEqual(harness.error)
        expect(ours.nodes).toStrictEqual(harness.nodes)
        expect(ours.replacements).toStrictEqual(harness.replacements)
      }),
      { numRuns: 6000 },
    )
    // The mutations must mostly produce invalid logs, or this property proves little.
    expect(rejected).toBeGreaterThan(3000)
  })

  it('time travel: the surface after event i equals folding events 0..i', () => {
    fc.assert(
      fc.property(validLogArb, fc.nat(), (events, pick) => {
        const ours = ourVerdict(events)
        const i = pick % events.length
        const refold = harnessVerdict(events.slice(0, i + 1))
        const timeline = ours.fold.timeline
        expect(Array.from(timeline.nodesAfter(i), (n) => timeline.seqOf(n))).toStrictEqual(refold.nodes)
        expect(timeline.replacementsAfter(i)).toBe(refold.replacements.length)
        expect(Array.from(timeline.nodesAfter(-1))).toStrictEqual([])
      }),
      { numRuns: 1000 },
    )
  })

  it('the continued fold never throws and records the harness verdict first', () => {
    fc.assert(
      fc.property(mutatedLogArb, ({ events }) => {
        const ours = ourVerdict(events)
        expect(ours.fold.count).toBe(events.length)
        for (const v of ours.fold.violations) expect(v.index).toBeLessThan(events.length)
      }),
      { numRuns: 500 },
    )
  })
})
