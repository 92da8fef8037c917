/**
 * The sessions list's digest of a log: checked on every real harness fixture against a full decode (every record
 * parsed, packed rows expanded), and on hand-made records for the cases the fixtures lack (a title changed later, a
 * turn left open, records the quick peek does not recognize, reading on after a pause).
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { SessionDecoder } from '../decode/session-decoder.ts'
import { expandPackedMember } from '../decode/packed-rows.ts'
import { isRecord, type LogEvent } from '../model/log-event.ts'
import { SessionDigestCollector, digestLines } from './session-digest.ts'
import { sessionKindOf } from './session-kind.ts'

const enc = new TextEncoder()

/** Every event of a log, the slow way: the core's decoder, packed rows expanded. */
function allEvents(text: string): LogEvent[] {
  const events: LogEvent[] = []
  const decoder = new SessionDecoder({
    header: () => undefined,
    record: (record) => {
      if (record.kind === 'row') for (let k = 0; k < record.size; k++) events.push(expandPackedMember(record.row, k))
      else events.push(record.event)
    },
    diagnostic: () => undefined,
  })
  decoder.push(enc.encode(text))
  decoder.finish()
  return events
}

function bodyLines(text: string): string[] {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines.slice(1)
}

const line = (value: Record<string, unknown>): string => JSON.stringify(value)
const userMessage = (seq: number, text: string, kind = 'user'): string =>
  line({
    type: 'user/message',
    seq,
    time: seq,
    data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind } },
    surfaceOp: 'append',
  })
const title = (seq: number, text: string): string =>
  line({ type: 'session/title', seq, time: seq, data: { title: text, messageSeqs: [0], source: { kind: 'fallback' } } })

describe('the session digest on the harness fixtures', () => {
  it.runIf(fixturesAvailable())('counts every event and finds the latest title, as a full decode does', () => {
    let titled = 0
    for (const fixture of listFixtures()) {
      const text = readFileSync(fixture.path, 'utf8')
      const digest = digestLines(bodyLines(text))
      const events = allEvents(text)
      expect(digest.eventCount, fixture.name).toBe(fixture.expected.eventCount)
      const titles = events.filter((e) => e.type === 'session/title' && isRecord(e.data) && typeof e.data['title'] === 'string')
      const last = titles.at(-1)
      const expected = last === undefined ? null : (last.data as { title: string }).title.trim() || null
      expect(digest.title, fixture.name).toBe(expected)
      if (expected !== null) titled++
      const lastTurnEvent = events.filter((e) => e.type === 'turn/start' || e.type === 'turn/end').at(-1)
      expect(digest.turnOpen, fixture.name).toBe(lastTurnEvent?.type === 'turn/start')
    }
    // The lane means something only if the fixtures hold titles at all.
    expect(titled).toBeGreaterThan(5)
  })
})

describe('the session digest', () => {
  it('takes the latest title, and the first line of the first prompt the user wrote', () => {
    const digest = digestLines([
      userMessage(0, 'runtime context', 'runtime-context'),
      userMessage(1, '\n  Fix the parser\nbecause it breaks on quotes'),
      title(2, 'First title'),
      userMessage(3, 'a second prompt'),
      title(4, '  Better title  '),
      title(5, '   '),
    ])
    expect(digest).toStrictEqual({
      title: 'Better title',
      prompt: 'Fix the parser',
      eventCount: 6,
      lastSeq: 5,
      turnOpen: false,
      skippedLines: 0,
    })
  })

  it('says a turn is open until its turn/end, across pushes', () => {
    const collector = new SessionDigestCollector()
    collector.observeLine(line({ type: 'turn/start', seq: 0, time: 0, data: { turn: 1 } }))
    expect(collector.digest().turnOpen).toBe(true)
    collector.observeLine(line({ type: 'turn/end', seq: 1, time: 1, data: { turn: 1, reason: { kind: 'completed' } } }))
    expect(collector.digest().turnOpen).toBe(false)
    collector.observeLine(line({ type: 'turn/start', seq: 2, time: 2, data: { turn: 2 } }))
    expect(collector.digest()).toMatchObject({ turnOpen: true, eventCount: 3, lastSeq: 2 })
  })

  it('counts a packed row as its members, and reads records whose keys are not in the harness order', () => {
    const digest = digestLines([
      line({
        type: 'text-chunks',
        seq0: 0,
        time0: 1,
        data: { turn: 1, step: 1, index: 0, dt: [1, 1], texts: ['a', 'b', 'c'] },
      }),
      // Keys in another order: the row is parsed, and counted by its texts.
      JSON.stringify({
        seq0: 3,
        type: 'text-chunks',
        time0: 2,
        data: { turn: 1, step: 1, index: 0, dt: [1], texts: ['d', 'e'] },
      }),
      // `seq` before `type`: the peek does not match, the record is parsed.
      JSON.stringify({ seq: 5, type: 'session/title', time: 4, data: { title: 'Reordered' } }),
      'not json',
      line({ type: 'step/start', time: 5, data: {} }),
    ])
    expect(digest).toStrictEqual({
      title: 'Reordered',
      prompt: null,
      eventCount: 6,
      lastSeq: 5,
      turnOpen: false,
      skippedLines: 2,
    })
  })

  it('names the kind of a session from its header', () => {
    expect(sessionKindOf(null)).toBe('root')
    expect(sessionKindOf({})).toBe('root')
    expect(sessionKindOf({ parentSession: 'p', origin: 'subagent' })).toBe('subagent')
    expect(sessionKindOf({ parentSession: 'p' })).toBe('fork')
  })
})
