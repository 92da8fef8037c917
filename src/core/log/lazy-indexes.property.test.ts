/**
 * An index a reader asks for late is the index a reader who kept it all along has (log-indexes.ts): on generated
 * realistic steps (packed or not, clocks bent), on logs with provider-rule defects, on mutated logs, on every harness
 * fixture (the web-- ones upgraded from legacy shapes) and the fuzz corpus, three readers must agree on every index:
 * one that keeps them all while it reads, one that asks after the last byte, and one that asks halfway (the index is
 * then built from what was read so far and kept current for the rest, as for a live log). A failing run prints its
 * seed; FC_SEED replays it.
 */

import { readdirSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { brokenRequestLogArb } from '../../test-support/broken-request-log-arbitrary.ts'
import { mutatedJsonLogArb } from '../../test-support/log-arbitrary.ts'
import { packRecords, toJsonlBytes, type TestEvent } from '../../test-support/log-builder.ts'
import { requestLogArb } from '../../test-support/request-log-arbitrary.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { eventTypeLabel } from '../model/log-event.ts'
import type { RowList } from '../projection/transcript-rows.ts'
import { LensLog } from './lens-log.ts'
import { LOG_INDEXES, type LogIndex } from './log-indexes.ts'

const checksum = await loadContentChecksum()
const CORPUS = new URL('../../test-support/fuzz-corpus/', import.meta.url)

const rows = (list: RowList) => ({ index: list.index.toArray(), kind: list.kind.toArray(), span: list.span.toArray() })

/** Everything each index holds, as plain data (the timing's clock steps through `spansBackStep`). */
function snapshot(log: LensLog, which: LogIndex): unknown {
  switch (which) {
    case 'transcript':
      return { all: rows(log.allRows), messages: rows(log.messageRows) }
    case 'compactions':
      return { groups: [...log.compactions.groups.entries()], links: log.replacementLinks }
    case 'turns':
      return { turns: log.turns.turns, starts: log.turns.starts.toArray() }
    case 'timing': {
      const t = log.timing
      const steps = t.steps.length
      const backs = Array.from({ length: log.length }, (_, i) => t.spansBackStep(i - 1, i))
      return { steps: t.steps, backwards: t.backwards, zero: t.zero, lastTime: t.lastTime, backs, count: steps }
    }
    case 'requests':
      return {
        headers: log.requestHeaders.toArray(),
        shapes: Array.from({ length: log.fold.timeline.nodeCount }, (_, node) => log.wireShapes.get(node)),
      }
    case 'state':
      return log.stateEvents.toArray()
  }
}

function read(bytes: Uint8Array, keep: readonly LogIndex[], cut: number, askAtCut: boolean): LensLog {
  const log = new LensLog({ checksum, keep })
  log.push(bytes.subarray(0, cut))
  if (askAtCut) for (const which of LOG_INDEXES) snapshot(log, which)
  log.push(bytes.subarray(cut))
  log.finish()
  return log
}

function expectSameIndexes(bytes: Uint8Array, cutFraction: number): void {
  const cut = Math.floor(cutFraction * bytes.length)
  const kept = read(bytes, LOG_INDEXES, cut, false)
  const late = read(bytes, [], cut, false)
  const halfway = read(bytes, [], cut, true)
  for (const which of LOG_INDEXES) {
    const expected = snapshot(kept, which)
    expect(snapshot(late, which), which).toStrictEqual(expected)
    expect(snapshot(halfway, which), which).toStrictEqual(expected)
  }
  // Asking built nothing that changes what every reader gets.
  expect(late.diagnostics).toStrictEqual(kept.diagnostics)
  expect(late.typeCounts).toStrictEqual(kept.typeCounts)
  // The type kept per record is the type of the event as read (upgraded, a packed member, a value with no type).
  for (let i = 0; i < late.length; i++) expect(late.typeOf(i), `typeOf(${i})`).toBe(eventTypeLabel(late.event(i)?.type))
  expect(late.typeOf(late.length)).toBeUndefined()
}

/** Some events' clocks at 0 or stepped back, so the timing's clock checks have something to find. */
const bend = (events: readonly TestEvent[], edits: readonly number[]): TestEvent[] =>
  events.map((event, i) => {
    const edit = edits[i % Math.max(1, edits.length)] ?? 0
    return edit === 0 ? event : { ...event, time: edit === 1 ? 0 : (event['time'] as number) - edit * 1000 }
  })

describe('an index built when first asked equals the index kept while reading', () => {
  it('realistic steps, packed or not, clocks bent, asked for at any point', () => {
    fc.assert(
      fc.property(requestLogArb, fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 32 }), (r, edits) => {
        const events = bend(r.events, edits)
        expectSameIndexes(toJsonlBytes(r.packed ? packRecords(events) : events), r.cut)
      }),
      { numRuns: 300 },
    )
  })

  it('steps breaking the provider rules (orphans, unanswered calls, duplicate ids, lone surrogates)', () => {
    fc.assert(
      fc.property(brokenRequestLogArb, fc.double({ min: 0, max: 1, noNaN: true }), (r, cut) => {
        expectSameIndexes(toJsonlBytes(r.events), cut)
      }),
      { numRuns: 200 },
    )
  })

  it('mutated logs the fold refuses', () => {
    fc.assert(
      fc.property(mutatedJsonLogArb, fc.double({ min: 0, max: 1, noNaN: true }), (m, cut) => {
        expectSameIndexes(toJsonlBytes(m.events), cut)
      }),
      { numRuns: 300 },
    )
  })

  it('the fuzz corpus (torn, non-object and hostile records)', () => {
    for (const name of readdirSync(CORPUS).filter((n) => n.endsWith('.jsonl'))) {
      expectSameIndexes(readFileSync(new URL(name, CORPUS)), 0.5)
    }
  })

  it('a legacy steering/message the reader upgrades to a user/message (the index reads the upgraded type)', () => {
    const events: TestEvent[] = [
      { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
      {
        type: 'user/message',
        seq: 1,
        time: 2,
        data: { id: 'u', role: 'user', content: [], source: { kind: 'user' } },
        surfaceOp: 'append',
      },
      {
        type: 'steering/message',
        seq: 2,
        time: 3,
        data: { turn: 1, content: [{ type: 'text', text: 'and this' }], source: { kind: 'user' } },
        surfaceOp: 'append',
      },
      { type: 'turn/end', seq: 3, time: 4, data: { turn: 1, reason: { kind: 'completed' } } },
    ]
    const bytes = toJsonlBytes(events)
    expectSameIndexes(bytes, 1)
    const late = read(bytes, [], bytes.length, false)
    expect(late.messageRows.index.toArray()).toStrictEqual(Int32Array.from([1, 2]))
    expect(late.typeCounts.get('steering/message')).toBe(1)
  })

  it.runIf(fixturesAvailable())('every harness fixture, legacy upgrades included', () => {
    for (const fixture of listFixtures()) expectSameIndexes(readFileSync(fixture.path), 0.37)
  })
})
